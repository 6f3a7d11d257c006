//===- Linker.h - Running ld.lld --------------------------------*- C++ -*-===//
#ifndef ACCY_LIB_CODEGEN_LINKER_H
#define ACCY_LIB_CODEGEN_LINKER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace accy::codegen {

/// Runs ld.lld (findLinker) with `flags` over `objects`, written to
/// temporary files, and returns what it wrote. Removes every temporary file.
llvm::Expected<std::string> runLinker(llvm::ArrayRef<llvm::StringRef> flags,
                                      llvm::ArrayRef<llvm::StringRef> objects);

} // namespace accy::codegen

#endif // ACCY_LIB_CODEGEN_LINKER_H
