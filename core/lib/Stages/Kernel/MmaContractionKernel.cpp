//===- MmaContractionKernel.cpp - The tiled contraction on tensor cores ---===//
//
// A block of kMmaWarpsM x kMmaWarpsN subgroups computes a BM x BN tile of
// the output (of one batch element) from f16 or bf16 inputs into f32
// accumulators. Each subgroup owns a WM x WN part of the tile
// (WM = BM / kMmaWarpsM, WN = BN / kMmaWarpsN) as FM x FN fragments of
// `mma.sync.m16n8k16`, four accumulators of each in every lane
// (`nvgpu.mma.sync` on vector<2x2xf32>). K goes through workgroup memory BK
// at a time: the block's threads copy both operand tiles, each laid out as
// its operand lies in memory (MmaOperandTile: consecutive threads load and
// store consecutive elements), and each subgroup reads its fragments with
// `ldmatrix`, transposing where a tile is not K-contiguous. The next K tile
// is loaded into registers while the subgroups multiply the current one.
// K past its end reads as zeros, so every tile takes BK / 16 whole steps;
// rows and columns past M and N read clamped ones and feed outputs that are
// never stored. The outputs leave through workgroup memory, a row of
// fragments at a time, so that a subgroup stores consecutive columns.
//
//===----------------------------------------------------------------------===//

#include "ContractionBlocks.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace accy;
using namespace accy::kernel;

namespace {

/// The side of the 8x8 matrices `ldmatrix` reads, and the rows of a 16 x 8
/// accumulator fragment a lane holds two of (`g` and `g + 8`).
constexpr int64_t kMatrix = 8;

struct MmaContractionKernel {
  RewriterBase &rw;
  Location loc;
  linalg::LinalgOp op;
  const KernelPlan &plan;
  const DispatchShape &shape;
  int64_t bm, bn, bk, threads;
  int64_t wm = bm / kMmaWarpsM, wn = bn / kMmaWarpsN;
  int64_t fm = wm / kMmaShape[0], fn = wn / kMmaShape[1];

  // Set inside the launch.
  SmallVector<Value> sizes;
  std::optional<ContractionBlock> block;
  Value zero, workgroup;

  /// An operand tile in workgroup memory and what one thread copies of it
  /// per K tile: elements at K offset `kk[i]` of tile row `row[i]` (an M or
  /// N index), whose index in the operand is clamped into it (`outer[i]`).
  struct TileCopy {
    OpOperand *operand;
    bool isLhs;
    MmaOperandTile layout;
    SmallVector<Value> kk, outer;
    /// The tile of every stage as one dimension, a stage `stageElements`
    /// after the one before, and each element's index in a stage: one base
    /// and a constant apart (the stores' offsets are immediates, not an
    /// address register each).
    Value flat;
    int64_t stageElements;
    SmallVector<Value> at;
  };

  Type inputElement() { return elementOf(op->getOperand(shape.lhsInput)); }
  Value workgroupView(Ix &ix, int64_t offset, MemRefType type) {
    return rw.create<memref::ViewOp>(loc, type, workgroup, ix.c(offset),
                                     ValueRange{});
  }

  /// Consecutive threads take consecutive elements of the operand's
  /// innermost dimension (K, or the tile's rows), which are consecutive in
  /// the tile too.
  TileCopy planCopy(Ix &ix, Value tid, bool isLhs, int64_t offset) {
    int64_t side = isLhs ? bm : bn;
    OpOperand *operand =
        &op->getOpOperand(isLhs ? shape.lhsInput : shape.rhsInput);
    MmaOperandTile layout = getMmaOperandTile(op, shape, isLhs, side, bk);
    int64_t stageElements = layout.rows * layout.columns;
    TileCopy copy{operand, isLhs, layout};
    copy.stageElements = stageElements;
    copy.flat = workgroupView(
        ix, offset,
        workgroupBuffer({kMmaStages * stageElements}, inputElement()));
    // Thread `tid` takes column `first` of the tile's rows `next` + a
    // multiple of `step` (the tile's rows are M or N indices, or K).
    int64_t inner = layout.kContiguous ? bk : side, step = threads / inner;
    Value first = ix.rem(tid, ix.c(inner)), next = ix.div(tid, ix.c(inner));
    Value flatFirst = ix.add(ix.mul(next, layout.columns), first);
    Value size = sizes[isLhs ? shape.mDim : shape.nDim];
    Value last = ix.sub(size, ix.c(1));
    Value base = isLhs ? block->m0 : block->n0;
    for (int64_t i = 0; i < side * bk / threads; ++i) {
      Value across = ix.add(next, ix.c(i * step));
      Value kk = layout.kContiguous ? first : across;
      Value row = layout.kContiguous ? across : first;
      copy.kk.push_back(kk);
      copy.outer.push_back(ix.minU(ix.add(base, row), last));
      copy.at.push_back(ix.add(flatFirst, ix.c(i * step * layout.columns)));
    }
    return copy;
  }

