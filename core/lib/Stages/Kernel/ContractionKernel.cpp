//===- ContractionKernel.cpp - The tiled-contraction schedule -------------===//
//
// A block computes a BM x BN tile of the output (of one batch element); each
// of its threads computes a TM x TN micro-tile whose accumulators live in
// registers (scf.for iter_args, through a loop over the BK steps). K goes
// through workgroup memory BK at a time: all threads copy the A and the B
// tile cooperatively, both stored K-major (`[BK][BM or BN + pad]`), so a
// step of the reduction reads TM values of A and TN of B as runs of
// consecutive elements and does TM x TN fused multiply-adds. The elements
// of the next K tile are loaded into registers before the steps on the
// current one, so that their latency overlaps the arithmetic.
//
//===----------------------------------------------------------------------===//

#include "ContractionBlocks.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace accy;
using namespace accy::kernel;

namespace {

/// Consecutive threads that store consecutive outputs: 128 bytes of f32, a
/// warp's request on NVIDIA, half a wavefront's on AMD.
constexpr int64_t kStoreLanes = 32;

/// How many of a thread's `micro` rows or columns lie next to each other.
int64_t microRun(int64_t micro) {
  return micro % 4 == 0 ? 4 : micro % 2 == 0 ? 2 : 1;
}

/// The offset in its block's tile (of side `side`) of the i-th of the
/// `micro` rows or columns of the thread at `coord` along that side. They
/// come in runs of up to four consecutive ones, run r of every thread at
/// `r * side / runs`: the threads of a subgroup then read one run each
/// from consecutive addresses of workgroup memory (128-bit reads without
/// bank conflicts).
Value microOffset(Ix &ix, Value coord, int64_t i, int64_t micro, int64_t side) {
  int64_t run = microRun(micro), runs = micro / run;
  return ix.add(ix.mul(coord, run), ix.c(i / run * (side / runs) + i % run));
}

/// The same for `i` known only at run time.
Value microOffset(Ix &ix, Value coord, Value i, int64_t micro, int64_t side) {
  int64_t run = microRun(micro), runs = micro / run;
  Value inRun = run == 1 ? ix.c(0) : ix.rem(i, ix.c(run));
  return ix.add(ix.mul(coord, run),
                ix.add(ix.mul(ix.div(i, ix.c(run)), side / runs), inRun));
}

SmallVector<Value> microOffsets(Ix &ix, Value coord, int64_t micro,
                                int64_t side) {
  SmallVector<Value> offsets;
  for (int64_t i = 0; i < micro; ++i)
    offsets.push_back(microOffset(ix, coord, i, micro, side));
  return offsets;
}

/// Marks the payload's last op and the ops of its operands `contract`
/// where they take fast-math flags, so that the backends fuse the multiply
/// and the accumulating add into one FMA (one rounding instead of two), as
/// SGEMM does. Without it NVPTX emits `mul.rn` and `add.rn`, which ptxas
/// must not fuse: twice the instructions.
void allowContraction(Value result) {
  Operation *last = result.getDefiningOp();
  if (!last)
    return;
  SmallVector<Operation *> ops{last};
  for (Value operand : last->getOperands())
    if (Operation *def = operand.getDefiningOp())
      ops.push_back(def);
  for (Operation *candidate : ops)
    if (auto fastMath = dyn_cast<arith::ArithFastMathInterface>(candidate))
      candidate->setAttr(fastMath.getFastMathAttrName(),
                         arith::FastMathFlagsAttr::get(
                             candidate->getContext(),
                             fastMath.getFastMathFlagsAttr().getValue() |
                                 arith::FastMathFlags::contract));
}

struct ContractionKernel {
  RewriterBase &rw;
  Location loc;
  linalg::LinalgOp op;
  const KernelPlan &plan;
  const DispatchShape &shape;
  int64_t bm, bn, bk, tm, tn, threads;

  // Set inside the launch.
  SmallVector<Value> sizes;
  std::optional<ContractionBlock> block;
  Value zero;

  SmallVector<Value> ivsAt(Value mv, Value nv, Value kv) {
    return block->ivsAt(mv, nv, kv);
  }

  /// What one thread copies of an operand tile (`side` x BK) per step:
  /// elements at (K offset `kk`, row `row` of the tile: one M or N index).
  /// The operand's M (or N) index of a row is clamped into it (`outer`),
  /// once, so that edge tiles read without conditions (rows and columns
  /// past the end feed outputs that are never stored).
  struct TileElement {
    Value kk, row, outer;
  };
  struct TileCopy {
    OpOperand *operand;
    Value tile;
    bool isLhs;
    SmallVector<TileElement> elements;
  };

