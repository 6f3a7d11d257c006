//===- ConstantFold.cpp - accy-choir-constant-fold ------------------------===//
//
// Replaces choir ops whose operands are all constants with their value
// (ConstantEvaluator computes it).
//
//===----------------------------------------------------------------------===//

#include "ConstantEvaluator.h"
#include "accy/Stages/Contract/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace accy::contract {
#define GEN_PASS_DEF_CHOIRCONSTANTFOLD
#include "accy/Stages/Contract/Passes.h.inc"
} // namespace accy::contract

using namespace mlir;
using namespace accy;
using namespace accy::contract;

namespace {

/// Replaces a choir op whose operands are all constants with its value.
struct FoldConstantOperands : RewritePattern {
  FoldConstantOperands(MLIRContext *ctx, int64_t budget, bool allowTables,
                       RewriteCounter *counter)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx),
        budget(budget), allowTables(allowTables), counter(counter) {}

  /// True when an operand already is a constant that is not a splat.
  static bool readsTable(Operation *op) {
    return llvm::any_of(op->getOperands(), [](Value v) {
      DenseElementsAttr attr;
      return matchPattern(v, m_Constant(&attr)) && !attr.isSplat();
    });
  }

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    FailureOr<DenseElementsAttr> result = evaluateChoirOp(op, budget);
    if (failed(result))
      return failure();
    // A new table of values would be constant data that the later stages
    // have to place in memory; computed values (iota, ...) stay computed.
    if (!result->isSplat() && !allowTables && !readsTable(op))
      return failure();
    rewriter.replaceOpWithNewOp<choir::ConstantOp>(op, *result);
    if (counter)
      ++counter->rewrites;
    return success();
  }
  int64_t budget;
  bool allowTables;
  RewriteCounter *counter;
};

struct ChoirConstantFoldPass
    : contract::impl::ChoirConstantFoldBase<ChoirConstantFoldPass> {
  using ChoirConstantFoldBase::ChoirConstantFoldBase;
  void runOnOperation() override {
    RewriteCounter counter;
    RewritePatternSet patterns(&getContext());
    populateChoirConstantFoldPatterns(patterns, maxElements, allowTables,
                                      &counter);
    GreedyRewriteConfig config;
    config.useTopDownTraversal = true;
    (void)applyPatternsAndFoldGreedily(getOperation(), std::move(patterns),
                                       config);
    numFolded += counter.rewrites;
  }
};

} // namespace

void contract::populateChoirConstantFoldPatterns(RewritePatternSet &patterns,
                                                 int64_t maxElements,
                                                 bool allowTables,
                                                 RewriteCounter *counter) {
  patterns.add<FoldConstantOperands>(patterns.getContext(), maxElements,
                                     allowTables, counter);
}
