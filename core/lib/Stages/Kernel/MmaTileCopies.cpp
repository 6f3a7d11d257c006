//===- MmaTileCopies.cpp - A tensor-core contraction's operand tiles ------===//
//
// Each K tile of both operands goes into workgroup memory, laid out as the
// operand lies (MmaOperandTile), consecutive threads taking consecutive
// elements: element by element through registers, or in chunks of 16
// bytes where the operands' innermost sizes are multiples of 8, by
// cp.async on NVIDIA and through registers on AMD. K past its end is
// zeros; rows (or chunks) past M or N read the last ones.
//
//===----------------------------------------------------------------------===//

#include "MmaContractionKernel.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace accy;
using namespace accy::kernel;

Type MmaContractionKernel::copiedType() {
  if (chunk == 1)
    return inputElement();
  return VectorType::get({chunk}, inputElement());
}

/// Consecutive threads take consecutive elements (or chunks) of the
/// operand's innermost dimension (K, or the tile's rows), which are
/// consecutive in the tile too.
MmaContractionKernel::TileCopy
MmaContractionKernel::planCopy(Ix &ix, Value tid, bool isLhs, int64_t offset) {
  int64_t side = isLhs ? bm : bn;
  OpOperand *operand =
      &op->getOpOperand(isLhs ? shape.lhsInput : shape.rhsInput);
  MmaOperandTile layout = getMmaOperandTile(op, shape, isLhs, side, bk);
  int64_t stageElements = layout.rows * layout.columns;
  TileCopy copy{operand, isLhs, layout};
  copy.stageElements = stageElements;
  copy.flat = block->view(
      ix, offset,
      workgroupBuffer({kMmaStages * stageElements}, inputElement()));
  if (chunk > 1)
    copy.global = alignedFlatView(rw, loc, operand->get());
  // Thread `tid` takes column `first` of the tile's rows `next` + a
  // multiple of `step` (the tile's rows are M or N indices, or K); with
  // chunks, `first` is a chunk's first column. A row past the operand's
  // end reads its last one (its outputs are never stored); a chunk of M
  // or N columns past the end reads the last chunk.
  int64_t inner = (layout.kContiguous ? bk : side) / chunk;
  int64_t step = threads / inner;
  Value first = ix.mul(ix.rem(tid, ix.c(inner)), chunk);
  Value next = ix.div(tid, ix.c(inner));
  Value flatFirst = ix.add(ix.mul(next, layout.columns), first);
  Value size = sizes[isLhs ? shape.mDim : shape.nDim];
  Value last = ix.sub(size, ix.c(layout.kContiguous ? 1 : chunk));
  Value base = isLhs ? block->m0 : block->n0;
  for (int64_t i = 0; i < side * bk / (threads * chunk); ++i) {
    Value across = ix.add(next, ix.c(i * step));
    Value kk = layout.kContiguous ? first : across;
    Value row = layout.kContiguous ? across : first;
    copy.kk.push_back(kk);
    copy.outer.push_back(ix.minU(ix.add(base, row), last));
    copy.at.push_back(ix.add(flatFirst, ix.c(i * step * layout.columns)));
  }
  return copy;
}

/// Where in the flat, aligned operand of `copy` the chunk at the
/// iteration point `ivs` (its first element) is: a multiple of the
/// chunk, so that the backends know its 16-byte alignment.
Value MmaContractionKernel::chunkIndex(const TileCopy &copy, ValueRange ivs) {
  Ix ix{rw, loc};
  SmallVector<Value> indices =
      applyMap(rw, loc, op.getMatchingIndexingMap(copy.operand), ivs);
  Value buffer = copy.operand->get();
  auto dim = [&](int64_t d) {
    return rw.createOrFold<memref::DimOp>(loc, buffer, d);
  };
  // Row-major, counted in chunks: the innermost size is a multiple.
  int64_t rank = indices.size();
  Value rows = indices.front();
  for (int64_t d = 1; d + 1 < rank; ++d)
    rows = ix.add(ix.mul(rows, dim(d)), indices[d]);
  Value chunks = ix.div(indices.back(), ix.c(chunk));
  if (rank > 1)
    chunks = ix.add(ix.mul(rows, ix.div(dim(rank - 1), ix.c(chunk))), chunks);
  return ix.mul(chunks, chunk);
}