  /// Consecutive threads take elements consecutive in the operand's memory,
  /// so that a warp's load touches as few sectors as it can. When K indexes
  /// the operand's innermost dimension, BK consecutive threads take one
  /// row's BK elements (a warp reads 32 / BK whole runs of K) and each
  /// thread takes rows `threads / BK` apart; otherwise each thread one row
  /// (column) of the tile, K offsets `threads / side` apart, one clamp per
  /// thread.
  TileCopy planCopy(Ix &ix, Value tid, Value base, OpOperand *operand,
                    Value tile, bool isLhs) {
    int64_t side = isLhs ? bm : bn;
    int64_t count = side * bk / threads;
    Value size = sizes[isLhs ? shape.mDim : shape.nDim];
    Value last = ix.sub(size, ix.c(1));
    AffineMap map = op.getMatchingIndexingMap(operand);
    bool kInnermost = map.getResults().back() ==
                      getAffineDimExpr(shape.kDim, op.getContext());
    TileCopy copy{operand, tile, isLhs, {}};
    if (kInnermost && threads % bk == 0) {
      Value kk = ix.rem(tid, ix.c(bk)), r0 = ix.div(tid, ix.c(bk));
      for (int64_t i = 0; i < count; ++i) {
        Value row = ix.add(r0, ix.c(i * (threads / bk)));
        copy.elements.push_back({kk, row, ix.minU(ix.add(base, row), last)});
      }
      return copy;
    }
    int64_t perRow = threads / side;
    Value row =
        kInnermost ? ix.div(tid, ix.c(perRow)) : ix.rem(tid, ix.c(side));
    Value k0 = kInnermost ? ix.mul(ix.rem(tid, ix.c(perRow)), count)
                          : ix.div(tid, ix.c(side));
    Value outer = ix.minU(ix.add(base, row), last);
    for (int64_t i = 0; i < count; ++i)
      copy.elements.push_back(
          {ix.add(k0, ix.c(kInnermost ? i : i * perRow)), row, outer});
    return copy;
  }

  /// Loads this thread's elements of the tile of `copy` at K offset `k0`;
  /// with `kLast`, K indices are clamped to it (the last, partial tile and
  /// the prefetch after it: such elements are never used).
  SmallVector<Value> fetch(const TileCopy &copy, Value k0, Value kLast) {
    SmallVector<Value> values;
    for (const TileElement &e : copy.elements) {
      Ix ix{rw, loc};
      Value kv = ix.add(k0, e.kk);
      if (kLast)
        kv = ix.minU(kv, kLast);
      values.push_back(loadOperand(rw, loc, op, copy.operand,
                                   copy.isLhs ? ivsAt(e.outer, zero, kv)
                                              : ivsAt(zero, e.outer, kv)));
    }
    return values;
  }

  /// Stores what `fetch` loaded into the tile in workgroup memory.
  void put(const TileCopy &copy, ValueRange values) {
    for (auto [value, e] : llvm::zip(values, copy.elements))
      rw.create<memref::StoreOp>(loc, value, copy.tile,
                                 ValueRange{e.kk, e.row});
  }

  /// One step of the reduction at K offset `kk` of the staged tiles (global
  /// K index `kv`): every accumulator takes one payload.
  SmallVector<Value> step(const TileCopy &lhs, const TileCopy &rhs,
                          ArrayRef<Value> rowOffsets, ArrayRef<Value> rows,
                          ArrayRef<Value> colOffsets, ArrayRef<Value> cols,
                          Value kk, Value kv, ValueRange accs) {
    SmallVector<Value> a, b;
    for (Value r : rowOffsets)
      a.push_back(rw.create<memref::LoadOp>(loc, lhs.tile, ValueRange{kk, r}));
    for (Value c : colOffsets)
      b.push_back(rw.create<memref::LoadOp>(loc, rhs.tile, ValueRange{kk, c}));
    SmallVector<Value> next;
    unsigned out = op.getDpsInitOperand(0)->getOperandNumber();
    for (int64_t i = 0; i < tm; ++i)
      for (int64_t j = 0; j < tn; ++j) {
        SmallVector<Value> args(op->getNumOperands());
        args[shape.lhsInput] = a[i];
        args[shape.rhsInput] = b[j];
        args[out] = accs[i * tn + j];
        Value value = emitPayload(rw, op, ivsAt(rows[i], cols[j], kv), args)[0];
        allowContraction(value);
        next.push_back(value);
      }
    return next;
  }

