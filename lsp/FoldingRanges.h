//===- FoldingRanges.h - The foldable regions of a document -----*- C++ -*-===//
#ifndef ACCY_LSP_FOLDINGRANGES_H
#define ACCY_LSP_FOLDINGRANGES_H

#include "Analysis.h"
#include "Protocol.h"

#include <vector>

namespace accy::lsp {

/// The block of imports, each kernel's and fn's body (its closing brace
/// stays visible) and every statement that spans lines, from the parse tree.
std::vector<FoldingRange> findFoldingRanges(const Analysis &analysis);

} // namespace accy::lsp

#endif // ACCY_LSP_FOLDINGRANGES_H
