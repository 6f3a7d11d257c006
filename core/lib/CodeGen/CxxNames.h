//===- CxxNames.h - Accy names as C++ identifiers ---------------*- C++ -*-===//
//
// The generated header speaks the kernel's own names: a launch function is
// named after its kernel and its parameters after the kernel's parameters.
// Accy takes names that C++ does not (`new`, `class`, `int`, `__x`); those
// are escaped, the same way in every header. See docs/runtime.md, "Names".
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_CODEGEN_CXXNAMES_H
#define ACCY_CODEGEN_CXXNAMES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace accy::codegen {

/// Whether C++ rejects `name` as a function or parameter name in the
/// generated code: a keyword or alternative token, a name the implementation
/// reserves (`_X...`, anything with `__`), a macro of the headers the
/// generated code includes (`errno`, `NULL`, ...), or a name the launch
/// function declares itself (`stream`).
bool needsCxxEscape(llvm::StringRef name);

/// The C++ identifiers for `names`, which are distinct and declared in one
/// scope, in the same order: a name that needs no escape stays as it is; an
/// escaped one loses the underscores that make it reserved and gets a
/// trailing `_` (`new_`, `x_` for `__x`), then `2`, `3`... until no other
/// name of the scope has it. Deterministic.
std::vector<std::string> toCxxIdentifiers(llvm::ArrayRef<std::string> names);

} // namespace accy::codegen

#endif // ACCY_CODEGEN_CXXNAMES_H
