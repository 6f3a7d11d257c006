//===- FoldingRanges.cpp - The foldable regions of a document -------------===//

#include "FoldingRanges.h"

#include <algorithm>

using namespace accy;
using namespace accy::lsp;

std::vector<FoldingRange> accy::lsp::findFoldingRanges(const Analysis &analysis) {
  std::vector<FoldingRange> ranges;
  const SourceModule *module = analysis.mainModule();
  if (!module || !module->syntax)
    return ranges;
  const syntax::Module &syn = *module->syntax;
  auto lineOf = [&](uint32_t offset) {
    return analysis.index().positionOf(offset).line;
  };
  // The last byte's line: a range's end is one past it.
  auto lastLineOf = [&](SourceRange range) {
    return lineOf(range.end > range.begin ? range.end - 1 : range.end);
  };
  auto add = [&](unsigned start, unsigned end, const char *kind) {
    if (end > start)
      ranges.push_back({start, end, kind});
  };
  if (!syn.imports.empty())
    add(lineOf(syn.imports.front().range.begin),
        lastLineOf(syn.imports.back().range), "imports");
  for (const syntax::FunctionDecl &decl : syn.functions) {
    unsigned start = lineOf(decl.range.begin);
    if (decl.bodyRange.isValid()) {
      unsigned close = lastLineOf(decl.bodyRange);
      add(start, close > 0 ? close - 1 : 0, "region");
    }
    for (const syntax::Stmt &stmt : decl.body)
      add(lineOf(stmt.range.begin), lastLineOf(stmt.range), "region");
  }
  for (const syntax::ConstDecl &c : syn.consts)
    add(lineOf(c.range.begin), lastLineOf(c.range), "region");
  std::sort(ranges.begin(), ranges.end(),
            [](const FoldingRange &a, const FoldingRange &b) {
              return a.startLine < b.startLine ||
                     (a.startLine == b.startLine && a.endLine > b.endLine);
            });
  return ranges;
}
