//===- PTXMerge.h - One PTX module from several -----------------*- C++ -*-===//
#ifndef ACCY_LIB_CODEGEN_PTXMERGE_H
#define ACCY_LIB_CODEGEN_PTXMERGE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace accy::codegen {

/// Merges PTX modules that the NVPTX backend made for one target into one
/// module: the common header, then every module's body, in order. This is
/// what linking their bitcode and generating code again would give, without
/// generating code again. A function that several modules define alike (the
/// entries of one kernel compiled apart each carry the functions they call)
/// is kept once. Returns nullopt when the modules cannot be merged as text
/// (their headers differ, or two declare the same module-scope symbol
/// differently, or the same variable); the caller then links the bitcode
/// instead.
std::optional<std::string> mergePTX(llvm::ArrayRef<llvm::StringRef> modules);

} // namespace accy::codegen

#endif // ACCY_LIB_CODEGEN_PTXMERGE_H
