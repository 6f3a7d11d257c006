//===- IndexingLower.cpp - accy-choir-indexing-lower ----------------------===//
//
// Slices, gathers, transposes, reshapes, broadcasts, concatenations and
// scans into tensor and linalg ops.
//
//===----------------------------------------------------------------------===//

#include "ChoirLowering.h"
#include "LoweringUtils.h"
#include "accy/Stages/Tensor/Passes.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace accy::tensorstage {
#define GEN_PASS_DEF_CHOIRINDEXINGLOWER
#include "accy/Stages/Tensor/Passes.h.inc"
} // namespace accy::tensorstage

using namespace mlir;
using namespace accy;
using namespace accy::tensorstage;

namespace {

bool owned(Operation *op) {
  return isa<choir::SliceOp, choir::TakeOp, choir::TransposeOp,
             choir::ReshapeOp, choir::BroadcastOp, choir::ConcatOp,
             choir::ScanOp>(op);
}

std::string whyNotLowered(Operation *op) {
  if (auto scan = dyn_cast<choir::ScanOp>(op)) {
    Type elem = scan.getType().getElementType();
    if (!isa<FloatType>(elem) && !(isa<IntegerType>(elem) && !elem.isInteger(1)))
      return "scans need a float or (non-bool) integer element type";
  }
  return "";
}

struct LowerTranspose : OpRewritePattern<choir::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(choir::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto in = tensorType(op.getInput());
    SmallVector<int64_t> shape;
    SmallVector<Value> sizes;
    for (int64_t p : op.getPerm()) {
      shape.push_back(in.getDimSize(p));
      if (in.isDynamicDim(p))
        sizes.push_back(rewriter.create<tensor::DimOp>(loc, op.getInput(), p));
    }
    Value init = emptyTensor(
        rewriter, loc, RankedTensorType::get(shape, in.getElementType()), sizes);
    auto transpose = rewriter.create<linalg::TransposeOp>(
        loc, op.getInput(), init, op.getPerm());
    rewriter.replaceOp(op, castTo(rewriter, loc, transpose->getResult(0),
                                  op.getType()));
    return success();
  }
};

struct LowerBroadcast : OpRewritePattern<choir::BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(choir::BroadcastOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto in = tensorType(op.getInput());
    auto out = op.getType();
    int64_t offset = out.getRank() - in.getRank();
    SmallVector<int64_t> drop;
    for (int64_t d = 0; d < in.getRank(); ++d)
      if (in.getDimSize(d) == 1 && out.getDimSize(d + offset) != 1)
        drop.push_back(d);
    Value input = dropUnitDims(rewriter, loc, op.getInput(), drop);
    // The init has the input's static sizes on the dimensions it keeps (so
    // linalg.broadcast sees equal sizes) and the result's on the new ones.
    SmallVector<int64_t> shape;
    SmallVector<Value> sizes;
    SmallVector<int64_t> added;
    unsigned nextSize = 0, nextKept = 0;
    for (int64_t r = 0; r < out.getRank(); ++r) {
      int64_t d = r - offset;
      bool kept = d >= 0 && !llvm::is_contained(drop, d);
      Value resultSize;
      if (out.isDynamicDim(r))
        resultSize = op.getSizes()[nextSize++];
      if (kept) {
        // The result's size operand names the size the contract stage bound
        // (an argument's dimension); the input's own dim is the fallback.
        int64_t size = in.getDimSize(d);
        shape.push_back(size);
        if (ShapedType::isDynamic(size))
          sizes.push_back(resultSize ? resultSize
                                     : rewriter.create<tensor::DimOp>(
                                           loc, input, nextKept));
        ++nextKept;
        continue;
      }
      added.push_back(r);
      shape.push_back(out.getDimSize(r));
      if (resultSize)
        sizes.push_back(resultSize);
    }
    auto initType = RankedTensorType::get(shape, out.getElementType());
    Value result = input;
    if (!added.empty()) {
      Value init = emptyTensor(rewriter, loc, initType, sizes);
      result = rewriter
                   .create<linalg::BroadcastOp>(loc, input, init, added)
                   ->getResult(0);
    }
    rewriter.replaceOp(op, castTo(rewriter, loc, result, out));
    return success();
  }
};