  /// Workgroup memory holds the two operand tiles during the K loop, then
  /// the outputs' staging rows in the same bytes.
  MemRefType lhsTile() {
    return workgroupBuffer({bk, bm + kContractionTilePad},
                           elementOf(op->getOperand(shape.lhsInput)));
  }
  MemRefType rhsTile() {
    return workgroupBuffer({bk, bn + kContractionTilePad},
                           elementOf(op->getOperand(shape.rhsInput)));
  }
  /// A row of every thread's micro-tile, with a column more than the tile
  /// (kContractionStagingPad) so that the puts stay scalar: the AMDGPU backend
  /// merged four into a 128-bit LDS store, which wants four accumulators in
  /// consecutive registers, and its register allocator paid for that with
  /// copies (`mlp_k0` on gfx942: 162 -> 218 VGPRs, three waves a SIMD to
  /// two). NVPTX's registers are the same either way.
  MemRefType stagingRows() {
    return workgroupBuffer({plan.block[1], bn + kContractionStagingPad},
                           elementOf(op.getDpsInitOperand(0)->get()));
  }
  int64_t workgroupBytes() {
    auto bytes = [](MemRefType type) {
      return type.getNumElements() * storedBytes(type.getElementType());
    };
    return std::max(bytes(lhsTile()) + bytes(rhsTile()), bytes(stagingRows()));
  }

