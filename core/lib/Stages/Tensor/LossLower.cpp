//===- LossLower.cpp - accy-choir-loss-lower ------------------------------===//
//
// Losses become reductions into rank-0 tensors:
//   mse(p, t)            = sum((p - t)^2) / count
//   cross_entropy(x, l)  = sum_b (m_b + log(sum_c exp(x[b,c] - m_b))
//                                 - x[b, l_b]) / B,   m_b = max_c x[b, c]
//   nll(lp, l)           = -sum_b lp[b, l_b] / B
// Labels are clamped to [0, C-1] like every gather; f16/bf16 accumulate in
// f32.
//
//===----------------------------------------------------------------------===//

#include "ChoirLowering.h"
#include "LoweringUtils.h"
#include "accy/Stages/Tensor/Passes.h"

namespace accy::tensorstage {
#define GEN_PASS_DEF_CHOIRLOSSLOWER
#include "accy/Stages/Tensor/Passes.h.inc"
} // namespace accy::tensorstage

using namespace mlir;
using namespace accy;
using namespace accy::tensorstage;

namespace {

bool owned(Operation *op) {
  return isa<choir::MseOp, choir::CrossEntropyOp, choir::NllOp>(op);
}

std::string whyNotLowered(Operation *op) {
  Type elem = tensorType(op->getResult(0)).getElementType();
  if (!isa<FloatType>(elem))
    return "losses need a floating-point result type";
  if (isa<choir::MseOp>(op)) {
    for (Value v : op->getOperands())
      if (!isa<FloatType>(tensorType(v).getElementType()))
        return "mse needs floating-point operands";
    if (failed(choir::broadcastShapes(tensorType(op->getOperand(0)).getShape(),
                                      tensorType(op->getOperand(1)).getShape())))
      return "the operands do not broadcast";
  }
  return "";
}

/// A reduction over all `loops` (sizes from `inputs` through `maps`) into a
/// rank-0 accumulator of type `acc`, starting at zero.
Value reduceToScalar(OpBuilder &b, Location loc, int64_t loops,
                     ValueRange inputs, ArrayRef<AffineMap> inputMaps,
                     Type acc, const ScalarBody &body) {
  auto scalarType = RankedTensorType::get({}, acc);
  Value init = filledTensor(b, loc, scalarType, {}, scalarConstant(b, loc, acc, 0));
  SmallVector<AffineMap> maps(inputMaps);
  maps.push_back(AffineMap::get(loops, 0, {}, b.getContext()));
  SmallVector<utils::IteratorType> iterators(loops,
                                             utils::IteratorType::reduction);
  auto generic = b.create<linalg::GenericOp>(
      loc, TypeRange{scalarType}, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        // args: inputs..., accumulator.
        Value term = body(nb, nl, args.drop_back());
        nb.create<linalg::YieldOp>(nl, addScalar(nb, nl, args.back(), term));
      });
  return generic.getResult(0);
}

/// total / count as a rank-0 tensor of `type`.
Value divideScalarTensor(OpBuilder &b, Location loc, Value total,
                         const ElementCount &count, RankedTensorType type) {
  Type elem = type.getElementType();
  Type acc = tensorType(total).getElementType();
  return buildParallelGeneric(
      b, loc, type, {}, total, AffineMap::get(0, 0, {}, b.getContext()),
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value mean = divScalar(nb, nl, args[0], count.build(nb, nl, acc));
        return convertScalar(nb, nl, mean, elem);
      });
}

struct LowerMse : OpRewritePattern<choir::MseOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(choir::MseOp op,
                                PatternRewriter &rewriter) const override {
    if (!whyNotLowered(op).empty())
      return failure();
    Location loc = op.getLoc();
    Value p = op.getLhs(), t = op.getRhs();
    auto shape = *choir::broadcastShapes(tensorType(p).getShape(),
                                         tensorType(t).getShape());
    Type acc = computeType(op.getType().getElementType());
    BroadcastRead rp = broadcastRead(rewriter, loc, p, shape);
    BroadcastRead rt = broadcastRead(rewriter, loc, t, shape);
    Value total = reduceToScalar(
        rewriter, loc, shape.size(), {rp.value, rt.value}, {rp.map, rt.map},
        acc, [=](OpBuilder &b, Location l, ValueRange args) {
          Value d = b.create<arith::SubFOp>(l, convertScalar(b, l, args[0], acc),
                                            convertScalar(b, l, args[1], acc));
          return b.create<arith::MulFOp>(l, d, d);
        });
    // The element count of the broadcast shape, from whichever operand has
    // each dimension unbroadcast.
    ElementCount count;
    for (auto [r, size] : llvm::enumerate(shape)) {
      if (!ShapedType::isDynamic(size)) {
        count.multiply(size);
        continue;
      }
      for (Value v : {p, t}) {
        auto vt = tensorType(v);
        int64_t d = r - (shape.size() - vt.getRank());
        if (d >= 0 && vt.getDimSize(d) != 1) {
          count.multiply(rewriter.create<tensor::DimOp>(loc, v, d).getResult());
          break;
        }
      }
    }
    rewriter.replaceOp(op,
                       divideScalarTensor(rewriter, loc, total, count, op.getType()));
    return success();
  }
};

