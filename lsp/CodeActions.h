//===- CodeActions.h - Quick fixes of frontend diagnostics ------*- C++ -*-===//
#ifndef ACCY_LSP_CODEACTIONS_H
#define ACCY_LSP_CODEACTIONS_H

#include "Analysis.h"
#include "ImportSearch.h"
#include "Protocol.h"

#include <optional>
#include <string>
#include <vector>

namespace accy::lsp {

/// Quick fixes of the frontend diagnostics in the document of `a` that
/// `range` touches, each naming its diagnostic as it is published: every
/// fix-it the checker attached, and for an unknown fn or const that a file
/// under `folders` defines (the document's folder when there are none), an
/// import of that file, whose edit is left to resolveImportFix.
std::vector<CodeAction> findCodeActions(const Analysis &a, Range range,
                                        const std::vector<std::string> &folders,
                                        ImportSearch &search);

/// The import action of `data` with its edit; nothing when `a` no longer
/// reports the name as unknown.
std::optional<CodeAction> resolveImportFix(const Analysis &a,
                                           const ImportFixData &data);

} // namespace accy::lsp

#endif // ACCY_LSP_CODEACTIONS_H
