//===- Formatting.h - textDocument/formatting and rangeFormatting -*- C++ -*-===//
#ifndef ACCY_LSP_FORMATTING_H
#define ACCY_LSP_FORMATTING_H

#include "Analysis.h"
#include "Protocol.h"

#include <optional>
#include <vector>

namespace accy::lsp {

/// The edit that gives the document accy-format's layout: none when it is
/// already formatted or does not parse. With `range`, only the top-level
/// items the range touches are laid out. The indent width is accy-format's
/// default, not the editor's tab size, so that the editor and `accy-format
/// --check` in CI agree.
std::vector<TextEdit> findFormattingEdits(const Analysis &analysis,
                                          std::optional<Range> range);

} // namespace accy::lsp

#endif // ACCY_LSP_FORMATTING_H
