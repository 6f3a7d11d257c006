//===- LoweringUtils.cpp - Builders shared by the tensor passes -----------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace accy;
using namespace accy::tensorstage;

//===----------------------------------------------------------------------===//
// Scalars
//===----------------------------------------------------------------------===//

Type tensorstage::computeType(Type elem) {
  if (elem.isF16() || elem.isBF16())
    return Float32Type::get(elem.getContext());
  return elem;
}

Value tensorstage::scalarConstant(OpBuilder &b, Location loc, Type type,
                                  double value) {
  if (auto f = dyn_cast<FloatType>(type))
    return b.create<arith::ConstantOp>(loc, b.getFloatAttr(f, value));
  if (type.isIndex())
    return b.create<arith::ConstantIndexOp>(loc, static_cast<int64_t>(value));
  auto i = cast<IntegerType>(type);
  if (i.getWidth() == 1)
    return b.create<arith::ConstantOp>(loc, b.getBoolAttr(value != 0));
  return b.create<arith::ConstantOp>(
      loc, b.getIntegerAttr(i, static_cast<int64_t>(value)));
}

Value tensorstage::convertScalar(OpBuilder &b, Location loc, Value v,
                                 Type to) {
  Type from = v.getType();
  if (from == to)
    return v;
  auto fromFloat = dyn_cast<FloatType>(from);
  auto toFloat = dyn_cast<FloatType>(to);
  if (fromFloat && toFloat) {
    // f16 and bf16 have the same width, so neither extends nor truncates the
    // other: go through f32, which holds both exactly (one rounding).
    if (fromFloat.getWidth() == toFloat.getWidth())
      return convertScalar(b, loc, convertScalar(b, loc, v, b.getF32Type()),
                           to);
    if (fromFloat.getWidth() < toFloat.getWidth())
      return b.create<arith::ExtFOp>(loc, to, v);
    return b.create<arith::TruncFOp>(loc, to, v);
  }
  if (from.isIndex() || to.isIndex())
    return b.create<arith::IndexCastOp>(loc, to, v);
  if (toFloat) {
    if (from.isInteger(1))
      return b.create<arith::UIToFPOp>(loc, to, v);
    return b.create<arith::SIToFPOp>(loc, to, v);
  }
  if (fromFloat) {
    if (to.isInteger(1))
      return b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::UNE, v,
                                     scalarConstant(b, loc, from, 0));
    return b.create<arith::FPToSIOp>(loc, to, v);
  }
  unsigned fromWidth = cast<IntegerType>(from).getWidth();
  unsigned toWidth = cast<IntegerType>(to).getWidth();
  if (toWidth == 1)
    return b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, v,
                                   scalarConstant(b, loc, from, 0));
  if (fromWidth == 1)
    return b.create<arith::ExtUIOp>(loc, to, v);
  if (fromWidth < toWidth)
    return b.create<arith::ExtSIOp>(loc, to, v);
  return b.create<arith::TruncIOp>(loc, to, v);
}

template <typename FloatOp, typename IntOp>
static Value binary(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return b.create<FloatOp>(loc, x, y);
  return b.create<IntOp>(loc, x, y);
}

Value tensorstage::addScalar(OpBuilder &b, Location loc, Value x, Value y) {
  return binary<arith::AddFOp, arith::AddIOp>(b, loc, x, y);
}
Value tensorstage::subScalar(OpBuilder &b, Location loc, Value x, Value y) {
  return binary<arith::SubFOp, arith::SubIOp>(b, loc, x, y);
}
Value tensorstage::mulScalar(OpBuilder &b, Location loc, Value x, Value y) {
  return binary<arith::MulFOp, arith::MulIOp>(b, loc, x, y);
}
Value tensorstage::divScalar(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return b.create<arith::DivFOp>(loc, x, y);
  // Integer division never traps: x / 0 is 0 and x / -1 is -x (wrapping),
  // so the divisor given to divsi is never 0 or -1.
  Type t = x.getType();
  Value zero = scalarConstant(b, loc, t, 0);
  Value one = scalarConstant(b, loc, t, 1);
  Value minusOne = scalarConstant(b, loc, t, -1);
  Value byZero = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, y, zero);
  Value byMinusOne =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, y, minusOne);
  Value special = b.create<arith::OrIOp>(loc, byZero, byMinusOne);
  Value divisor = b.create<arith::SelectOp>(loc, special, one, y);
  Value quotient = b.create<arith::DivSIOp>(loc, x, divisor);
  Value negated = b.create<arith::SubIOp>(loc, zero, x);
  quotient = b.create<arith::SelectOp>(loc, byMinusOne, negated, quotient);
  return b.create<arith::SelectOp>(loc, byZero, zero, quotient);
}
Value tensorstage::maxScalar(OpBuilder &b, Location loc, Value x, Value y) {
  return binary<arith::MaximumFOp, arith::MaxSIOp>(b, loc, x, y);
}
Value tensorstage::minScalar(OpBuilder &b, Location loc, Value x, Value y) {
  return binary<arith::MinimumFOp, arith::MinSIOp>(b, loc, x, y);
}