  /// Loads this thread's elements of `copy` at K offset `k0`; with
  /// `masked`, those at K past its end are zeros (loaded at K - 1).
  SmallVector<Value> fetch(const TileCopy &copy, Value k0, bool masked) {
    SmallVector<Value> values;
    Ix ix{rw, loc};
    Value kSize = sizes[shape.kDim];
    for (auto [kk, outer] : llvm::zip(copy.kk, copy.outer)) {
      Value kv = ix.add(k0, kk);
      Value at = masked ? ix.minU(kv, ix.sub(kSize, ix.c(1))) : kv;
      Value value = loadOperand(rw, loc, op, copy.operand,
                                copy.isLhs ? block->ivsAt(outer, zero, at)
                                           : block->ivsAt(zero, outer, at));
      if (masked)
        value = rw.create<arith::SelectOp>(loc, ix.lt(kv, kSize), value,
                                           zeroOf(rw, loc, value.getType()));
      values.push_back(value);
    }
    return values;
  }

  /// Stores what `fetch` loaded into the stage at `stageOffset` elements.
  void put(const TileCopy &copy, ValueRange values, Value stageOffset) {
    Ix ix{rw, loc};
    for (auto [value, at] : llvm::zip(values, copy.at))
      rw.create<memref::StoreOp>(loc, value, copy.flat,
                                 ix.add(at, stageOffset));
  }