/// The iteration point of `copy`'s element (or chunk) `i` at K offset
/// `k0`, K clamped to its last element (or chunk) where `masked`; and
/// whether that K is inside the operand.
std::pair<SmallVector<Value>, Value>
MmaContractionKernel::copyPoint(const TileCopy &copy, size_t i, Value k0,
                                bool masked) {
  Ix ix{rw, loc};
  Value kSize = sizes[shape.kDim];
  int64_t kStep = copy.layout.kContiguous ? chunk : 1;
  Value kv = ix.add(k0, copy.kk[i]);
  Value at = masked ? ix.minU(kv, ix.sub(kSize, ix.c(kStep))) : kv;
  return {copy.isLhs ? block->ivsAt(copy.outer[i], zero, at)
                     : block->ivsAt(zero, copy.outer[i], at),
          ix.lt(kv, kSize)};
}

/// Loads this thread's elements (or chunks) of `copy` at K offset `k0`;
/// with `masked`, those at K past its end are zeros (loaded at the last
/// K, or chunk of K).
SmallVector<Value> MmaContractionKernel::fetch(const TileCopy &copy, Value k0,
                                               bool masked) {
  SmallVector<Value> values;
  for (size_t i = 0; i < copy.kk.size(); ++i) {
    auto [ivs, inside] = copyPoint(copy, i, k0, masked);
    Value value = chunk == 1
                      ? loadOperand(rw, loc, op, copy.operand, ivs)
                      : rw.create<vector::LoadOp>(
                            loc, cast<VectorType>(copiedType()), copy.global,
                            ValueRange{chunkIndex(copy, ivs)});
    if (masked)
      value = rw.create<arith::SelectOp>(loc, inside, value,
                                         zeroOf(rw, loc, value.getType()));
    values.push_back(value);
  }
  return values;
}

/// Starts the copies of this thread's chunks of `copy` at K offset `k0`
/// into the stage at `stageOffset` (cp.async; a chunk past K is zeros:
/// none of its source is read). Returns their tokens.
SmallVector<Value> MmaContractionKernel::copyAsync(const TileCopy &copy,
                                                   Value k0,
                                                   Value stageOffset) {
  Ix ix{rw, loc};
  SmallVector<Value> tokens;
  for (size_t i = 0; i < copy.kk.size(); ++i) {
    auto [ivs, inside] = copyPoint(copy, i, k0, /*masked=*/true);
    Value elements = rw.create<arith::SelectOp>(loc, inside, ix.c(chunk), zero);
    tokens.push_back(rw.create<nvgpu::DeviceAsyncCopyOp>(
        loc, nvgpu::DeviceAsyncTokenType::get(rw.getContext()), copy.flat,
        ValueRange{ix.add(copy.at[i], stageOffset)}, copy.global,
        ValueRange{chunkIndex(copy, ivs)}, rw.getIndexAttr(chunk), elements,
        rw.getUnitAttr()));
  }
  return tokens;
}

/// Stores what `fetch` loaded into the stage at `stageOffset` elements.
void MmaContractionKernel::put(const TileCopy &copy, ValueRange values,
                               Value stageOffset) {
  Ix ix{rw, loc};
  for (auto [value, at] : llvm::zip(values, copy.at)) {
    Value index = ix.add(at, stageOffset);
    if (chunk == 1)
      rw.create<memref::StoreOp>(loc, value, copy.flat, index);
    else
      rw.create<vector::StoreOp>(loc, value, copy.flat, index);
  }
}
