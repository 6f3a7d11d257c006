//===- F64Math.cpp - f64 exp, log and tanh as arithmetic ------------------===//
//
// exp: k = round(x / ln 2), r = x - k ln 2 (ln 2 in two parts, Cody-Waite),
// exp(r) by its Taylor polynomial of degree 13 (|r| <= ln 2 / 2, truncation
// below 0.05 ulp), times 2^k applied as two powers of two so that results
// near overflow and in the subnormal range round once.
// log: x = 2^e m with m in [sqrt(1/2), sqrt(2)), log m = 2 atanh(s),
// s = (m - 1) / (m + 1), by its series to s^23; e ln 2 in two parts.
// tanh: as in Cephes' tanh (a rational function below 0.625,
// 1 - 2 / (exp(2|x|) + 1) above, +-1 past 354).
//
//===----------------------------------------------------------------------===//

#include "F64Math.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"

#include <cmath>

using namespace mlir;

namespace {

/// Builds scalar f64 and i64 arithmetic at one location.
class F64Builder {
public:
  F64Builder(PatternRewriter &rewriter, Location loc)
      : b(rewriter), loc(loc), f64(b.getF64Type()), i64(b.getI64Type()) {}

  Value c(double v) {
    return b.create<arith::ConstantOp>(loc, b.getF64FloatAttr(v));
  }
  Value ci(int64_t v) {
    return b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(v));
  }
  Value add(Value x, Value y) { return b.create<arith::AddFOp>(loc, x, y); }
  Value sub(Value x, Value y) { return b.create<arith::SubFOp>(loc, x, y); }
  Value mul(Value x, Value y) { return b.create<arith::MulFOp>(loc, x, y); }
  Value div(Value x, Value y) { return b.create<arith::DivFOp>(loc, x, y); }
  Value cmp(arith::CmpFPredicate p, Value x, Value y) {
    return b.create<arith::CmpFOp>(loc, p, x, y);
  }
  Value select(Value cond, Value x, Value y) {
    return b.create<arith::SelectOp>(loc, cond, x, y);
  }
  Value isNaN(Value x) { return cmp(arith::CmpFPredicate::UNO, x, x); }
  Value toBits(Value x) { return b.create<arith::BitcastOp>(loc, i64, x); }
  Value fromBits(Value x) { return b.create<arith::BitcastOp>(loc, f64, x); }
  /// 2^k for an i64 k in [-1022, 1023].
  Value powerOfTwo(Value k) {
    Value biased = b.create<arith::AddIOp>(loc, k, ci(1023));
    return fromBits(b.create<arith::ShLIOp>(loc, biased, ci(52)));
  }
  /// sum_i coefficients[i] x^i, by Horner's rule.
  Value polynomial(Value x, ArrayRef<double> coefficients) {
    Value p = c(coefficients.back());
    for (double coefficient : llvm::reverse(coefficients.drop_back()))
      p = add(mul(p, x), c(coefficient));
    return p;
  }

  PatternRewriter &b;
  Location loc;
  Type f64, i64;
};

/// Replaces a scalar f64 `OpTy` by what `expand` builds from its operand.
template <typename OpTy> struct F64Expansion : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  virtual Value expand(F64Builder &f, Value x) const = 0;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const final {
    if (!op.getType().isF64())
      return failure();
    F64Builder f(rewriter, op.getLoc());
    rewriter.replaceOp(op, expand(f, op.getOperand()));
    return success();
  }
};

struct ExpandExpF64 : public F64Expansion<math::ExpOp> {
  using F64Expansion::F64Expansion;
  Value expand(F64Builder &f, Value x) const override {
    PatternRewriter &rewriter = f.b;
    // Outside [-746, 710] the result is 0 or infinity anyway; clamping keeps
    // k in range, and NaN is kept out of the integer conversion.
    Value clamped = f.select(f.cmp(arith::CmpFPredicate::OLT, x, f.c(-746.0)),
                             f.c(-746.0), x);
    clamped = f.select(f.cmp(arith::CmpFPredicate::OGT, clamped, f.c(710.0)),
                       f.c(710.0), clamped);
    clamped = f.select(f.isNaN(x), f.c(0.0), clamped);
    Value k = rewriter.create<math::FloorOp>(
        f.loc, f.add(f.mul(clamped, f.c(M_LOG2E)), f.c(0.5)));
    // ln 2 = C1 + C2, C1 with trailing zero bits: k * C1 is exact.
    Value r = f.sub(f.sub(clamped, f.mul(k, f.c(6.93145751953125e-1))),
                    f.mul(k, f.c(1.42860682030941723212e-6)));
    SmallVector<double, 14> taylor;
    double factorial = 1;
    for (int i = 0; i <= 13; ++i) {
      factorial *= i > 0 ? i : 1;
      taylor.push_back(1.0 / factorial);
    }
    Value p = f.polynomial(r, taylor);
    Value ki = rewriter.create<arith::FPToSIOp>(f.loc, f.i64, k);
    Value k1 = rewriter.create<arith::ShRSIOp>(f.loc, ki, f.ci(1));
    Value k2 = rewriter.create<arith::SubIOp>(f.loc, ki, k1);
    Value result = f.mul(f.mul(p, f.powerOfTwo(k1)), f.powerOfTwo(k2));
    return f.select(f.isNaN(x), x, result);
  }
};