  FailureOr<Operation *> build();
};

FailureOr<Operation *> MmaContractionKernel::build() {
  OpOperand *output = op.getDpsInitOperand(0);
  unsigned m = shape.mDim, n = shape.nDim;
  int64_t workgroupBytes = getMmaWorkgroupBytes(op, shape, bm, bn, bk);
  Ix host{rw, loc};
  Value grid = contractionGrid(host, loopSizes(rw, loc, op), shape, bm, bn);
  gpu::LaunchOp launch = createLaunch(
      rw, loc, grid, plan.block,
      TypeRange{workgroupBuffer({workgroupBytes}, rw.getI8Type())});
  OpBuilder::InsertionGuard guard(rw);
  rw.setInsertionPoint(launch.getBody().front().getTerminator());
  Ix ix{rw, loc};
  workgroup = launch.getWorkgroupAttributions()[0];
  sizes = loopSizes(rw, loc, op);
  block.emplace(ix, op, shape, sizes, launch.getBlockIds().x, bm, bn);
  zero = block->zero;
  Value lane = launch.getThreadIds().x, warp = launch.getThreadIds().y;
  Value tid = ix.add(ix.mul(warp, plan.block[0]), lane);
  // The subgroup's part of the tile, and the lane's place in a fragment:
  // rows g and g + 8, columns 2t and 2t + 1 (the PTX ISA's layout).
  Value warpRow = ix.mul(ix.div(warp, ix.c(kMmaWarpsN)), wm);
  Value warpCol = ix.mul(ix.rem(warp, ix.c(kMmaWarpsN)), wn);
  Value g = ix.div(lane, ix.c(4)), t2 = ix.mul(ix.rem(lane, ix.c(4)), 2);

  // The accumulators start at the folded fill's value, or at the output's
  // contents (read at clamped points: those past the end are not stored).
  auto accType = VectorType::get({2, 2}, rw.getF32Type());
  Value lastM = ix.sub(sizes[m], ix.c(1)), lastN = ix.sub(sizes[n], ix.c(1));
  Value fill = !plan.initValues.empty() ? plan.initValues[0] : Value();
  SmallVector<Value> accs;
  for (int64_t i = 0; i < fm; ++i)
    for (int64_t j = 0; j < fn; ++j) {
      if (fill) {
        accs.push_back(rw.create<vector::BroadcastOp>(loc, accType, fill));
        continue;
      }
      Value acc =
          rw.create<arith::ConstantOp>(loc, accType, rw.getZeroAttr(accType));
      for (int64_t r = 0; r < 2; ++r)
        for (int64_t c = 0; c < 2; ++c) {
          Value row = ix.add(
              block->m0,
              ix.add(warpRow, ix.add(g, ix.c(i * kMmaShape[0] + r * kMatrix))));
          Value col =
              ix.add(block->n0,
                     ix.add(warpCol, ix.add(t2, ix.c(j * kMmaShape[1] + c))));
          Value value = loadOperand(
              rw, loc, op, output,
              block->ivsAt(ix.minU(row, lastM), ix.minU(col, lastN), zero));
          acc = rw.create<vector::InsertOp>(loc, value, acc,
                                            ArrayRef<int64_t>{r, c});
        }
      accs.push_back(acc);
    }

  TileCopy lhs = planCopy(ix, tid, true, 0);
  TileCopy rhs = planCopy(ix, tid, false, kMmaStages * lhs.stageElements * 2);
  SmallVector<Type> fetchedTypes(lhs.kk.size() + rhs.kk.size(), inputElement());
  auto fetchBoth = [&](Value k0, bool masked) {
    SmallVector<Value> values = fetch(lhs, k0, masked);
    llvm::append_range(values, fetch(rhs, k0, masked));
    return values;
  };
  // The K tile at `k0`, masked where it passes K (a branch all threads
  // take alike); K must not be empty.
  Value kSize = sizes[shape.kDim];
  auto fetchTile = [&](Value k0) {
    Ix in{rw, loc};
    return uniformBranch(
        rw, loc, fetchedTypes, in.lt(kSize, in.add(k0, in.c(bk))),
        [&] { return fetchBoth(k0, true); },
        [&] { return fetchBoth(k0, false); });
  };
  SmallVector<Value> first = uniformBranch(
      rw, loc, fetchedTypes, ix.lt(zero, kSize),
      [&] { return fetchTile(zero); },
      [&] {
        SmallVector<Value> zeros;
        for (Type type : fetchedTypes)
          zeros.push_back(zeroOf(rw, loc, type));
        return zeros;
      });

  // Each lane's row of the 8x8 matrices ldmatrix reads: lanes 8i to 8i + 7
  // address the rows of matrix i. An A fragment's four matrices are its
  // (rows, K) quarters (0-7, 0-7), (8-15, 0-7), (0-7, 8-15), (8-15, 8-15);
  // a pair of B fragments' are (n-tile j, K 0-7), (j, 8-15), (j + 1, 0-7),
  // (j + 1, 8-15). A tile that is not K-contiguous holds them transposed.
  // Each lane's row is at one index of the flat tile per operand, plus a
  // constant per fragment and step (an immediate offset, not an address
  // register each).
  Value l8 = ix.rem(lane, ix.c(kMatrix));
  Value mid = ix.mul(ix.rem(ix.div(lane, ix.c(kMatrix)), ix.c(2)), kMatrix);
  Value hi = ix.mul(ix.div(lane, ix.c(2 * kMatrix)), kMatrix);
  Value l16 = ix.rem(lane, ix.c(2 * kMatrix));
  auto flatIndex = [&](const TileCopy &copy, Value row, Value column) {
    return ix.add(ix.mul(row, copy.layout.columns), column);
  };
  Value aRows = lhs.layout.kContiguous
                    ? flatIndex(lhs, ix.add(warpRow, l16), hi)
                    : flatIndex(lhs, ix.add(hi, l8), ix.add(warpRow, mid));
  // B's lanes 16-31 address the second fragment of a pair (`pair`).
  auto bRowsWith = [&](Value pair) {
    Value cols = ix.add(warpCol, pair);
    return rhs.layout.kContiguous ? flatIndex(rhs, ix.add(cols, l8), mid)
                                  : flatIndex(rhs, ix.add(mid, l8), cols);
  };
  Value bRows = bRowsWith(hi), bRowsLast = fn % 2 ? bRowsWith(zero) : Value();
  // The matrices of the fragment at tile row (or column) `outer`, K `k`;
  // `rows` includes the stage's offset.
  auto loadAt = [&](const TileCopy &copy, Value rows, int64_t outer, int64_t k,
                    int64_t tiles) {
    int64_t columns = copy.layout.columns;
    int64_t offset =
        copy.layout.kContiguous ? outer * columns + k : k * columns + outer;
    Ix at{rw, loc};
    auto type = VectorType::get({tiles, 2}, inputElement());
    return rw.create<nvgpu::LdMatrixOp>(
        loc, type, copy.flat, ValueRange{at.add(rows, at.c(offset))},
        !copy.layout.kContiguous, static_cast<uint32_t>(tiles));
  };
  // One step of 16 K at tile offset `kBase` of the stage at `aStage` and
  // `bStage` elements: every fragment's mma.sync.
  auto step = [&](int64_t kBase, Value aStage, Value bStage,
                  ArrayRef<Value> in) {
    Ix at{rw, loc};
    SmallVector<Value> a;
    for (int64_t i = 0; i < fm; ++i)
      a.push_back(
          loadAt(lhs, at.add(aRows, aStage), i * kMmaShape[0], kBase, 4));
    SmallVector<Value> b;
    for (int64_t j = 0; j < fn; j += 2) {
      // Two fragments from four matrices, or the last from two.
      int64_t tiles = j + 1 < fn ? 4 : 2;
      Value matrices =
          loadAt(rhs, at.add(tiles == 4 ? bRows : bRowsLast, bStage),
                 j * kMmaShape[1], kBase, tiles);
      for (int64_t f = 0; f < tiles / 2; ++f)
        b.push_back(rw.create<vector::ExtractStridedSliceOp>(
            loc, matrices, ArrayRef<int64_t>{2 * f, 0}, ArrayRef<int64_t>{2, 2},
            ArrayRef<int64_t>{1, 1}));
    }
    SmallVector<Value> out;
    for (int64_t i = 0; i < fm; ++i)
      for (int64_t j = 0; j < fn; ++j)
        out.push_back(rw.create<nvgpu::MmaSyncOp>(
            loc, a[i], b[j], in[i * fn + j], ArrayRef<int64_t>(kMmaShape)));
    return out;
  };

  // The first K tile goes to stage 0. Every K tile: load the next tile's
  // elements (in flight during the steps), multiply the stage of this one,
  // store the next into the other stage; one barrier, after which every
  // subgroup may read the next stage and none reads this one any more.
  // The fetch after the last tile loads clamped elements that are never
  // used.
  put(lhs, ValueRange(first).take_front(lhs.kk.size()), zero);
  put(rhs, ValueRange(first).drop_front(lhs.kk.size()), zero);
  rw.create<gpu::BarrierOp>(loc);
  Value tiles = ix.ceilDiv(kSize, bk);
  auto loop = rw.create<scf::ForOp>(loc, zero, tiles, ix.c(1), accs);
  {
    OpBuilder::InsertionGuard loopGuard(rw);
    rw.setInsertionPointToStart(loop.getBody());
    Ix in{rw, loc};
    Value t = loop.getInductionVar();
    Value stage = in.rem(t, in.c(kMmaStages));
    Value nextStage = in.rem(in.add(t, in.c(1)), in.c(kMmaStages));
    SmallVector<Value> next = fetchTile(in.mul(in.add(t, in.c(1)), bk));
    SmallVector<Value> out(loop.getRegionIterArgs());
    for (int64_t kBase = 0; kBase < bk; kBase += kMmaShape[2])
      out = step(kBase, in.mul(stage, lhs.stageElements),
                 in.mul(stage, rhs.stageElements), out);
    put(lhs, ValueRange(next).take_front(lhs.kk.size()),
        in.mul(nextStage, lhs.stageElements));
    put(rhs, ValueRange(next).drop_front(lhs.kk.size()),
        in.mul(nextStage, rhs.stageElements));
    rw.create<gpu::BarrierOp>(loc);
    rw.create<scf::YieldOp>(loc, out);
  }

  // The outputs leave a row of fragments (i, half h) at a time: each lane
  // puts its accumulators of rows g + 8h into staging row 8 (subgroup row)
  // + g, then the block's threads take the staged 16 x BN values,
  // consecutive threads consecutive columns; each output in bounds is
  // stored, then the epilogues run at its point. The loop's last barrier
  // leaves the operand tiles' bytes free.
  Value stage = workgroupView(
      ix, 0,
      workgroupBuffer({kMmaStagingRows, bn + kMmaStagingPad}, rw.getF32Type()));
  Value stageRow = ix.add(ix.div(warpRow, ix.c(wm / kMatrix)), g);
  Value stageCol = ix.add(warpCol, t2);
  Value firstRow = ix.div(tid, ix.c(bn)), stagedCol = ix.rem(tid, ix.c(bn));
  for (int64_t i = 0; i < fm; ++i)
    for (int64_t h = 0; h < 2; ++h) {
      if (i || h)
        rw.create<gpu::BarrierOp>(loc);
      for (int64_t j = 0; j < fn; ++j)
        for (int64_t c = 0; c < 2; ++c) {
          Value value = rw.create<vector::ExtractOp>(
              loc, loop.getResult(i * fn + j), ArrayRef<int64_t>{h, c});
          rw.create<memref::StoreOp>(
              loc, value, stage,
              ValueRange{stageRow,
                         ix.add(stageCol, ix.c(j * kMmaShape[1] + c))});
        }
      rw.create<gpu::BarrierOp>(loc);
      for (int64_t q = 0; q < kMmaStagingRows * bn / threads; ++q) {
        Value stagedRow = ix.add(firstRow, ix.c(q * (threads / bn)));
        // Staging row r is row r % 8 of subgroup row r / 8's fragment rows.
        Value row = ix.add(
            block->m0, ix.add(ix.mul(ix.div(stagedRow, ix.c(kMatrix)), wm),
                              ix.add(ix.rem(stagedRow, ix.c(kMatrix)),
                                     ix.c(i * kMmaShape[0] + h * kMatrix))));
        Value col = ix.add(block->n0, stagedCol);
        Value value = rw.create<memref::LoadOp>(
            loc, stage, ValueRange{stagedRow, stagedCol});
        auto store = rw.create<scf::IfOp>(
            loc, ix.both(ix.lt(row, sizes[m]), ix.lt(col, sizes[n])),
            /*withElseRegion=*/false);
        OpBuilder::InsertionGuard storeGuard(rw);
        rw.setInsertionPointToStart(store.thenBlock());
        storeResult(rw, loc, op, output, value, block->ivsAt(row, col, zero),
                    plan);
      }
    }
  return launch.getOperation();
}

} // namespace

