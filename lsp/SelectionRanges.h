//===- SelectionRanges.h - Growing a selection by syntax --------*- C++ -*-===//
#ifndef ACCY_LSP_SELECTIONRANGES_H
#define ACCY_LSP_SELECTIONRANGES_H

#include "Analysis.h"
#include "Protocol.h"

#include <vector>

namespace accy::lsp {

/// For each position, the parse-tree nodes around it, innermost first: a
/// name, the expressions containing it, its statement, the body, the item.
std::vector<SelectionRange>
findSelectionRanges(const Analysis &analysis,
                    const std::vector<Position> &positions);

} // namespace accy::lsp

#endif // ACCY_LSP_SELECTIONRANGES_H