struct ExpandLogF64 : public F64Expansion<math::LogOp> {
  using F64Expansion::F64Expansion;
  Value expand(F64Builder &f, Value x) const override {
    PatternRewriter &rewriter = f.b;
    // Subnormals: scale by 2^54 first, so that the exponent field is exact.
    Value subnormal = f.cmp(arith::CmpFPredicate::OLT, x, f.c(0x1p-1022));
    Value scaled = f.select(subnormal, f.mul(x, f.c(0x1p54)), x);
    Value bits = f.toBits(scaled);
    Value field = rewriter.create<arith::AndIOp>(
        f.loc, rewriter.create<arith::ShRUIOp>(f.loc, bits, f.ci(52)),
        f.ci(0x7ff));
    Value exponent = rewriter.create<arith::SubIOp>(
        f.loc, field,
        rewriter.create<arith::SelectOp>(f.loc, subnormal, f.ci(1023 + 54),
                                         f.ci(1023)));
    Value mantissa = f.fromBits(rewriter.create<arith::OrIOp>(
        f.loc,
        rewriter.create<arith::AndIOp>(f.loc, bits, f.ci(0x000fffffffffffff)),
        f.ci(0x3ff0000000000000)));
    Value high = f.cmp(arith::CmpFPredicate::OGT, mantissa, f.c(M_SQRT2));
    Value m = f.select(high, f.mul(mantissa, f.c(0.5)), mantissa);
    Value e = rewriter.create<arith::SIToFPOp>(
        f.loc, f.f64,
        rewriter.create<arith::AddIOp>(
            f.loc, exponent,
            rewriter.create<arith::ExtUIOp>(f.loc, f.i64, high)));
    Value s = f.div(f.sub(m, f.c(1.0)), f.add(m, f.c(1.0)));
    SmallVector<double, 12> series;
    for (int k = 0; k <= 11; ++k)
      series.push_back(1.0 / (2 * k + 1));
    Value logM = f.mul(f.add(s, s), f.polynomial(f.mul(s, s), series));
    // ln 2 = hi + lo, hi with trailing zero bits: e * hi is exact.
    Value result =
        f.add(f.mul(e, f.c(6.93147180369123816490e-01)),
              f.add(f.mul(e, f.c(1.90821492927058770002e-10)), logM));
    // log(0) = -inf, log(+inf) = +inf, log(x < 0) and log(NaN) = NaN.
    result = f.select(f.cmp(arith::CmpFPredicate::OEQ, x, f.c(0.0)),
                      f.c(-INFINITY), result);
    result =
        f.select(f.cmp(arith::CmpFPredicate::OEQ, x, f.c(INFINITY)), x, result);
    result = f.select(f.cmp(arith::CmpFPredicate::ULT, x, f.c(0.0)), f.c(NAN),
                      result);
    return result;
  }
};

struct ExpandTanhF64 : public F64Expansion<math::TanhOp> {
  using F64Expansion::F64Expansion;
  Value expand(F64Builder &f, Value x) const override {
    PatternRewriter &rewriter = f.b;
    Value z = rewriter.create<math::AbsFOp>(f.loc, x);
    // Small |x|: x + x s P(s) / Q(s), s = x^2.
    Value s = f.mul(x, x);
    Value num =
        f.polynomial(s, {-1.61468768441708447952e3, -9.92877231001918586564e1,
                         -9.64399179425052238628e-1});
    Value den =
        f.polynomial(s, {4.84406305325125486048e3, 2.23548839060100448583e3,
                         1.12811678491632931402e2, 1.0});
    // copysign keeps tanh(-0) = -0.
    Value small = rewriter.create<math::CopySignOp>(
        f.loc, f.add(x, f.mul(f.mul(x, s), f.div(num, den))), x);
    // Large |x|: 1 - 2 / (exp(2|x|) + 1), with the sign of x.
    Value e = rewriter.create<math::ExpOp>(f.loc, f.add(z, z));
    Value large = f.sub(f.c(1.0), f.div(f.c(2.0), f.add(e, f.c(1.0))));
    large = f.select(f.cmp(arith::CmpFPredicate::OGT, z, f.c(354.0)), f.c(1.0),
                     large);
    large = rewriter.create<math::CopySignOp>(f.loc, large, x);
    // Unordered: NaN takes the small branch, which keeps it.
    Value isSmall = f.cmp(arith::CmpFPredicate::ULT, z, f.c(0.625));
    return f.select(isSmall, small, large);
  }
};

} // namespace

void accy::target::populateF64MathPatterns(RewritePatternSet &patterns) {
  patterns.add<ExpandExpF64, ExpandLogF64, ExpandTanhF64>(
      patterns.getContext());
}