FailureOr<Operation *> accy::kernel::buildMmaContractionKernel(
    RewriterBase &rewriter, linalg::LinalgOp op, const KernelPlan &plan,
    const DispatchShape &shape) {
  Type a = elementOf(op->getOperand(shape.lhsInput));
  Type b = elementOf(op->getOperand(shape.rhsInput));
  if (a != b || !(a.isF16() || a.isBF16()) ||
      !elementOf(op.getDpsInits()[0]).isF32())
    return op.emitError("a tensor-core contraction needs f16 or bf16 inputs "
                        "of one type and an f32 accumulator");
  const int64_t block[] = {32, kMmaWarpsM * kMmaWarpsN, 1};
  if (ArrayRef<int64_t>(plan.mma) != ArrayRef<int64_t>(kMmaShape) ||
      plan.tile.size() != 3 ||
      ArrayRef<int64_t>(plan.block) != ArrayRef<int64_t>(block))
    return op.emitError() << "a tensor-core contraction plan needs mma = [16, "
                             "8, 16], tile = [BM, BN, BK] and block = [32, "
                          << kMmaWarpsM * kMmaWarpsN << ", 1]";
  int64_t bm = plan.tile[0], bn = plan.tile[1], bk = plan.tile[2];
  int64_t threads = plan.block[0] * plan.block[1];
  // Whole fragments per subgroup; each thread copies whole elements of
  // both tiles along their operands' innermost dimension, and takes whole
  // staged values.
  if (bm % (kMmaWarpsM * kMmaShape[0]) || bn % (kMmaWarpsN * kMmaShape[1]) ||
      bk % kMmaShape[2] || threads % bm || threads % bn || threads % bk ||
      (bm * bk) % threads || (bn * bk) % threads ||
      (kMmaStagingRows * bn) % threads)
    return op.emitError() << "tensor-core tiles of " << bm << "x" << bk
                          << " and " << bk << "x" << bn
                          << " do not split into whole fragments and copies "
                             "among "
                          << threads << " threads";
  MmaContractionKernel kernel{rewriter, op.getLoc(), op, plan,   shape,
                              bm,       bn,          bk, threads};
  return kernel.build();
}