//===----------------------------------------------------------------------===//
// Tensors
//===----------------------------------------------------------------------===//

SmallVector<Value> tensorstage::dynamicDims(OpBuilder &b, Location loc,
                                            Value v) {
  SmallVector<Value> sizes;
  auto type = tensorType(v);
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      sizes.push_back(b.create<tensor::DimOp>(loc, v, d));
  return sizes;
}

Value tensorstage::emptyTensor(OpBuilder &b, Location loc,
                               RankedTensorType type, ValueRange dynamicSizes) {
  return b.create<tensor::EmptyOp>(loc, type.getShape(), type.getElementType(),
                                   dynamicSizes);
}

Value tensorstage::filledTensor(OpBuilder &b, Location loc,
                                RankedTensorType type, ValueRange dynamicSizes,
                                Value scalar) {
  Value empty = emptyTensor(b, loc, type, dynamicSizes);
  return b.create<linalg::FillOp>(loc, ValueRange{scalar}, ValueRange{empty})
      .getResult(0);
}

/// Groups the dimensions of a rank-`rank` shape around the ones that are
/// not in `unit`: each kept dimension takes the unit dimensions before it;
/// trailing unit dimensions join the last group.
static SmallVector<ReassociationIndices>
groupAroundUnitDims(int64_t rank, ArrayRef<int64_t> unit) {
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices pending;
  for (int64_t d = 0; d < rank; ++d) {
    pending.push_back(d);
    if (!llvm::is_contained(unit, d)) {
      groups.push_back(pending);
      pending.clear();
    }
  }
  if (!pending.empty() && !groups.empty())
    groups.back().append(pending.begin(), pending.end());
  return groups;
}

Value tensorstage::dropUnitDims(OpBuilder &b, Location loc, Value v,
                                ArrayRef<int64_t> dims) {
  if (dims.empty())
    return v;
  auto type = tensorType(v);
  return b.create<tensor::CollapseShapeOp>(
      loc, v, groupAroundUnitDims(type.getRank(), dims));
}

Value tensorstage::addUnitDims(OpBuilder &b, Location loc, Value v,
                               RankedTensorType target,
                               ArrayRef<int64_t> unitDims) {
  if (unitDims.empty())
    return v;
  SmallVector<OpFoldResult> shape;
  int64_t source = 0;
  for (int64_t d = 0; d < target.getRank(); ++d) {
    if (llvm::is_contained(unitDims, d)) {
      shape.push_back(b.getIndexAttr(1));
      continue;
    }
    if (target.isDynamicDim(d))
      shape.push_back(b.create<tensor::DimOp>(loc, v, source).getResult());
    else
      shape.push_back(b.getIndexAttr(target.getDimSize(d)));
    ++source;
  }
  return b.create<tensor::ExpandShapeOp>(
      loc, target, v, groupAroundUnitDims(target.getRank(), unitDims), shape);
}

BroadcastRead tensorstage::broadcastRead(OpBuilder &b, Location loc,
                                         Value operand,
                                         ArrayRef<int64_t> resultShape) {
  auto type = tensorType(operand);
  int64_t rank = resultShape.size();
  int64_t offset = rank - type.getRank();
  SmallVector<int64_t> drop;
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (type.getDimSize(d) == 1 && resultShape[d + offset] != 1)
      drop.push_back(d);
    else
      exprs.push_back(b.getAffineDimExpr(d + offset));
  }
  return {dropUnitDims(b, loc, operand, drop),
          AffineMap::get(rank, 0, exprs, b.getContext())};
}

FailureOr<SmallVector<Value>>
tensorstage::broadcastSizes(OpBuilder &b, Location loc, RankedTensorType type,
                            ValueRange operands) {
  SmallVector<Value> sizes;
  for (int64_t r = 0; r < type.getRank(); ++r) {
    if (!type.isDynamicDim(r))
      continue;
    Value size;
    for (Value operand : operands) {
      auto t = tensorType(operand);
      int64_t d = r - (type.getRank() - t.getRank());
      if (d >= 0 && t.getDimSize(d) != 1) {
        size = b.create<tensor::DimOp>(loc, operand, d);
        break;
      }
    }
    if (!size)
      return failure();
    sizes.push_back(size);
  }
  return sizes;
}

Value tensorstage::buildElementwise(OpBuilder &b, Location loc,
                                    RankedTensorType resultType,
                                    ValueRange dynamicSizes,
                                    ValueRange operands,
                                    const ScalarBody &body) {
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (Value operand : operands) {
    BroadcastRead read = broadcastRead(b, loc, operand, resultType.getShape());
    inputs.push_back(read.value);
    maps.push_back(read.map);
  }
  return buildParallelGeneric(b, loc, resultType, dynamicSizes, inputs, maps,
                              body);
}

