//===- SymbolicSizes.cpp - Sizes as expressions of argument dims ----------===//

#include "accy/Stages/Memory/SymbolicSizes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace accy;

ArgumentDims::ArgumentDims(func::FuncOp func)
    : body(func.isExternal() ? nullptr : &func.getBody().front()),
      context(func.getContext()) {
  for (auto [argNo, type] : llvm::enumerate(func.getArgumentTypes())) {
    auto shaped = dyn_cast<ShapedType>(type);
    if (!shaped || !shaped.hasRank())
      continue;
    for (unsigned dim = 0; dim < shaped.getRank(); ++dim)
      if (shaped.isDynamicDim(dim)) {
        symbolIndex[{argNo, dim}] = symbols.size();
        symbols.push_back({argNo, dim});
      }
  }
}

ArrayAttr ArgumentDims::getSymbolsAttr(Builder &b) const {
  SmallVector<Attribute> entries;
  for (auto [arg, dim] : symbols)
    entries.push_back(b.getDenseI64ArrayAttr({arg, dim}));
  return b.getArrayAttr(entries);
}

AffineMap ArgumentDims::makeMap(ArrayRef<AffineExpr> exprs) const {
  SmallVector<AffineExpr> simplified;
  for (AffineExpr expr : exprs)
    simplified.push_back(simplifyAffineExpr(expr, 0, symbols.size()));
  return AffineMap::get(0, symbols.size(), simplified, context);
}

FailureOr<AffineExpr> ArgumentDims::traceDim(Value value, unsigned dim) const {
  auto type = dyn_cast<ShapedType>(value.getType());
  if (!type || !type.hasRank() || dim >= type.getRank())
    return failure();
  if (!type.isDynamicDim(dim))
    return getAffineConstantExpr(type.getDimSize(dim), context);
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (arg.getOwner() != body)
      return failure();
    auto it = symbolIndex.find({arg.getArgNumber(), dim});
    if (it == symbolIndex.end())
      return failure();
    return getAffineSymbolExpr(it->second, context);
  }
  Operation *def = value.getDefiningOp();
  // The dynamic sizes of an allocation are its operands, in order.
  auto dynamicOperand = [&](ValueRange sizes) -> FailureOr<AffineExpr> {
    unsigned index = type.getDynamicDimIndex(dim);
    if (index >= sizes.size())
      return failure();
    return trace(sizes[index]);
  };
  if (auto alloc = dyn_cast<memref::AllocOp>(def))
    return dynamicOperand(alloc.getDynamicSizes());
  if (auto alloc = dyn_cast<memref::AllocaOp>(def))
    return dynamicOperand(alloc.getDynamicSizes());
  if (auto alloc = dyn_cast<gpu::AllocOp>(def))
    return dynamicOperand(alloc.getDynamicSizes());
  if (auto empty = dyn_cast<tensor::EmptyOp>(def))
    return dynamicOperand(empty.getDynamicSizes());
  if (auto cast = dyn_cast<memref::CastOp>(def))
    return traceDim(cast.getSource(), dim);
  // Views: the sizes of reshapes and subviews, in terms of their source.
  if (auto collapse = dyn_cast<memref::CollapseShapeOp>(def)) {
    // getReassociationIndices() returns a temporary: the range-for must own
    // it, or the indices it walks are freed before the first iteration.
    SmallVector<ReassociationIndices> groups =
        collapse.getReassociationIndices();
    AffineExpr size = getAffineConstantExpr(1, context);
    for (int64_t sourceDim : groups[dim]) {
      FailureOr<AffineExpr> part = traceDim(collapse.getSrc(), sourceDim);
      if (failed(part))
        return failure();
      size = size * *part;
    }
    return size;
  }
  auto traceFoldResult = [&](OpFoldResult size) -> FailureOr<AffineExpr> {
    if (auto attr = dyn_cast<Attribute>(size))
      return getAffineConstantExpr(cast<IntegerAttr>(attr).getInt(), context);
    return trace(cast<Value>(size));
  };
  if (auto expand = dyn_cast<memref::ExpandShapeOp>(def))
    return dynamicOperand(expand.getOutputShape());
  if (auto view = dyn_cast<memref::ReinterpretCastOp>(def))
    return traceFoldResult(view.getMixedSizes()[dim]);
  if (auto subview = dyn_cast<memref::SubViewOp>(def)) {
    llvm::SmallBitVector dropped = subview.getDroppedDims();
    SmallVector<OpFoldResult> sizes = subview.getMixedSizes();
    unsigned resultDim = 0;
    for (unsigned i = 0; i < sizes.size(); ++i) {
      if (dropped.test(i))
        continue;
      if (resultDim++ == dim)
        return traceFoldResult(sizes[i]);
    }
    return failure();
  }
  if (auto cast = dyn_cast<tensor::CastOp>(def))
    return traceDim(cast.getSource(), dim);
  return failure();
}

