//===- AstLookup.h - What is at a position in the typed AST -----*- C++ -*-===//
#ifndef ACCY_LSP_ASTLOOKUP_H
#define ACCY_LSP_ASTLOOKUP_H

#include "Analysis.h"

#include <vector>

namespace accy::lsp {

/// The item and innermost node of the main file at a byte offset.
struct AstSelection {
  /// The kernel or fn whose range contains the offset.
  const FunctionBase *item = nullptr;
  bool itemIsKernel = false;
  /// Set when the offset is on the item's own name.
  bool onItemName = false;
  /// The innermost expression containing the offset (in the item's body).
  const Expr *expr = nullptr;
  /// Set when the offset is on a let's name or a parameter's name.
  const LetBinding *let = nullptr;
  const ParamBinding *param = nullptr;
  /// Set when the offset is on a const's name.
  const ConstDecl *constDecl = nullptr;
};

AstSelection selectAt(const Analysis &analysis, uint32_t offset);

/// The lets of an item's own body, in order.
std::vector<const LetBinding *> letsOf(const FunctionBase &item);

inline bool contains(const SourceRange &range, FileID file, uint32_t offset) {
  return range.file == file && range.begin <= offset && offset <= range.end;
}

} // namespace accy::lsp

#endif // ACCY_LSP_ASTLOOKUP_H