/// scores[b, clamp(label_b)] inside a body over the batch loop 0.
Value pickScore(OpBuilder &b, Location loc, Value scores, Value label,
                Value upper) {
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  Value c = b.create<arith::IndexCastOp>(loc, b.getIndexType(), label);
  c = b.create<arith::MaxSIOp>(loc, c, zero);
  c = b.create<arith::MinSIOp>(loc, c, upper);
  Value row = b.create<linalg::IndexOp>(loc, 0);
  return b.create<tensor::ExtractOp>(loc, scores, ValueRange{row, c});
}

template <typename LossOp>
struct LowerClassLoss : OpRewritePattern<LossOp> {
  using OpRewritePattern<LossOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(LossOp op,
                                PatternRewriter &rewriter) const override {
    if (!whyNotLowered(op).empty())
      return failure();
    constexpr bool isXent = std::is_same_v<LossOp, choir::CrossEntropyOp>;
    Location loc = op.getLoc();
    Value scores = op.getLhs(), labels = op.getRhs();
    Type acc = computeType(op.getType().getElementType());
    MLIRContext *ctx = rewriter.getContext();
    Value upper = rewriter.create<arith::SubIOp>(
        loc, rewriter.create<tensor::DimOp>(loc, scores, 1),
        rewriter.create<arith::ConstantIndexOp>(loc, 1));
    AffineMap batch = AffineMap::getMultiDimIdentityMap(1, ctx);
    Value total;
    if constexpr (isXent) {
      // Log-sum-exp per row, minus the label's score.
      Value max = buildReduction(rewriter, loc, scores, {1},
                                 choir::ReduceKind::max, acc);
      auto rowType = tensorType(max);
      SmallVector<Value> rowSizes = dynamicDims(rewriter, loc, max);
      Value init = filledTensor(rewriter, loc, rowType, rowSizes,
                                scalarConstant(rewriter, loc, acc, 0));
      AffineMap identity = AffineMap::getMultiDimIdentityMap(2, ctx);
      AffineMap row = AffineMap::get(2, 0, {rewriter.getAffineDimExpr(0)}, ctx);
      Value sumExp =
          rewriter
              .create<linalg::GenericOp>(
                  loc, TypeRange{rowType}, ValueRange{scores, max},
                  ValueRange{init}, ArrayRef<AffineMap>{identity, row, row},
                  ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                                utils::IteratorType::reduction},
                  [&](OpBuilder &b, Location l, ValueRange args) {
                    Value x = convertScalar(b, l, args[0], acc);
                    Value e = b.create<math::ExpOp>(
                        l, b.create<arith::SubFOp>(l, x, args[1]));
                    Value sum = b.create<arith::AddFOp>(l, args[2], e);
                    b.create<linalg::YieldOp>(l, sum);
                  })
              .getResult(0);
      total = reduceToScalar(
          rewriter, loc, 1, {max, sumExp, labels}, {batch, batch, batch}, acc,
          [&](OpBuilder &b, Location l, ValueRange args) -> Value {
            Value lse = b.create<arith::AddFOp>(
                l, args[0], b.create<math::LogOp>(l, args[1]));
            Value picked = convertScalar(
                b, l, pickScore(b, l, scores, args[2], upper), acc);
            return b.create<arith::SubFOp>(l, lse, picked);
          });
    } else {
      total = reduceToScalar(
          rewriter, loc, 1, {labels}, {batch}, acc,
          [&](OpBuilder &b, Location l, ValueRange args) -> Value {
            Value picked = convertScalar(
                b, l, pickScore(b, l, scores, args[0], upper), acc);
            return b.create<arith::NegFOp>(l, picked);
          });
    }
    ElementCount count = elementCount(rewriter, loc, scores, {0});
    rewriter.replaceOp(op,
                       divideScalarTensor(rewriter, loc, total, count, op.getType()));
    return success();
  }
};

struct ChoirLossLowerPass
    : ChoirLoweringPass<ChoirLossLowerPass,
                        tensorstage::impl::ChoirLossLowerBase, owned,
                        whyNotLowered> {
  using ChoirLoweringPass::ChoirLoweringPass;
  void populatePatterns(RewritePatternSet &patterns) {
    populateChoirLossLoweringPatterns(patterns);
  }
};

} // namespace

void tensorstage::populateChoirLossLoweringPatterns(
    RewritePatternSet &patterns) {
  patterns.add<LowerMse, LowerClassLoss<choir::CrossEntropyOp>,
               LowerClassLoss<choir::NllOp>>(patterns.getContext());
}