Value tensorstage::castTo(OpBuilder &b, Location loc, Value v,
                          RankedTensorType type) {
  if (v.getType() == type)
    return v;
  return b.create<tensor::CastOp>(loc, type, v);
}

Value tensorstage::buildParallelGeneric(OpBuilder &b, Location loc,
                                        RankedTensorType resultType,
                                        ValueRange dynamicSizes,
                                        ValueRange inputs,
                                        ArrayRef<AffineMap> inputMaps,
                                        const ScalarBody &body) {
  SmallVector<AffineMap> maps(inputMaps);
  int64_t rank = resultType.getRank();
  maps.push_back(b.getMultiDimIdentityMap(rank));
  Value init = emptyTensor(b, loc, resultType, dynamicSizes);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = b.create<linalg::GenericOp>(
      loc, TypeRange{resultType}, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value r = body(nb, nl, args.drop_back());
        nb.create<linalg::YieldOp>(nl, r);
      });
  return generic.getResult(0);
}

Value tensorstage::reductionIdentity(OpBuilder &b, Location loc,
                                     choir::ReduceKind kind, Type type) {
  bool isMax = kind == choir::ReduceKind::max;
  bool isMin = kind == choir::ReduceKind::min;
  if (!isMax && !isMin)
    return scalarConstant(b, loc, type, 0);
  if (auto f = dyn_cast<FloatType>(type))
    return b.create<arith::ConstantOp>(
        loc, b.getFloatAttr(f, APFloat::getInf(f.getFloatSemantics(),
                                               /*Negative=*/isMax)));
  unsigned width = cast<IntegerType>(type).getWidth();
  APInt value = isMax ? APInt::getSignedMinValue(width)
                      : APInt::getSignedMaxValue(width);
  return b.create<arith::ConstantOp>(loc, b.getIntegerAttr(type, value));
}

Value tensorstage::buildReduction(OpBuilder &b, Location loc, Value input,
                                  ArrayRef<int64_t> axes,
                                  choir::ReduceKind kind, Type accType) {
  auto type = tensorType(input);
  int64_t rank = type.getRank();
  SmallVector<int64_t> shape;
  SmallVector<AffineExpr> exprs;
  SmallVector<Value> sizes;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < rank; ++d) {
    if (llvm::is_contained(axes, d)) {
      iterators.push_back(utils::IteratorType::reduction);
      continue;
    }
    iterators.push_back(utils::IteratorType::parallel);
    shape.push_back(type.getDimSize(d));
    exprs.push_back(b.getAffineDimExpr(d));
    if (type.isDynamicDim(d))
      sizes.push_back(b.create<tensor::DimOp>(loc, input, d));
  }
  auto resultType = RankedTensorType::get(shape, accType);
  Value init = filledTensor(b, loc, resultType, sizes,
                            reductionIdentity(b, loc, kind, accType));
  SmallVector<AffineMap> maps = {
      b.getMultiDimIdentityMap(rank),
      AffineMap::get(rank, 0, exprs, b.getContext())};
  auto generic = b.create<linalg::GenericOp>(
      loc, TypeRange{resultType}, ValueRange{input}, ValueRange{init}, maps,
      iterators, [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value x = convertScalar(nb, nl, args[0], accType);
        Value r;
        if (kind == choir::ReduceKind::max)
          r = maxScalar(nb, nl, args[1], x);
        else if (kind == choir::ReduceKind::min)
          r = minScalar(nb, nl, args[1], x);
        else
          r = addScalar(nb, nl, args[1], x);
        nb.create<linalg::YieldOp>(nl, r);
      });
  return generic.getResult(0);
}

ElementCount tensorstage::elementCount(OpBuilder &b, Location loc, Value v,
                                      ArrayRef<int64_t> axes) {
  auto t = tensorType(v);
  ElementCount count;
  for (int64_t d : axes) {
    if (t.isDynamicDim(d))
      count.multiply(b.create<tensor::DimOp>(loc, v, d).getResult());
    else
      count.multiply(t.getDimSize(d));
  }
  return count;
}

Value ElementCount::build(OpBuilder &b, Location loc, Type type) const {
  Value total;
  if (staticPart != 1 || dynamicSizes.empty())
    total = scalarConstant(b, loc, type, static_cast<double>(staticPart));
  for (Value size : dynamicSizes) {
    Value n;
    if (isa<FloatType>(type)) {
      Value i64 = b.create<arith::IndexCastOp>(loc, b.getI64Type(), size);
      n = b.create<arith::SIToFPOp>(loc, type, i64);
    } else {
      n = b.create<arith::IndexCastOp>(loc, type, size);
    }
    total = total ? mulScalar(b, loc, total, n) : n;
  }
  return total;
}