/// The reassociation that collapses `from` into `to` when it is certain:
/// both have at most one dynamic dimension, so the element count fixes it.
std::optional<SmallVector<ReassociationIndices>>
certainCollapse(RankedTensorType from, RankedTensorType to) {
  if (from.getNumDynamicDims() > 1 || to.getNumDynamicDims() > 1 ||
      from.getNumDynamicDims() != to.getNumDynamicDims() || to.getRank() == 0)
    return std::nullopt;
  auto groups =
      getReassociationIndicesForCollapse(from.getShape(), to.getShape());
  if (!groups || groups->size() != static_cast<size_t>(to.getRank()))
    return std::nullopt;
  for (auto [r, group] : llvm::enumerate(*groups)) {
    bool dynamic = llvm::any_of(
        group, [&](int64_t d) { return from.isDynamicDim(d); });
    if (dynamic != to.isDynamicDim(r))
      return std::nullopt;
    if (!dynamic) {
      int64_t product = 1;
      for (int64_t d : group)
        product *= from.getDimSize(d);
      if (product != to.getDimSize(r))
        return std::nullopt;
    }
  }
  return groups;
}

struct LowerReshape : OpRewritePattern<choir::ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;

  /// The result shape as OpFoldResults (size operands for dynamic dims).
  static SmallVector<OpFoldResult> resultShape(choir::ReshapeOp op,
                                               OpBuilder &b) {
    SmallVector<OpFoldResult> shape;
    unsigned next = 0;
    for (int64_t size : op.getType().getShape())
      shape.push_back(ShapedType::isDynamic(size)
                          ? OpFoldResult(op.getSizes()[next++])
                          : OpFoldResult(b.getIndexAttr(size)));
    return shape;
  }

  LogicalResult matchAndRewrite(choir::ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = op.getInput();
    auto from = tensorType(input);
    auto to = op.getType();
    if (from == to && from.getNumDynamicDims() <= 1) {
      rewriter.replaceOp(op, input);
      return success();
    }
    if (from.getRank() > to.getRank()) {
      if (auto groups = certainCollapse(from, to)) {
        Value collapsed =
            rewriter.create<tensor::CollapseShapeOp>(loc, input, *groups);
        rewriter.replaceOp(op, castTo(rewriter, loc, collapsed, to));
        return success();
      }
    } else if (from.getRank() < to.getRank() && from.getRank() > 0) {
      if (auto groups = certainCollapse(to, from)) {
        rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
            op, to, input, *groups, resultShape(op, rewriter));
        return success();
      }
    }
    bool fromHasElements = from.getRank() > 0 || to.hasStaticShape();
    bool toHasElements = to.getRank() > 0 || from.hasStaticShape();
    // Through rank 1 needs an expand_shape with at most one dynamic size
    // (bufferization cannot expand one group into several dynamic sizes).
    bool throughRankOne = from.getRank() > 0 && to.getRank() > 0 &&
                          to.getNumDynamicDims() <= 1;
    if (!throughRankOne) {
      if (fromHasElements && toHasElements &&
          (from.getRank() == 0 || to.getRank() == 0)) {
        // Only unit dimensions on the other side.
        SmallVector<ReassociationIndices> none;
        if (from.getRank() == 0)
          rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
              op, to, input, none, resultShape(op, rewriter));
        else
          rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
              op, to, castTo(rewriter, loc, input,
                             RankedTensorType::get(
                                 SmallVector<int64_t>(from.getRank(), 1),
                                 from.getElementType())),
              none);
        return success();
      }
      // The general reshape, with the result shape as a tensor.
      SmallVector<Value> dims;
      for (OpFoldResult size : resultShape(op, rewriter))
        dims.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, size));
      auto shapeType = RankedTensorType::get({to.getRank()},
                                             rewriter.getIndexType());
      Value shape = rewriter.create<tensor::FromElementsOp>(loc, shapeType, dims);
      rewriter.replaceOpWithNewOp<tensor::ReshapeOp>(op, to, input, shape);
      return success();
    }
    // Through rank 1: collapse everything, expand to the result.
    Value flat = input;
    if (from.getRank() > 1) {
      ReassociationIndices all = llvm::to_vector<2>(llvm::seq<int64_t>(0, from.getRank()));
      flat = rewriter.create<tensor::CollapseShapeOp>(
          loc, input, SmallVector<ReassociationIndices>{all});
    }
    Value result = flat;
    if (to.getRank() > 1) {
      ReassociationIndices all = llvm::to_vector<2>(llvm::seq<int64_t>(0, to.getRank()));
      int64_t elements = to.hasStaticShape() ? to.getNumElements()
                                             : ShapedType::kDynamic;
      flat = castTo(rewriter, loc, flat,
                    RankedTensorType::get({elements}, to.getElementType()));
      result = rewriter.create<tensor::ExpandShapeOp>(
          loc, to, flat, SmallVector<ReassociationIndices>{all},
          resultShape(op, rewriter));
    }
    rewriter.replaceOp(op, castTo(rewriter, loc, result, to));
    return success();
  }
};

