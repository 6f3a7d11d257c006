//===- ElementwiseLower.cpp - accy-choir-elementwise-lower ----------------===//
//
// Arithmetic, comparisons, select and casts become elementwise
// linalg.generic ops; constants, full and iota become fills and generics.
//
//===----------------------------------------------------------------------===//

#include "ChoirLowering.h"
#include "LoweringUtils.h"
#include "accy/Stages/Tensor/Passes.h"

namespace accy::tensorstage {
#define GEN_PASS_DEF_CHOIRELEMENTWISELOWER
#include "accy/Stages/Tensor/Passes.h.inc"
} // namespace accy::tensorstage

using namespace mlir;
using namespace accy;
using namespace accy::tensorstage;

namespace {

bool owned(Operation *op) {
  return isa<choir::AddOp, choir::SubOp, choir::MulOp, choir::DivOp,
             choir::CmpOp, choir::SelectOp, choir::CastOp, choir::ConstantOp,
             choir::FullOp, choir::IotaOp>(op);
}

bool arithmeticType(Type t) {
  return isa<FloatType>(t) || isa<IntegerType>(t);
}

/// Why `op` cannot be lowered; empty when it can.
std::string whyNotLowered(Operation *op) {
  for (Value v : op->getOperands())
    if (auto t = dyn_cast<RankedTensorType>(v.getType()))
      if (!arithmeticType(t.getElementType()))
        return "element type is neither a float nor an integer";
  if (auto t = dyn_cast<RankedTensorType>(op->getResult(0).getType())) {
    if (!arithmeticType(t.getElementType()))
      return "element type is neither a float nor an integer";
    if (isa<choir::AddOp, choir::SubOp, choir::MulOp, choir::DivOp,
            choir::CmpOp, choir::SelectOp>(op)) {
      // A dynamic result size needs an operand that has it unbroadcast.
      for (int64_t r = 0; r < t.getRank(); ++r) {
        if (!t.isDynamicDim(r))
          continue;
        bool found = llvm::any_of(op->getOperands(), [&](Value v) {
          auto vt = cast<RankedTensorType>(v.getType());
          int64_t d = r - (t.getRank() - vt.getRank());
          return d >= 0 && vt.getDimSize(d) != 1;
        });
        if (!found)
          return "no operand holds the size of dynamic result dimension " +
                 std::to_string(r);
      }
    }
  }
  return "";
}

template <typename OpTy>
struct LoweringPattern : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const final {
    if (!whyNotLowered(op).empty())
      return failure();
    Value result = lower(op, rewriter);
    if (!result)
      return failure();
    rewriter.replaceOp(op, castTo(rewriter, op.getLoc(), result,
                                  cast<RankedTensorType>(op.getType())));
    return success();
  }
  virtual Value lower(OpTy op, PatternRewriter &rewriter) const = 0;
};

/// An elementwise op over broadcast operands.
template <typename OpTy>
Value lowerBroadcasting(OpTy op, PatternRewriter &rewriter,
                        const ScalarBody &body) {
  Location loc = op.getLoc();
  auto type = cast<RankedTensorType>(op.getType());
  auto sizes = broadcastSizes(rewriter, loc, type, op->getOperands());
  if (failed(sizes))
    return {};
  return buildElementwise(rewriter, loc, type, *sizes, op->getOperands(),
                          body);
}

template <typename OpTy>
struct LowerArithmetic : LoweringPattern<OpTy> {
  using LoweringPattern<OpTy>::LoweringPattern;
  Value lower(OpTy op, PatternRewriter &rewriter) const override {
    return lowerBroadcasting(
        op, rewriter, [](OpBuilder &b, Location loc, ValueRange args) -> Value {
          if constexpr (std::is_same_v<OpTy, choir::AddOp>)
            return addScalar(b, loc, args[0], args[1]);
          else if constexpr (std::is_same_v<OpTy, choir::SubOp>)
            return subScalar(b, loc, args[0], args[1]);
          else if constexpr (std::is_same_v<OpTy, choir::MulOp>)
            return mulScalar(b, loc, args[0], args[1]);
          else
            return divScalar(b, loc, args[0], args[1]);
        });
  }
};

arith::CmpFPredicate floatPredicate(choir::CmpPredicate p) {
  switch (p) {
  case choir::CmpPredicate::lt: return arith::CmpFPredicate::OLT;
  case choir::CmpPredicate::le: return arith::CmpFPredicate::OLE;
  case choir::CmpPredicate::gt: return arith::CmpFPredicate::OGT;
  case choir::CmpPredicate::ge: return arith::CmpFPredicate::OGE;
  case choir::CmpPredicate::eq: return arith::CmpFPredicate::OEQ;
  case choir::CmpPredicate::ne: return arith::CmpFPredicate::UNE;
  }
  llvm_unreachable("unknown predicate");
}

