//===- ActivationLower.cpp - accy-choir-activation-lower ------------------===//
//
// Activations become one elementwise linalg.generic each, with math dialect
// ops computed in f32 for f16/bf16. softmax and log_softmax become the
// numerically stable form: max reduction, exp(x - max), sum reduction,
// division (or x - max - log(sum)).
//
//===----------------------------------------------------------------------===//

#include "ChoirLowering.h"
#include "LoweringUtils.h"
#include "accy/Stages/Tensor/Passes.h"

namespace accy::tensorstage {
#define GEN_PASS_DEF_CHOIRACTIVATIONLOWER
#include "accy/Stages/Tensor/Passes.h.inc"
} // namespace accy::tensorstage

using namespace mlir;
using namespace accy;
using namespace accy::tensorstage;

namespace {

bool owned(Operation *op) {
  return isa<choir::ReluOp, choir::GeluOp, choir::SigmoidOp, choir::TanhOp,
             choir::SiluOp, choir::ExpOp, choir::LogOp, choir::SqrtOp,
             choir::RsqrtOp, choir::AbsOp, choir::NegOp, choir::SoftmaxOp,
             choir::LogSoftmaxOp>(op);
}

/// Ops that also have an integer meaning.
bool integerCapable(Operation *op) {
  return isa<choir::ReluOp, choir::AbsOp, choir::NegOp>(op);
}

std::string whyNotLowered(Operation *op) {
  Type elem = tensorType(op->getResult(0)).getElementType();
  if (isa<FloatType>(elem))
    return "";
  if (isa<IntegerType>(elem) && !elem.isInteger(1) && integerCapable(op))
    return "";
  std::string type;
  llvm::raw_string_ostream os(type);
  os << elem;
  return "needs a floating-point element type, got " + type;
}

/// The scalar function of an activation, on a float of the compute type.
Value activation(Operation *op, OpBuilder &b, Location loc, Value x) {
  Type t = x.getType();
  auto c = [&](double v) { return scalarConstant(b, loc, t, v); };
  if (!isa<FloatType>(t)) {
    if (isa<choir::ReluOp>(op))
      return b.create<arith::MaxSIOp>(loc, x, c(0));
    // max(x, -x): math.absi has no lowering on some targets.
    if (isa<choir::AbsOp>(op))
      return b.create<arith::MaxSIOp>(
          loc, x, b.create<arith::SubIOp>(loc, c(0), x));
    return b.create<arith::SubIOp>(loc, c(0), x); // neg
  }
  if (isa<choir::ReluOp>(op))
    return b.create<arith::MaximumFOp>(loc, x, c(0));
  if (isa<choir::NegOp>(op))
    return b.create<arith::NegFOp>(loc, x);
  if (isa<choir::AbsOp>(op))
    return b.create<math::AbsFOp>(loc, x);
  if (isa<choir::ExpOp>(op))
    return b.create<math::ExpOp>(loc, x);
  if (isa<choir::LogOp>(op))
    return b.create<math::LogOp>(loc, x);
  if (isa<choir::SqrtOp>(op))
    return b.create<math::SqrtOp>(loc, x);
  if (isa<choir::RsqrtOp>(op))
    return b.create<math::RsqrtOp>(loc, x);
  if (isa<choir::TanhOp>(op))
    return b.create<math::TanhOp>(loc, x);
  if (isa<choir::SigmoidOp, choir::SiluOp>(op)) {
    // 1 + exp(-x) overflows to inf for very negative x, giving 0 (and -0
    // for silu): the right limits.
    Value e = b.create<math::ExpOp>(loc, b.create<arith::NegFOp>(loc, x));
    Value denominator = b.create<arith::AddFOp>(loc, c(1), e);
    Value numerator = isa<choir::SiluOp>(op) ? x : c(1);
    return b.create<arith::DivFOp>(loc, numerator, denominator);
  }
  // gelu, tanh form: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
  Value x3 = b.create<arith::MulFOp>(loc, b.create<arith::MulFOp>(loc, x, x), x);
  Value inner = b.create<arith::AddFOp>(
      loc, x, b.create<arith::MulFOp>(loc, c(0.044715), x3));
  Value scaled = b.create<arith::MulFOp>(loc, c(0.7978845608028654), inner);
  Value t1 = b.create<arith::AddFOp>(loc, c(1),
                                     b.create<math::TanhOp>(loc, scaled));
  Value half = b.create<arith::MulFOp>(loc, c(0.5), x);
  return b.create<arith::MulFOp>(loc, half, t1);
}

struct LowerActivation : RewritePattern {
  explicit LowerActivation(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!owned(op) || isa<choir::SoftmaxOp, choir::LogSoftmaxOp>(op) ||
        !whyNotLowered(op).empty())
      return failure();
    Location loc = op->getLoc();
    Value input = op->getOperand(0);
    auto type = tensorType(op->getResult(0));
    Type elem = type.getElementType();
    Type compute = computeType(elem);
    Value result = buildElementwise(
        rewriter, loc, type, dynamicDims(rewriter, loc, input), input,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = convertScalar(b, l, args[0], compute);
          return convertScalar(b, l, activation(op, b, l, x), elem);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

template <typename RowOp>
struct LowerSoftmax : OpRewritePattern<RowOp> {
  using OpRewritePattern<RowOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(RowOp op,
                                PatternRewriter &rewriter) const override {
    if (!whyNotLowered(op).empty())
      return failure();
    constexpr bool isLog = std::is_same_v<RowOp, choir::LogSoftmaxOp>;
    Location loc = op.getLoc();
    Value x = op.getInput();
    auto type = op.getType();
    int64_t rank = type.getRank(), axis = op.getAxis();
    Type elem = type.getElementType();
    Type compute = computeType(elem);
    SmallVector<Value> sizes = dynamicDims(rewriter, loc, x);
    auto computeTensor = RankedTensorType::get(type.getShape(), compute);

    // Row statistics are read back along the axis with this map.
    SmallVector<AffineExpr> rowExprs;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        rowExprs.push_back(rewriter.getAffineDimExpr(d));
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    AffineMap row = AffineMap::get(rank, 0, rowExprs, rewriter.getContext());

    Value max = buildReduction(rewriter, loc, x, {axis},
                               choir::ReduceKind::max, compute);
    Value exp = buildParallelGeneric(
        rewriter, loc, computeTensor, sizes, {x, max}, {identity, row},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value v = convertScalar(b, l, args[0], compute);
          return b.create<math::ExpOp>(l, b.create<arith::SubFOp>(l, v, args[1]));
        });
    Value sum = buildReduction(rewriter, loc, exp, {axis},
                               choir::ReduceKind::sum, compute);
    Value result;
    if constexpr (isLog) {
      result = buildParallelGeneric(
          rewriter, loc, type, sizes, {x, max, sum}, {identity, row, row},
          [&](OpBuilder &b, Location l, ValueRange args) {
            Value v = convertScalar(b, l, args[0], compute);
            Value shifted = b.create<arith::SubFOp>(l, v, args[1]);
            Value r = b.create<arith::SubFOp>(
                l, shifted, b.create<math::LogOp>(l, args[2]));
            return convertScalar(b, l, r, elem);
          });
    } else {
      result = buildParallelGeneric(
          rewriter, loc, type, sizes, {exp, sum}, {identity, row},
          [&](OpBuilder &b, Location l, ValueRange args) {
            Value r = b.create<arith::DivFOp>(l, args[0], args[1]);
            return convertScalar(b, l, r, elem);
          });
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ChoirActivationLowerPass
    : ChoirLoweringPass<ChoirActivationLowerPass,
                        tensorstage::impl::ChoirActivationLowerBase, owned,
                        whyNotLowered> {
  using ChoirLoweringPass::ChoirLoweringPass;
  void populatePatterns(RewritePatternSet &patterns) {
    populateChoirActivationLoweringPatterns(patterns);
  }
};

} // namespace

void tensorstage::populateChoirActivationLoweringPatterns(
    RewritePatternSet &patterns) {
  patterns.add<LowerActivation, LowerSoftmax<choir::SoftmaxOp>,
               LowerSoftmax<choir::LogSoftmaxOp>>(patterns.getContext());
}
