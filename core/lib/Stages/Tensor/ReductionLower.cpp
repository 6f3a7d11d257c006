//===- ReductionLower.cpp - accy-choir-reduction-lower --------------------===//
//
// sum/mean/max/min over any axes: a reduction linalg.generic into a filled
// accumulator (f32 for f16/bf16 sums), a division by the element count for
// mean, and the unit dimensions of keepdims added back by expand_shape.
//
//===----------------------------------------------------------------------===//

#include "ChoirLowering.h"
#include "LoweringUtils.h"
#include "accy/Stages/Tensor/Passes.h"

namespace accy::tensorstage {
#define GEN_PASS_DEF_CHOIRREDUCTIONLOWER
#include "accy/Stages/Tensor/Passes.h.inc"
} // namespace accy::tensorstage

using namespace mlir;
using namespace accy;
using namespace accy::tensorstage;

namespace {

bool owned(Operation *op) { return isa<choir::ReduceOp>(op); }

std::string whyNotLowered(Operation *op) {
  auto reduce = cast<choir::ReduceOp>(op);
  Type elem = reduce.getType().getElementType();
  if (!isa<FloatType>(elem) && !isa<IntegerType>(elem))
    return "element type is neither a float nor an integer";
  if (elem.isInteger(1) && reduce.getKind() != choir::ReduceKind::max &&
      reduce.getKind() != choir::ReduceKind::min)
    return "sum and mean of booleans need a cast to a number type first";
  return "";
}

struct LowerReduce : OpRewritePattern<choir::ReduceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(choir::ReduceOp op,
                                PatternRewriter &rewriter) const override {
    if (!whyNotLowered(op).empty())
      return failure();
    Location loc = op.getLoc();
    Value input = op.getInput();
    Type elem = op.getType().getElementType();
    choir::ReduceKind kind = op.getKind();
    bool additive =
        kind == choir::ReduceKind::sum || kind == choir::ReduceKind::mean;
    // max/min are exact in the element type; sums accumulate in f32 for
    // f16/bf16.
    Type acc = additive ? computeType(elem) : elem;
    Value result = buildReduction(
        rewriter, loc, input, op.getAxes(),
        additive ? choir::ReduceKind::sum : kind, acc);
    auto reducedType = tensorType(result);
    if (kind == choir::ReduceKind::mean || acc != elem) {
      bool mean = kind == choir::ReduceKind::mean;
      ElementCount count = elementCount(rewriter, loc, input, op.getAxes());
      result = buildElementwise(
          rewriter, loc, RankedTensorType::get(reducedType.getShape(), elem),
          dynamicDims(rewriter, loc, result), result,
          [&](OpBuilder &b, Location l, ValueRange args) {
            Value v = mean ? divScalar(b, l, args[0], count.build(b, l, acc))
                           : args[0];
            return convertScalar(b, l, v, elem);
          });
    }
    // The result type may know more static sizes than the input did.
    SmallVector<int64_t> unitDims;
    SmallVector<int64_t> kept;
    if (op.getKeepdims()) {
      for (int64_t d = 0; d < op.getType().getRank(); ++d) {
        if (llvm::is_contained(op.getAxes(), d))
          unitDims.push_back(d);
        else
          kept.push_back(op.getType().getDimSize(d));
      }
    } else {
      kept.assign(op.getType().getShape().begin(),
                  op.getType().getShape().end());
    }
    result = castTo(rewriter, loc, result, RankedTensorType::get(kept, elem));
    result = addUnitDims(rewriter, loc, result, op.getType(), unitDims);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ChoirReductionLowerPass
    : ChoirLoweringPass<ChoirReductionLowerPass,
                        tensorstage::impl::ChoirReductionLowerBase, owned,
                        whyNotLowered> {
  using ChoirLoweringPass::ChoirLoweringPass;
  void populatePatterns(RewritePatternSet &patterns) {
    populateChoirReductionLoweringPatterns(patterns);
  }
};

} // namespace

void tensorstage::populateChoirReductionLoweringPatterns(
    RewritePatternSet &patterns) {
  patterns.add<LowerReduce>(patterns.getContext());
}
