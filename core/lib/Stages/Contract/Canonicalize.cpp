//===- Canonicalize.cpp - accy-choir-canonicalize -------------------------===//
//
// Choir folders and canonicalization patterns to a fixpoint, then CSE. The
// folders (identity `x + 0` of one type, double negation, identity transpose,
// ...) live on the ops; the patterns here cover what a folder cannot do
// because the result needs a new op (a broadcast or a cast).
//
//===----------------------------------------------------------------------===//

#include "ContractUtils.h"
#include "accy/Stages/Contract/Passes.h"

#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace accy::contract {
#define GEN_PASS_DEF_CHOIRCANONICALIZE
#include "accy/Stages/Contract/Passes.h.inc"
} // namespace accy::contract

using namespace mlir;
using namespace accy;
using namespace accy::contract;

namespace {

/// `x op c` where `c` is a splat identity of the op but the result is not
/// x's type: the op is a broadcast (or a cast) of `x`.
template <typename OpTy, int Identity, bool Commutative>
struct IdentityOperand : CountedPattern<OpTy> {
  using CountedPattern<OpTy>::CountedPattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    for (int side = 0; side < (Commutative ? 2 : 1); ++side) {
      Value x = side == 0 ? op.getLhs() : op.getRhs();
      Value c = side == 0 ? op.getRhs() : op.getLhs();
      std::optional<double> value = splatValue(c);
      if (!value || *value != Identity || x.getType() == op.getType())
        continue;
      // The constant may itself widen the result; a broadcast of `x` to the
      // result type covers that too.
      Value replacement =
          reshapeByBroadcast(rewriter, op.getLoc(), x, op.getType());
      if (!replacement)
        continue;
      rewriter.replaceOp(op, replacement);
      noteRewrite(this->counter);
      return success();
    }
    return failure();
  }
};

/// A transpose with the identity permutation whose result type is more
/// static than its input (the folder handles equal types).
struct IdentityTranspose : CountedPattern<choir::TransposeOp> {
  using CountedPattern::CountedPattern;
  LogicalResult matchAndRewrite(choir::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getInput().getType() == op.getType() ||
        !llvm::equal(op.getPerm(), llvm::seq<int64_t>(0, op.getPerm().size())))
      return failure();
    rewriter.replaceOpWithNewOp<tensor::CastOp>(op, op.getType(),
                                                op.getInput());
    noteRewrite(counter);
    return success();
  }
};

/// A reshape to the input's own shape: equal static shapes, or equal shapes
/// whose dynamic sizes are the input's own (one dynamic size is implied by
/// the element count).
struct IdentityReshape : CountedPattern<choir::ReshapeOp> {
  using CountedPattern::CountedPattern;
  LogicalResult matchAndRewrite(choir::ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto in = tensorType(op.getInput());
    if (in != op.getType())
      return failure();
    bool identity = in.getNumDynamicDims() <= 1;
    if (!identity) {
      identity = true;
      unsigned next = 0;
      for (int64_t d = 0; d < in.getRank() && identity; ++d) {
        if (!in.isDynamicDim(d))
          continue;
        auto dim = op.getSizes()[next++].getDefiningOp<tensor::DimOp>();
        std::optional<int64_t> index = dim ? dim.getConstantIndex()
                                           : std::nullopt;
        identity = dim && dim.getSource() == op.getInput() && index &&
                   *index == d;
      }
    }
    if (!identity)
      return failure();
    rewriter.replaceOp(op, op.getInput());
    noteRewrite(counter);
    return success();
  }
};

/// A broadcast that adds no dimension and expands no size-1 dimension.
struct IdentityBroadcast : CountedPattern<choir::BroadcastOp> {
  using CountedPattern::CountedPattern;
  LogicalResult matchAndRewrite(choir::BroadcastOp op,
                                PatternRewriter &rewriter) const override {
    auto in = tensorType(op.getInput());
    if (in.getRank() != op.getType().getRank())
      return failure();
    for (auto [from, to] : llvm::zip(in.getShape(), op.getType().getShape()))
      if (from == 1 && to != 1)
        return failure();
    if (in == op.getType())
      rewriter.replaceOp(op, op.getInput());
    else
      rewriter.replaceOpWithNewOp<tensor::CastOp>(op, op.getType(),
                                                  op.getInput());
    noteRewrite(counter);
    return success();
  }
};

/// A cast whose result type differs from its input only in static sizes.
struct ShapeOnlyCast : CountedPattern<choir::CastOp> {
  using CountedPattern::CountedPattern;
  LogicalResult matchAndRewrite(choir::CastOp op,
                                PatternRewriter &rewriter) const override {
    auto in = tensorType(op.getInput());
    if (in == op.getType() ||
        in.getElementType() != op.getType().getElementType())
      return failure();
    rewriter.replaceOpWithNewOp<tensor::CastOp>(op, op.getType(),
                                                op.getInput());
    noteRewrite(counter);
    return success();
  }
};

/// `select(c, a, b)` with a constant splat condition is the chosen branch.
struct ConstantSelect : CountedPattern<choir::SelectOp> {
  using CountedPattern::CountedPattern;
  LogicalResult matchAndRewrite(choir::SelectOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<double> cond = splatValue(op.getCond());
    if (!cond)
      return failure();
    // The condition's own shape may widen the result.
    Value chosen = *cond != 0 ? op.getOnTrue() : op.getOnFalse();
    Value replacement =
        reshapeByBroadcast(rewriter, op.getLoc(), chosen, op.getType());
    if (!replacement)
      return failure();
    rewriter.replaceOp(op, replacement);
    noteRewrite(counter);
    return success();
  }
};

struct ChoirCanonicalizePass
    : contract::impl::ChoirCanonicalizeBase<ChoirCanonicalizePass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewriteCounter counter;
    RewritePatternSet patterns(ctx);
    populateChoirCanonicalizationPatterns(patterns, &counter);
    // The symbolic sizes are tensor.dim and arith index ops: fold them too.
    tensor::DimOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::CastOp::getCanonicalizationPatterns(patterns, ctx);
    for (RegisteredOperationName name : ctx->getRegisteredOperations())
      if (name.getDialectNamespace() == arith::ArithDialect::getDialectNamespace())
        name.getCanonicalizationPatterns(patterns, ctx);
    GreedyRewriteConfig config;
    config.useTopDownTraversal = true;
    (void)applyPatternsAndFoldGreedily(getOperation(), std::move(patterns),
                                       config);
    numRewrites += counter.rewrites;

    IRRewriter rewriter(ctx);
    DominanceInfo dominance;
    eliminateCommonSubExpressions(rewriter, dominance, getOperation());
  }
};

} // namespace

void contract::populateChoirCanonicalizationPatterns(
    RewritePatternSet &patterns, RewriteCounter *counter) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<IdentityOperand<choir::AddOp, 0, true>,
               IdentityOperand<choir::SubOp, 0, false>,
               IdentityOperand<choir::MulOp, 1, true>,
               IdentityOperand<choir::DivOp, 1, false>, IdentityTranspose,
               IdentityReshape, IdentityBroadcast, ShapeOnlyCast,
               ConstantSelect>(ctx, counter);
}
