//===- Rename.h - Renaming a name everywhere it is seen ---------*- C++ -*-===//
#ifndef ACCY_LSP_RENAME_H
#define ACCY_LSP_RENAME_H

#include "References.h"

#include "llvm/Support/Error.h"

namespace accy::lsp {

/// textDocument/prepareRename: the name at `position`, or why it cannot be
/// renamed (a keyword, a built-in, nothing defined in a file).
llvm::Expected<PreparedRename> prepareRename(const Analysis &analysis,
                                             Position position);

/// textDocument/rename: the edits of every file that sees the name (its
/// own, the file defining it, and those importing that one), or why not:
/// `newName` is not an identifier, is a keyword or a built-in, or would
/// clash with or shadow another name (or be shadowed by one) in some file.
llvm::Expected<WorkspaceEdit>
renameSymbol(std::shared_ptr<const Analysis> analysis, Position position,
             const std::string &newName, const Workspace &workspace);

} // namespace accy::lsp

#endif // ACCY_LSP_RENAME_H
