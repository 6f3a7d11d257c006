//===- LegalizeMath.cpp - Self-contained math, the same on every target ---===//
//
// No target may call a math library: NVPTX has no lowering for llvm.exp or
// llvm.log, AMDGPU's would need ROCm's device libraries, and a host object
// calling libm would answer differently from the GPUs. So every
// transcendental becomes arithmetic here, once, before any backend sees it:
// the upstream polynomial approximations and expansions (f32), Accy's own
// f64 exp, log and tanh (F64Math.cpp), with fma split into
// mul+add so that no target needs `fmaf` (the host baseline has no FMA) and
// all of them round alike.
//
//===----------------------------------------------------------------------===//

#include "F64Math.h"
#include "MathLowering.h"
#include "PatternRoots.h"
#include "accy/Stages/Dispatch/Plan.h"
#include "accy/Stages/Target/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

#include <cmath>
#include <limits>

namespace accy::target {
#define GEN_PASS_DEF_LEGALIZEMATH
#include "accy/Stages/Target/Passes.h.inc"
} // namespace accy::target

using namespace mlir;

namespace {

/// Marks an exp/log whose argument is already in the range the polynomial
/// approximation is accurate for.
constexpr llvm::StringLiteral kInRange = "accy.in_range";

Value f32Constant(OpBuilder &b, Location loc, float value) {
  return b.create<arith::ConstantOp>(loc, b.getF32FloatAttr(value));
}

bool isScalarF32(Operation *op) { return op->getResult(0).getType().isF32(); }

/// exp(x) at both ends of the range: the approximation flushes results
/// below FLT_MIN and loses accuracy just below overflow, so compute
/// exp(x/2)^2 there (x/2 is exact; the square rounds once, into the
/// subnormal range or to infinity as it should).
struct SubnormalExp : public OpRewritePattern<math::ExpOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::ExpOp op,
                                PatternRewriter &rewriter) const override {
    if (!isScalarF32(op) || op->hasAttr(kInRange))
      return failure();
    Location loc = op.getLoc();
    Value x = op.getOperand();
    Value low = rewriter.create<arith::CmpFOp>(
        loc, arith::CmpFPredicate::OLT, x, f32Constant(rewriter, loc, -87.0f));
    Value high = rewriter.create<arith::CmpFOp>(
        loc, arith::CmpFPredicate::OGT, x, f32Constant(rewriter, loc, 88.0f));
    Value tiny = rewriter.create<arith::OrIOp>(loc, low, high);
    Value half = rewriter.create<arith::MulFOp>(
        loc, x, f32Constant(rewriter, loc, 0.5f));
    Value arg = rewriter.create<arith::SelectOp>(loc, tiny, half, x);
    auto inner = rewriter.create<math::ExpOp>(loc, arg, op.getFastmathAttr());
    inner->setAttr(kInRange, rewriter.getUnitAttr());
    Value squared = rewriter.create<arith::MulFOp>(loc, inner, inner);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, tiny, squared, inner);
    return success();
  }
};

/// log(x) for subnormal x: the approximation reads the exponent field, so
/// scale by 2^23 first and subtract 23 ln 2.
struct SubnormalLog : public OpRewritePattern<math::LogOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::LogOp op,
                                PatternRewriter &rewriter) const override {
    if (!isScalarF32(op) || op->hasAttr(kInRange))
      return failure();
    Location loc = op.getLoc();
    Value x = op.getOperand();
    Value tiny = rewriter.create<arith::CmpFOp>(
        loc, arith::CmpFPredicate::OLT, x,
        f32Constant(rewriter, loc, std::numeric_limits<float>::min()));
    Value scaled = rewriter.create<arith::MulFOp>(
        loc, x, f32Constant(rewriter, loc, 8388608.0f));
    Value positive = rewriter.create<arith::CmpFOp>(
        loc, arith::CmpFPredicate::OGT, x, f32Constant(rewriter, loc, 0.0f));
    Value subnormal = rewriter.create<arith::AndIOp>(loc, tiny, positive);
    Value arg = rewriter.create<arith::SelectOp>(loc, subnormal, scaled, x);
    auto inner = rewriter.create<math::LogOp>(loc, arg, op.getFastmathAttr());
    inner->setAttr(kInRange, rewriter.getUnitAttr());
    Value corrected = rewriter.create<arith::SubFOp>(
        loc, inner, f32Constant(rewriter, loc, float(23.0 * M_LN2)));
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, subnormal, corrected,
                                                 inner);
    return success();
  }
};

