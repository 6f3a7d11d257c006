//===- DocumentSymbols.h - The outline of a document ------------*- C++ -*-===//
#ifndef ACCY_LSP_DOCUMENTSYMBOLS_H
#define ACCY_LSP_DOCUMENTSYMBOLS_H

#include "Analysis.h"
#include "Protocol.h"

#include <vector>

namespace accy::lsp {

/// Imports, consts, fns and kernels, with their parameters and lets as
/// children. Built from the parse tree, so a file with errors still has
/// an outline; types come from sema where it typed the item.
std::vector<DocumentSymbol> findDocumentSymbols(const Analysis &analysis);

} // namespace accy::lsp

#endif // ACCY_LSP_DOCUMENTSYMBOLS_H