  FailureOr<Operation *> build();
};

FailureOr<Operation *> ContractionKernel::build() {
  OpOperand *lhs = &op->getOpOperand(shape.lhsInput);
  OpOperand *rhs = &op->getOpOperand(shape.rhsInput);
  OpOperand *output = op.getDpsInitOperand(0);
  unsigned m = shape.mDim, n = shape.nDim, k = shape.kDim;

  OpBuilder::InsertionGuard guard(rw);
  gpu::LaunchOp launch = enterContractionLaunch(rw, loc, op, shape, plan.block,
                                                bm, bn, workgroupBytes());
  Ix ix{rw, loc};
  block.emplace(ix, op, shape, launch, bm, bn);
  sizes = block->sizes;
  zero = block->zero;
  Value m0 = block->m0, n0 = block->n0;
  Value tx = launch.getThreadIds().x, ty = launch.getThreadIds().y;
  Value tid = ix.add(ix.mul(ty, plan.block[0]), tx);

  SmallVector<Value> rowOffsets = microOffsets(ix, ty, tm, bm);
  SmallVector<Value> colOffsets = microOffsets(ix, tx, tn, bn);
  SmallVector<Value> rows, cols;
  for (Value r : rowOffsets)
    rows.push_back(ix.add(m0, r));
  for (Value c : colOffsets)
    cols.push_back(ix.add(n0, c));

  // The accumulators start at the folded fill's value, or at the output's
  // contents (read at clamped points: those past the end are not stored).
  SmallVector<Value> init;
  Value lastM = ix.sub(sizes[m], ix.c(1)), lastN = ix.sub(sizes[n], ix.c(1));
  for (Value row : rows)
    for (Value col : cols)
      init.push_back(!plan.initValues.empty() && plan.initValues[0]
                         ? plan.initValues[0]
                         : loadOperand(rw, loc, op, output,
                                       ivsAt(ix.minU(row, lastM),
                                             ix.minU(col, lastN), zero)));

  TileCopy lhsCopy =
      planCopy(ix, tid, m0, lhs, block->view(ix, 0, lhsTile()), true);
  TileCopy rhsCopy =
      planCopy(ix, tid, n0, rhs,
               block->view(ix,
                           lhsTile().getNumElements() *
                               storedBytes(lhsTile().getElementType()),
                           rhsTile()),
               false);
  auto stepAt = [&](Value kk, Value kv, ValueRange accs) {
    return step(lhsCopy, rhsCopy, rowOffsets, rows, colOffsets, cols, kk, kv,
                accs);
  };

  // The elements of the first K tile, in registers; none when K is empty.
  Value kSize = sizes[k];
  Value kLast = ix.sub(kSize, ix.c(1));
  size_t lhsCount = lhsCopy.elements.size();
  auto fetchBoth = [&](Value k0, Value clampTo) {
    SmallVector<Value> values = fetch(lhsCopy, k0, clampTo);
    llvm::append_range(values, fetch(rhsCopy, k0, clampTo));
    return values;
  };
  auto putBoth = [&](ValueRange values) {
    put(lhsCopy, values.take_front(lhsCount));
    put(rhsCopy, values.drop_front(lhsCount));
  };
  SmallVector<Type> fetchedTypes;
  for (const TileCopy *copy : {&lhsCopy, &rhsCopy})
    fetchedTypes.append(copy->elements.size(), elementOf(copy->operand->get()));
  // The elements `ifTrue` or `ifFalse` fetch (a branch all threads take).
  auto fetchEither = [&](Value condition,
                         function_ref<SmallVector<Value>()> ifTrue,
                         function_ref<SmallVector<Value>()> ifFalse) {
    return uniformBranch(rw, loc, fetchedTypes, condition, ifTrue, ifFalse);
  };
  SmallVector<Value> first = fetchEither(
      ix.lt(zero, kSize), [&] { return fetchBoth(zero, kLast); },
      [&] {
        SmallVector<Value> zeros;
        for (Type type : fetchedTypes)
          zeros.push_back(zeroOf(rw, loc, type));
        return zeros;
      });

  // Steps kk in [0, count) of the staged tiles, at K offset `from` + kk,
  // as a loop carrying the accumulators.
  auto stepLoop = [&](Value from, Value count, ValueRange accs) {
    auto steps = rw.create<scf::ForOp>(loc, zero, count, ix.c(1), accs);
    OpBuilder::InsertionGuard stepGuard(rw);
    rw.setInsertionPointToStart(steps.getBody());
    Value kk = steps.getInductionVar();
    rw.create<scf::YieldOp>(
        loc, stepAt(kk, Ix{rw, loc}.add(from, kk), steps.getRegionIterArgs()));
    return SmallVector<Value>(steps.getResults());
  };

  // The K tiles: each stores the elements fetched before it, loads the
  // next tile's (the loads in flight during the BK steps), then computes
  // its steps, BK of them or, in the last tile when BK does not divide K,
  // those to K. Only the fetch of a tile that passes K clamps K. One loop
  // for the whole tiles and the partial one: a loop of its own for the
  // partial tile repeated the TM x TN payloads of a step (9% of a fused
  // contraction's PTX).
  Value kWhole = ix.mul(ix.div(kSize, ix.c(bk)), bk);
  // A static K that BK divides has whole tiles only.
  int64_t staticK = op.getStaticLoopRanges()[k];
  bool wholeTilesOnly = !ShapedType::isDynamic(staticK) && staticK % bk == 0;
  SmallVector<Value> carried(init);
  llvm::append_range(carried, first);
  auto tiles = rw.create<scf::ForOp>(loc, zero, kSize, ix.c(bk), carried);
  size_t accCount = init.size();
  {
    OpBuilder::InsertionGuard loopGuard(rw);
    rw.setInsertionPointToStart(tiles.getBody());
    Value k0 = tiles.getInductionVar();
    ValueRange iterArgs = tiles.getRegionIterArgs();
    putBoth(iterArgs.drop_front(accCount));
    rw.create<gpu::BarrierOp>(loc);
    Ix in{rw, loc};
    Value kNext = in.add(k0, in.c(bk));
    SmallVector<Value> next = fetchEither(
        in.lt(kNext, kWhole), [&] { return fetchBoth(kNext, Value()); },
        [&] { return fetchBoth(kNext, kLast); });
    // The BK steps stay a loop: unrolled, they made the kernel stage's IR
    // (and every product after it) several times larger, for a choice
    // LLVM's unroller makes as well.
    Value steps =
        wholeTilesOnly ? in.c(bk) : in.minU(in.c(bk), in.sub(kSize, k0));
    SmallVector<Value> accs =
        stepLoop(k0, steps, iterArgs.take_front(accCount));
    rw.create<gpu::BarrierOp>(loc);
    llvm::append_range(accs, next);
    rw.create<scf::YieldOp>(loc, accs);
  }
  ValueRange accumulated = tiles.getResults().take_front(accCount);

  // The outputs leave through workgroup memory, one row of the micro-tiles
  // at a time: each thread puts its TN accumulators of row i at
  // `stage[ty][column]`, then takes TN staged elements so that a subgroup's
  // stores (and an epilogue's loads at the same points) cover whole
  // sectors: `lanes` consecutive threads take consecutive columns of one
  // staged row, and a thread its columns `lanes` apart in as few rows as
  // it can (each row is a 64-bit multiply for its address). Stored from
  // the micro-tiles, a warp's lanes wrote outputs four apart: 16 sectors a
  // request, a quarter of their bytes used.
  // Each output in bounds is stored, then the epilogues run at its point.
  // The rows are a loop, whose puts take row i's accumulators from a switch
  // on i: unrolled, the TN epilogues came TM times over, and a fused
  // activation made the kernel several times larger (and slower to
  // compile) for the few instructions a row the loop costs.
  Value stage = block->view(ix, 0, stagingRows());
  int64_t lanes = std::min<int64_t>(bn, kStoreLanes), chunks = bn / lanes;
  Value lane = ix.rem(tid, ix.c(lanes));
  Value firstStagedRow = ix.mul(ix.div(tid, ix.c(lanes)), tn / chunks);
  auto outputRows = rw.create<scf::ForOp>(loc, zero, ix.c(tm), ix.c(1));
  OpBuilder::InsertionGuard rowsGuard(rw);
  rw.setInsertionPointToStart(outputRows.getBody());
  Ix in{rw, loc};
  Value i = outputRows.getInductionVar();
  // The puts wait until the K loop's tiles, or the previous row's values,
  // are no longer read.
  rw.create<gpu::BarrierOp>(loc);
  SmallVector<int64_t> rowCases =
      llvm::to_vector(llvm::seq<int64_t>(0, tm - 1));
  auto puts = rw.create<scf::IndexSwitchOp>(loc, TypeRange(), i, rowCases,
                                            rowCases.size());
  for (int64_t r = 0; r < tm; ++r) {
    // Row tm - 1 is the default case.
    Region &region =
        r + 1 < tm ? puts.getCaseRegions()[r] : puts.getDefaultRegion();
    OpBuilder::InsertionGuard caseGuard(rw);
    rw.setInsertionPointToStart(&region.emplaceBlock());
    for (auto [j, c] : llvm::enumerate(colOffsets))
      rw.create<memref::StoreOp>(loc, accumulated[r * tn + j], stage,
                                 ValueRange{ty, c});
    rw.create<scf::YieldOp>(loc);
  }
  rw.create<gpu::BarrierOp>(loc);
  for (int64_t q = 0; q < tn; ++q) {
    Value stagedRow = in.add(firstStagedRow, in.c(q / chunks));
    Value stagedCol = in.add(lane, in.c(q % chunks * lanes));
    Value row = in.add(m0, microOffset(in, stagedRow, i, tm, bm));
    Value col = in.add(n0, stagedCol);
    // Read before the check: within the staging rows whatever the
    // bounds, and the check's block keeps only the epilogue's and the
    // store's address arithmetic, which speculative execution then moves
    // out of it (docs/internals.md, "The LLVM pipeline").
    Value value =
        rw.create<memref::LoadOp>(loc, stage, ValueRange{stagedRow, stagedCol});
    block->storeOutput(in, row, col, value, plan);
  }
  return launch.getOperation();
}

} // namespace

