//===- InlayHints.h - The inferred shape of every let -----------*- C++ -*-===//
#ifndef ACCY_LSP_INLAYHINTS_H
#define ACCY_LSP_INLAYHINTS_H

#include "Analysis.h"
#include "Protocol.h"

#include <vector>

namespace accy::lsp {

/// `: f32[N, D]` after the name of each `let` of the main file whose name
/// lies in `range`.
std::vector<InlayHint> findInlayHints(const Analysis &analysis, Range range);

} // namespace accy::lsp

#endif // ACCY_LSP_INLAYHINTS_H