/// tanh as in Cephes' tanhf (about 2 ulp): an odd polynomial below 0.625,
/// 1 - 2 / (exp(2|x|) + 1) with the sign of x above. Upstream's rational
/// approximation is off by up to 5.5 ulp near 1.
struct AccurateTanh : public OpRewritePattern<math::TanhOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::TanhOp op,
                                PatternRewriter &rewriter) const override {
    if (!isScalarF32(op))
      return failure();
    Location loc = op.getLoc();
    auto c = [&](float v) { return f32Constant(rewriter, loc, v); };
    auto mul = [&](Value a, Value b) {
      return rewriter.create<arith::MulFOp>(loc, a, b).getResult();
    };
    auto add = [&](Value a, Value b) {
      return rewriter.create<arith::AddFOp>(loc, a, b).getResult();
    };
    Value x = op.getOperand();
    Value ax = rewriter.create<math::AbsFOp>(loc, x);
    // Small |x|: x + x z P(z), z = x^2.
    Value z = mul(x, x);
    Value p = c(-5.70498872745e-3f);
    for (float coefficient :
         {2.06390887954e-2f, -5.37397155531e-2f, 1.33314422036e-1f,
          -3.33332819422e-1f})
      p = add(mul(p, z), c(coefficient));
    // copysign keeps tanh(-0) = -0.
    Value small = rewriter.create<math::CopySignOp>(
        loc, add(mul(mul(p, z), x), x), x);
    // Large |x|: 1 - 2 / (exp(2|x|) + 1), sign of x.
    Value e = rewriter.create<math::ExpOp>(loc, add(ax, ax));
    Value q = rewriter.create<arith::DivFOp>(loc, c(2.0f), add(e, c(1.0f)));
    Value large = rewriter.create<math::CopySignOp>(
        loc, rewriter.create<arith::SubFOp>(loc, c(1.0f), q), x);
    Value isSmall = rewriter.create<arith::CmpFOp>(
        loc, arith::CmpFPredicate::OLT, ax, c(0.625f));
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, isSmall, small, large);
    return success();
  }
};

/// log10(x) = log(x) * (1 / ln 10).
struct ExpandLog10 : public OpRewritePattern<math::Log10Op> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::Log10Op op,
                                PatternRewriter &rewriter) const override {
    if (!isScalarF32(op))
      return failure();
    Location loc = op.getLoc();
    Value log = rewriter.create<math::LogOp>(loc, op.getOperand(),
                                             op.getFastmathAttr());
    rewriter.replaceOpWithNewOp<arith::MulFOp>(
        op, log, f32Constant(rewriter, loc, float(1.0 / M_LN10)),
        op.getFastmathAttr());
    return success();
  }
};

/// remf(x, y) = x - y * trunc(x / y): libm's fmodf is not available on every
/// target. Exact when x / y is exact (powf's parity test divides by 2);
/// otherwise off by the rounding of the quotient.
struct ExpandRemF : public OpRewritePattern<arith::RemFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::RemFOp op,
                                PatternRewriter &rewriter) const override {
    if (!isScalarF32(op))
      return failure();
    Location loc = op.getLoc();
    Value quotient =
        rewriter.create<arith::DivFOp>(loc, op.getLhs(), op.getRhs());
    Value whole = rewriter.create<math::TruncOp>(loc, quotient);
    Value product = rewriter.create<arith::MulFOp>(loc, whole, op.getRhs());
    rewriter.replaceOpWithNewOp<arith::SubFOp>(op, op.getLhs(), product);
    return success();
  }
};

/// maxnumf/minnumf as compare and select: x86 without AVX-512 has no
/// instruction with their NaN rule and calls libm's fmaxf/fminf. The result
/// is the other operand when one is NaN, as IEEE maxNum/minNum say.
template <typename OpTy, arith::CmpFPredicate predicate>
struct ExpandNumMinMax : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (isa<ShapedType>(op.getType()))
      return failure();
    Location loc = op.getLoc();
    Value a = op.getLhs(), b = op.getRhs();
    Value pick = rewriter.create<arith::CmpFOp>(loc, predicate, a, b);
    Value ordered = rewriter.create<arith::SelectOp>(loc, pick, a, b);
    Value bIsNaN =
        rewriter.create<arith::CmpFOp>(loc, arith::CmpFPredicate::UNO, b, b);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, bIsNaN, a, ordered);
    return success();
  }
};