FailureOr<Operation *> accy::kernel::buildContractionKernel(
    RewriterBase &rewriter, linalg::LinalgOp op, const KernelPlan &plan,
    const DispatchShape &shape) {
  // tile = [BM, BN, BK], block = [BN / TN, BM / TM, 1]: each thread a
  // TM x TN micro-tile, and the block's threads copy whole tiles.
  if (plan.tile.size() != 3 || plan.block.size() != 3 || plan.block[2] != 1 ||
      plan.block[0] <= 0 || plan.block[1] <= 0 || plan.tile[2] <= 0 ||
      plan.tile[0] % plan.block[1] != 0 || plan.tile[1] % plan.block[0] != 0)
    return op.emitError("tiled-contraction plan needs tile = [BM, BN, BK] "
                        "and block = [BN / TN, BM / TM, 1]");
  int64_t bm = plan.tile[0], bn = plan.tile[1], bk = plan.tile[2];
  int64_t threads = plan.block[0] * plan.block[1];
  // Each thread copies elements of one row of each operand tile, and
  // stores TN outputs in TN * lanes / BN rows (kStoreLanes).
  if (threads % bm != 0 || threads % bn != 0 || (bm * bk) % threads != 0 ||
      (bn * bk) % threads != 0 ||
      std::min<int64_t>(bn, kStoreLanes) % plan.block[0] != 0)
    return op.emitError() << "tiled-contraction tiles of " << bm << "x" << bk
                          << " and " << bk << "x" << bn
                          << " do not split into rows of whole elements "
                             "among "
                          << threads << " threads";
  ContractionKernel kernel{
      rewriter,           op.getLoc(),        op,     plan, shape, bm, bn, bk,
      bm / plan.block[1], bn / plan.block[0], threads};
  return kernel.build();
}