struct LowerSlice : OpRewritePattern<choir::SliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(choir::SliceOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<OpFoldResult> offsets =
        getMixedValues(op.getStaticStarts(), op.getStarts(), rewriter);
    SmallVector<OpFoldResult> sizes =
        getMixedValues(op.getStaticSizes(), op.getSizes(), rewriter);
    SmallVector<OpFoldResult> strides(sizes.size(), rewriter.getIndexAttr(1));
    Value slice = rewriter.create<tensor::ExtractSliceOp>(
        loc, op.getInput(), offsets, sizes, strides);
    rewriter.replaceOp(op, castTo(rewriter, loc, slice, op.getType()));
    return success();
  }
};

struct LowerTake : OpRewritePattern<choir::TakeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(choir::TakeOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = op.getInput(), indices = op.getIndices();
    auto in = tensorType(input);
    auto idx = tensorType(indices);
    int64_t axis = op.getAxis();
    int64_t idxRank = idx.getRank();
    auto type = op.getType();
    // Result dims: input[:axis], indices, input[axis+1:].
    SmallVector<Value> sizes;
    for (int64_t r = 0; r < type.getRank(); ++r) {
      if (!type.isDynamicDim(r))
        continue;
      if (r < axis)
        sizes.push_back(rewriter.create<tensor::DimOp>(loc, input, r));
      else if (r < axis + idxRank)
        sizes.push_back(rewriter.create<tensor::DimOp>(loc, indices, r - axis));
      else
        sizes.push_back(
            rewriter.create<tensor::DimOp>(loc, input, r - idxRank + 1));
    }
    // Indices clamp to [0, size - 1].
    Value axisSize = rewriter.create<tensor::DimOp>(loc, input, axis);
    Value zero = rewriter.create<arith::ConstantIndexOp>(loc, 0);
    Value upper = rewriter.create<arith::SubIOp>(
        loc, axisSize, rewriter.create<arith::ConstantIndexOp>(loc, 1));
    SmallVector<AffineExpr> idxExprs;
    for (int64_t k = 0; k < idxRank; ++k)
      idxExprs.push_back(rewriter.getAffineDimExpr(axis + k));
    AffineMap idxMap =
        AffineMap::get(type.getRank(), 0, idxExprs, rewriter.getContext());
    Value result = buildParallelGeneric(
        rewriter, loc, type, sizes, indices, idxMap,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value i = b.create<arith::IndexCastOp>(l, b.getIndexType(), args[0]);
          i = b.create<arith::MaxSIOp>(l, i, zero);
          i = b.create<arith::MinSIOp>(l, i, upper);
          SmallVector<Value> coords;
          for (int64_t d = 0; d < in.getRank(); ++d) {
            if (d == axis)
              coords.push_back(i);
            else
              coords.push_back(b.create<linalg::IndexOp>(
                  l, d < axis ? d : d - 1 + idxRank));
          }
          return b.create<tensor::ExtractOp>(l, input, coords);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct LowerConcat : OpRewritePattern<choir::ConcatOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(choir::ConcatOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = op.getType();
    int64_t axis = op.getAxis();
    Value first = op.getInputs().front();
    SmallVector<Value> sizes;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (!type.isDynamicDim(d))
        continue;
      if (d != axis) {
        sizes.push_back(rewriter.create<tensor::DimOp>(loc, first, d));
        continue;
      }
      Value total;
      for (Value v : op.getInputs()) {
        Value n = rewriter.create<tensor::DimOp>(loc, v, axis);
        total = total ? rewriter.create<arith::AddIOp>(loc, total, n) : n;
      }
      sizes.push_back(total);
    }
    Value result = emptyTensor(rewriter, loc, type, sizes);
    OpFoldResult offset = rewriter.getIndexAttr(0);
    for (Value v : op.getInputs()) {
      auto t = tensorType(v);
      SmallVector<OpFoldResult> offsets(t.getRank(), rewriter.getIndexAttr(0));
      offsets[axis] = offset;
      SmallVector<OpFoldResult> extents;
      for (int64_t d = 0; d < t.getRank(); ++d)
        extents.push_back(t.isDynamicDim(d)
                              ? OpFoldResult(rewriter.create<tensor::DimOp>(
                                    loc, v, d).getResult())
                              : OpFoldResult(rewriter.getIndexAttr(
                                    t.getDimSize(d))));
      SmallVector<OpFoldResult> strides(t.getRank(), rewriter.getIndexAttr(1));
      result = rewriter.create<tensor::InsertSliceOp>(loc, v, result, offsets,
                                                      extents, strides);
      // The next offset: static while every extent so far is.
      std::optional<int64_t> a = getConstantIntValue(offset);
      std::optional<int64_t> n = getConstantIntValue(extents[axis]);
      if (a && n) {
        offset = rewriter.getIndexAttr(*a + *n);
      } else {
        offset = rewriter
                     .create<arith::AddIOp>(
                         loc, getValueOrCreateConstantIndexOp(rewriter, loc, offset),
                         getValueOrCreateConstantIndexOp(rewriter, loc,
                                                         extents[axis]))
                     .getResult();
      }
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// out[..., i, ...] = combine over j <= i of x[..., j, ...]: a reduction
/// loop j next to the parallel ones, masked by j <= i. Quadratic along the
/// axis as written, but a plain linalg.generic; `choir.scan` names it for
/// the dispatch stage's scan schedule, and the kernel stage generates
/// linear code from it (the payload at j = i is element i).
struct LowerScan : OpRewritePattern<choir::ScanOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(choir::ScanOp op,
                                PatternRewriter &rewriter) const override {
    if (!whyNotLowered(op).empty())
      return failure();
    Location loc = op.getLoc();
    Value input = op.getInput();
    auto type = op.getType();
    int64_t rank = type.getRank(), axis = op.getAxis();
    Type elem = type.getElementType();
    bool sum = op.getKind() == choir::ScanKind::cumsum;
    choir::ReduceKind kind = sum ? choir::ReduceKind::sum : choir::ReduceKind::max;
    Type acc = sum ? computeType(elem) : elem;
    SmallVector<Value> sizes = dynamicDims(rewriter, loc, input);
    auto accType = RankedTensorType::get(type.getShape(), acc);
    Value identity = reductionIdentity(rewriter, loc, kind, acc);
    Value init = filledTensor(rewriter, loc, accType, sizes, identity);
    SmallVector<AffineExpr> inExprs;
    for (int64_t d = 0; d < rank; ++d)
      inExprs.push_back(rewriter.getAffineDimExpr(d == axis ? rank : d));
    SmallVector<AffineMap> maps = {
        AffineMap::get(rank + 1, 0, inExprs, rewriter.getContext()),
        AffineMap::getMultiDimIdentityMap(rank + 1, rewriter.getContext())
            .getMajorSubMap(rank)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{accType}, ValueRange{input}, ValueRange{init}, maps,
        iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          Value i = b.create<linalg::IndexOp>(l, axis);
          Value j = b.create<linalg::IndexOp>(l, rank);
          Value inside =
              b.create<arith::CmpIOp>(l, arith::CmpIPredicate::ule, j, i);
          Value x = convertScalar(b, l, args[0], acc);
          Value v = b.create<arith::SelectOp>(l, inside, x, identity);
          Value r = sum ? addScalar(b, l, args[1], v)
                        : maxScalar(b, l, args[1], v);
          b.create<linalg::YieldOp>(l, r);
        });
    generic->setAttr(choir::kScanAttrName,
                     choir::ScanKindAttr::get(rewriter.getContext(),
                                              sum ? choir::ScanKind::cumsum
                                                  : choir::ScanKind::cummax));
    Value result = generic.getResult(0);
    if (acc != elem)
      result = buildElementwise(rewriter, loc, type, sizes, result,
                                [=](OpBuilder &b, Location l, ValueRange args) {
                                  return convertScalar(b, l, args[0], elem);
                                });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ChoirIndexingLowerPass
    : ChoirLoweringPass<ChoirIndexingLowerPass,
                        tensorstage::impl::ChoirIndexingLowerBase, owned,
                        whyNotLowered> {
  using ChoirLoweringPass::ChoirLoweringPass;
  void populatePatterns(RewritePatternSet &patterns) {
    populateChoirIndexingLoweringPatterns(patterns);
  }
};

} // namespace

void tensorstage::populateChoirIndexingLoweringPatterns(
    RewritePatternSet &patterns) {
  patterns.add<LowerTranspose, LowerBroadcast, LowerReshape, LowerSlice,
               LowerTake, LowerConcat, LowerScan>(patterns.getContext());
}
