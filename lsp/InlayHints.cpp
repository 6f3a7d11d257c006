//===- InlayHints.cpp - The inferred shape of every let -------------------===//

#include "InlayHints.h"

#include "AstLookup.h"

using namespace accy;
using namespace accy::lsp;

std::vector<InlayHint> accy::lsp::findInlayHints(const Analysis &analysis,
                                                 Range range) {
  std::vector<InlayHint> hints;
  const SourceModule *module = analysis.mainModule();
  if (!module)
    return hints;
  uint32_t begin = analysis.offsetOf(range.start);
  uint32_t end = analysis.offsetOf(range.end);
  auto addLets = [&](const FunctionBase &item) {
    for (const LetBinding *let : letsOf(item)) {
      // A let whose value did not type-check has no shape worth showing.
      if (!let->value || let->value->getKind() == ExprKind::Error)
        continue;
      if (let->nameRange.begin < begin || let->nameRange.end > end)
        continue;
      hints.push_back({analysis.index().positionOf(let->nameRange.end),
                       ": " + let->type().str()});
    }
  };
  for (const auto &kernel : module->kernels)
    addLets(*kernel);
  for (const auto &fn : module->functions)
    addLets(*fn);
  std::sort(hints.begin(), hints.end(),
            [](const InlayHint &a, const InlayHint &b) {
              return a.position < b.position;
            });
  return hints;
}