/// f64 to f16 or bf16: x86 has no instruction for it (LLVM calls
/// __truncdfhf2 or __truncdfbf2). Rounding to f32 toward zero with the
/// inexact bit ORed into its last place (round to odd), then to the half
/// type to nearest, rounds once: f32 has more than two bits beyond either.
struct NarrowFromF64 : public OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    Type to = op.getType();
    if (!op.getIn().getType().isF64() || !(to.isF16() || to.isBF16()))
      return failure();
    Location loc = op.getLoc();
    Value x = op.getIn();
    Type f32 = rewriter.getF32Type(), i32 = rewriter.getI32Type();
    Value nearest = rewriter.create<arith::TruncFOp>(loc, f32, x);
    Value back = rewriter.create<arith::ExtFOp>(loc, x.getType(), nearest);
    Value inexact =
        rewriter.create<arith::CmpFOp>(loc, arith::CmpFPredicate::UNE, back, x);
    Value away = rewriter.create<arith::CmpFOp>(
        loc, arith::CmpFPredicate::OGT, rewriter.create<math::AbsFOp>(loc, back),
        rewriter.create<math::AbsFOp>(loc, x));
    Value bits = rewriter.create<arith::BitcastOp>(loc, i32, nearest);
    auto constant = [&](int32_t v) {
      return rewriter.create<arith::ConstantOp>(loc,
                                                rewriter.getI32IntegerAttr(v));
    };
    // The magnitude below |nearest| is one less in the bit pattern.
    Value towardZero = rewriter.create<arith::SelectOp>(
        loc, away, rewriter.create<arith::SubIOp>(loc, bits, constant(1)),
        bits);
    Value odd = rewriter.create<arith::SelectOp>(
        loc, inexact,
        rewriter.create<arith::OrIOp>(loc, towardZero, constant(1)), bits);
    Value narrowed = rewriter.create<arith::BitcastOp>(loc, f32, odd);
    rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, to, narrowed);
    return success();
  }
};

struct LegalizeMathPass
    : public accy::target::impl::LegalizeMathBase<LegalizeMathPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    // First the rewrites into exp and log, and the range handling around
    // them; then the approximations, which must not see the originals.
    RewritePatternSet patterns(ctx);
    populateExpandPowFPattern(patterns);
    populateExpandFPowIPattern(patterns);
    populateExpandExp2FPattern(patterns);
    populateExpandSinhPattern(patterns);
    populateExpandCoshPattern(patterns);
    populateExpandTanPattern(patterns);
    populateExpandAsinhPattern(patterns);
    populateExpandAcoshPattern(patterns);
    populateExpandAtanhPattern(patterns);
    populateExpandRoundFPattern(patterns);
    patterns.add<AccurateTanh, ExpandLog10, ExpandRemF, NarrowFromF64,
                 SubnormalExp, SubnormalLog,
                 ExpandNumMinMax<arith::MaxNumFOp, arith::CmpFPredicate::OGT>,
                 ExpandNumMinMax<arith::MinNumFOp, arith::CmpFPredicate::OLT>>(
        ctx);
    accy::target::populateF64MathPatterns(patterns);
    if (failed(accy::target::applyPatternsToRoots(getOperation(),
                                                  std::move(patterns))))
      return signalPassFailure();
    RewritePatternSet approximations(ctx);
    populateMathPolynomialApproximationPatterns(approximations, {});
    populateExpandFmaFPattern(approximations);
    // The approximations clamp with maxnumf/minnumf.
    approximations
        .add<ExpandNumMinMax<arith::MaxNumFOp, arith::CmpFPredicate::OGT>,
             ExpandNumMinMax<arith::MinNumFOp, arith::CmpFPredicate::OLT>>(
            ctx);
    if (failed(accy::target::applyPatternsToRoots(getOperation(),
                                                  std::move(approximations))))
      return signalPassFailure();
    getOperation().walk([](Operation *op) { op->removeAttr(kInRange); });

    WalkResult result = getOperation().walk([&](Operation *op) {
      if (op->getDialect() && isa<math::MathDialect>(op->getDialect()) &&
          !accy::target::isNativeMathOp(op)) {
        op->emitError() << "'" << op->getName() << "' on "
                        << op->getResultTypes()
                        << " has no self-contained lowering on every target "
                           "(only f32 transcendentals and f64 exp, log and tanh "
                           "are approximated)";
        return WalkResult::interrupt();
      }
      if (isa<arith::RemFOp>(op)) {
        op->emitError() << "'arith.remf' on " << op->getResultTypes()
                        << " has no self-contained lowering on every target";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

bool accy::target::isNativeMathOp(Operation *op) {
  return isa<math::SqrtOp, math::RsqrtOp, math::AbsFOp, math::AbsIOp,
             math::CopySignOp, math::FloorOp, math::CeilOp, math::TruncOp,
             math::RoundEvenOp, math::CountLeadingZerosOp,
             math::CountTrailingZerosOp, math::CtPopOp>(op);
}