FailureOr<AffineMap> ArgumentDims::traceShape(Value value) const {
  auto type = dyn_cast<ShapedType>(value.getType());
  if (!type || !type.hasRank())
    return failure();
  SmallVector<AffineExpr> dims;
  for (unsigned d = 0; d < type.getRank(); ++d) {
    FailureOr<AffineExpr> expr = traceDim(value, d);
    if (failed(expr))
      return failure();
    dims.push_back(*expr);
  }
  return makeMap(dims);
}

FailureOr<AffineExpr> ArgumentDims::trace(Value value) const {
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return getAffineConstantExpr(constant.getSExtValue(), context);
  Operation *def = value.getDefiningOp();
  if (!def)
    return failure();
  if (auto dim = dyn_cast<memref::DimOp>(def)) {
    std::optional<int64_t> index = dim.getConstantIndex();
    if (!index)
      return failure();
    return traceDim(dim.getSource(), *index);
  }
  if (auto dim = dyn_cast<tensor::DimOp>(def)) {
    std::optional<int64_t> index = dim.getConstantIndex();
    if (!index)
      return failure();
    return traceDim(dim.getSource(), *index);
  }
  if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
    AffineMap map = apply.getAffineMap();
    SmallVector<AffineExpr> dims, syms;
    for (auto [i, operand] : llvm::enumerate(apply.getMapOperands())) {
      FailureOr<AffineExpr> expr = trace(operand);
      if (failed(expr))
        return failure();
      (i < map.getNumDims() ? dims : syms).push_back(*expr);
    }
    return map.getResult(0).replaceDimsAndSymbols(dims, syms);
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(def))
    return trace(def->getOperand(0));
  if (def->getNumOperands() != 2)
    return failure();
  FailureOr<AffineExpr> lhs = trace(def->getOperand(0));
  FailureOr<AffineExpr> rhs = trace(def->getOperand(1));
  if (failed(lhs) || failed(rhs))
    return failure();
  if (isa<arith::AddIOp>(def))
    return *lhs + *rhs;
  if (isa<arith::SubIOp>(def))
    return *lhs - *rhs;
  // A product of two dimensions is semi-affine: symbols are constants of
  // the launch, so the maps stay printable and evaluable.
  if (isa<arith::MulIOp>(def))
    return *lhs * *rhs;
  auto divisor = dyn_cast<AffineConstantExpr>(*rhs);
  if (!divisor || divisor.getValue() <= 0)
    return failure();
  if (isa<arith::DivUIOp, arith::DivSIOp, arith::FloorDivSIOp>(def))
    return lhs->floorDiv(divisor);
  if (isa<arith::CeilDivUIOp, arith::CeilDivSIOp>(def))
    return lhs->ceilDiv(divisor);
  if (isa<arith::RemUIOp, arith::RemSIOp>(def))
    return *lhs % divisor;
  return failure();
}
