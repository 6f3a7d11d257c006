//===- PatternRoots.cpp - Patterns applied where they are rooted ----------===//

#include "PatternRoots.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

LogicalResult accy::target::applyPatternsToRoots(Operation *scope,
                                                 RewritePatternSet &&patterns) {
  FrozenRewritePatternSet frozen(std::move(patterns));
  // A pattern that may match any op needs every op.
  if (!frozen.getMatchAnyOpNativePatterns().empty())
    return applyPatternsAndFoldGreedily(scope, frozen);
  llvm::SmallDenseSet<OperationName> rootNames;
  for (const auto &rooted : frozen.getOpSpecificNativePatterns())
    rootNames.insert(rooted.first);
  SmallVector<Operation *> roots;
  scope->walk([&](Operation *op) {
    if (rootNames.contains(op->getName()))
      roots.push_back(op);
  });
  if (roots.empty())
    return success();
  GreedyRewriteConfig config;
  config.strictMode = GreedyRewriteStrictness::ExistingAndNewOps;
  return applyOpPatternsAndFold(roots, frozen, config);
}
