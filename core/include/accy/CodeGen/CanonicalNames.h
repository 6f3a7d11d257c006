//===- CanonicalNames.h - Symbols named apart from the kernel -*- C++ -*-===//
#ifndef ACCY_CODEGEN_CANONICALNAMES_H
#define ACCY_CODEGEN_CANONICALNAMES_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace accy::codegen {

/// The names a piece of PTX code had before LLVM compiled it under
/// canonical ones: its defined symbols become `__accy_sym_NNNNN`, numbered
/// in module order, and the module's name and source file name a constant.
/// Two kernels that lower to the same code but for their names (every
/// symbol the kernel stage defines starts with the kernel's name) then have
/// equal LLVM IR, whose code is generated once (SharedCodegen.h), and each
/// gets it back under its own names: PTX text and LLVM's messages by
/// replacing the canonical names, bitcode by renaming the module's symbols
/// while it is written. Every piece of PTX code is compiled under canonical
/// names, shared or not, so its bytes do not depend on whether it was.
class CanonicalNames {
public:
  /// No renaming: what a piece that is not renamed keeps.
  CanonicalNames() = default;

  /// Renames the defined symbols of `module`. Nothing is renamed (the names
  /// returned are empty) where a name could not come back unchanged: one
  /// that PTX spells otherwise than LLVM IR, or a module that already uses
  /// the canonical prefix.
  static CanonicalNames apply(llvm::Module &module);

  /// Whether `apply` renamed the module.
  bool renamed() const { return isRenamed; }

  /// `text` with the original names back in place of the canonical ones,
  /// also where a canonical name is part of a longer one (PTX names a
  /// function's parameters after it, LLVM names a function's clones).
  /// Text without them is returned as it is, not copied (object code).
  std::string restore(std::string text) const;

  /// The bitcode of `module`, renamed by `apply`, as it would be written
  /// under the original names; `module` keeps its canonical names.
  std::string writeBitcode(llvm::Module &module) const;

private:
  /// The original names, indexed by the canonical names' numbers.
  std::vector<std::string> names;
  std::string moduleName, sourceFileName;
  bool isRenamed = false;
};

} // namespace accy::codegen

#endif // ACCY_CODEGEN_CANONICALNAMES_H