arith::CmpIPredicate intPredicate(choir::CmpPredicate p, bool isBool) {
  switch (p) {
  case choir::CmpPredicate::lt:
    return isBool ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
  case choir::CmpPredicate::le:
    return isBool ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
  case choir::CmpPredicate::gt:
    return isBool ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
  case choir::CmpPredicate::ge:
    return isBool ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
  case choir::CmpPredicate::eq: return arith::CmpIPredicate::eq;
  case choir::CmpPredicate::ne: return arith::CmpIPredicate::ne;
  }
  llvm_unreachable("unknown predicate");
}

struct LowerCmp : LoweringPattern<choir::CmpOp> {
  using LoweringPattern::LoweringPattern;
  Value lower(choir::CmpOp op, PatternRewriter &rewriter) const override {
    choir::CmpPredicate predicate = op.getPredicate();
    return lowerBroadcasting(
        op, rewriter, [=](OpBuilder &b, Location loc, ValueRange args) -> Value {
          if (isa<FloatType>(args[0].getType()))
            return b.create<arith::CmpFOp>(loc, floatPredicate(predicate),
                                           args[0], args[1]);
          return b.create<arith::CmpIOp>(
              loc, intPredicate(predicate, args[0].getType().isInteger(1)),
              args[0], args[1]);
        });
  }
};

struct LowerSelect : LoweringPattern<choir::SelectOp> {
  using LoweringPattern::LoweringPattern;
  Value lower(choir::SelectOp op, PatternRewriter &rewriter) const override {
    return lowerBroadcasting(
        op, rewriter, [](OpBuilder &b, Location loc, ValueRange args) -> Value {
          return b.create<arith::SelectOp>(loc, args[0], args[1], args[2]);
        });
  }
};

struct LowerCast : LoweringPattern<choir::CastOp> {
  using LoweringPattern::LoweringPattern;
  Value lower(choir::CastOp op, PatternRewriter &rewriter) const override {
    Type to = op.getType().getElementType();
    auto type = RankedTensorType::get(tensorType(op.getInput()).getShape(), to);
    return buildElementwise(
        rewriter, op.getLoc(), type,
        dynamicDims(rewriter, op.getLoc(), op.getInput()), op.getInput(),
        [=](OpBuilder &b, Location loc, ValueRange args) {
          return convertScalar(b, loc, args[0], to);
        });
  }
};

struct LowerConstant : LoweringPattern<choir::ConstantOp> {
  using LoweringPattern::LoweringPattern;
  Value lower(choir::ConstantOp op, PatternRewriter &rewriter) const override {
    auto type = op.getType();
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    // A splat is a fill: no global for the backend to place.
    if (dense && dense.isSplat()) {
      Value scalar = rewriter.create<arith::ConstantOp>(
          op.getLoc(), dense.getSplatValue<TypedAttr>());
      return filledTensor(rewriter, op.getLoc(), type, {}, scalar);
    }
    return rewriter.create<arith::ConstantOp>(op.getLoc(), type,
                                              op.getValue());
  }
};

struct LowerFull : LoweringPattern<choir::FullOp> {
  using LoweringPattern::LoweringPattern;
  Value lower(choir::FullOp op, PatternRewriter &rewriter) const override {
    Value scalar = rewriter.create<arith::ConstantOp>(
        op.getLoc(), cast<TypedAttr>(op.getValue()));
    return filledTensor(rewriter, op.getLoc(), op.getType(), op.getSizes(),
                        scalar);
  }
};

struct LowerIota : LoweringPattern<choir::IotaOp> {
  using LoweringPattern::LoweringPattern;
  Value lower(choir::IotaOp op, PatternRewriter &rewriter) const override {
    SmallVector<Value> sizes;
    if (op.getSize())
      sizes.push_back(op.getSize());
    Type elem = op.getType().getElementType();
    return buildParallelGeneric(
        rewriter, op.getLoc(), op.getType(), sizes, {}, {},
        [=](OpBuilder &b, Location loc, ValueRange) {
          Value i = b.create<linalg::IndexOp>(loc, 0);
          return convertScalar(b, loc, i, elem);
        });
  }
};

struct ChoirElementwiseLowerPass
    : ChoirLoweringPass<ChoirElementwiseLowerPass,
                        tensorstage::impl::ChoirElementwiseLowerBase, owned,
                        whyNotLowered> {
  using ChoirLoweringPass::ChoirLoweringPass;
  void populatePatterns(RewritePatternSet &patterns) {
    populateChoirElementwiseLoweringPatterns(patterns);
  }
};

} // namespace

void tensorstage::populateChoirElementwiseLoweringPatterns(
    RewritePatternSet &patterns) {
  patterns.add<LowerArithmetic<choir::AddOp>, LowerArithmetic<choir::SubOp>,
               LowerArithmetic<choir::MulOp>, LowerArithmetic<choir::DivOp>,
               LowerCmp, LowerSelect, LowerCast, LowerConstant, LowerFull,
               LowerIota>(patterns.getContext());
}
