//===- MmaContractionKernel.cpp - The tiled contraction on tensor cores ---===//
//
// A block of warpsM x warpsN subgroups computes a BM x BN tile of the
// output (of one batch element) from f16 or bf16 inputs into f32
// accumulators. Each subgroup owns a WM x WN part of the tile
// (WM = BM / warpsM, WN = BN / warpsN) as FM x FN fragments of the
// target's matrix instruction (MmaInstruction), four accumulators of each
// in every lane: NVIDIA's `mma.sync.m16n8k16` (`nvgpu.mma.sync`, fragments
// read with `ldmatrix`, transposed where a tile is not K-contiguous) or
// AMD's `v_mfma_f32_16x16x16` (`amdgpu.mfma`, each lane reading its four
// K of a row or column). K goes through workgroup memory BK at a time, in
// two stages: the block's threads copy both operand tiles, each laid out
// as its operand lies in memory (MmaOperandTile: consecutive threads load
// and store consecutive elements), loading the next K tile into registers
// while the subgroups multiply the current one. K past its end reads as
// zeros, so every tile takes BK / 16 whole steps; rows and columns past M
// and N read clamped ones and feed outputs that are never stored. The
// outputs leave through workgroup memory, a few rows of fragments at a
// time, so that a subgroup stores consecutive columns.
//
//===----------------------------------------------------------------------===//

#include "MmaContractionKernel.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace accy;
using namespace accy::kernel;

SmallVector<Value> MmaContractionKernel::initialAccumulators() {
  // The folded fill's value, or the output's contents (read at clamped
  // points: those past the end are not stored).
  Ix ix{rw, loc};
  VectorType accType = accumulatorType();
  Value lastM = ix.sub(sizes[shape.mDim], ix.c(1));
  Value lastN = ix.sub(sizes[shape.nDim], ix.c(1));
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
      for (int64_t e = 0; e < 4; ++e) {
        Value row = ix.add(
            block->m0, ix.add(warpRow, ix.add(accRows, ix.c(i * inst.shape[0] +
                                                            accRow(e)))));
        Value col = ix.add(
            block->n0,
            ix.add(warpCol,
                   ix.add(accColumns, ix.c(j * inst.shape[1] + accColumn(e)))));
        Value value = loadOperand(
            rw, loc, op, op.getDpsInitOperand(0),
            block->ivsAt(ix.minU(row, lastM), ix.minU(col, lastN), zero));
        acc = rw.create<vector::InsertOp>(loc, value, acc, accPosition(e));
      }
      accs.push_back(acc);
    }
  return accs;
}

void MmaContractionKernel::prepareFragments(const TileCopy &lhs,
                                            const TileCopy &rhs) {
  Ix ix{rw, loc};
  auto flatIndex = [&](const TileCopy &copy, Value row, Value column) {
    return ix.add(ix.mul(row, copy.layout.columns), column);
  };
  // The lane's row (or column) of a fragment at `outer` and its first K
  // at `k`, as (tile row, tile column) of a K-contiguous tile or the
  // transpose.
  auto at = [&](const TileCopy &copy, Value outer, Value k) {
    return copy.layout.kContiguous ? flatIndex(copy, outer, k)
                                   : flatIndex(copy, k, outer);
  };
  if (isMfma()) {
    // Lane l reads row (A) or column (B) l % 16 of a fragment at K
    // 4 (l / 16) to + 3.
    Value l16 = ix.rem(lane, ix.c(16));
    Value k4 = ix.mul(ix.div(lane, ix.c(16)), kMfmaRun);
    aRows = at(lhs, ix.add(warpRow, l16), k4);
    bRows = at(rhs, ix.add(warpCol, l16), k4);
    return;
  }
  // ldmatrix: lanes 8i to 8i + 7 address the rows of matrix i. An A
  // fragment's four matrices are its (rows, K) quarters (0-7, 0-7),
  // (8-15, 0-7), (0-7, 8-15), (8-15, 8-15); a pair of B fragments' are
  // (n-tile j, K 0-7), (j, 8-15), (j + 1, 0-7), (j + 1, 8-15). A tile
  // that is not K-contiguous holds them transposed.
  Value l8 = ix.rem(lane, ix.c(kMatrix));
  Value mid = ix.mul(ix.rem(ix.div(lane, ix.c(kMatrix)), ix.c(2)), kMatrix);
  Value hi = ix.mul(ix.div(lane, ix.c(2 * kMatrix)), kMatrix);
  Value l16 = ix.rem(lane, ix.c(2 * kMatrix));
  aRows = lhs.layout.kContiguous
              ? flatIndex(lhs, ix.add(warpRow, l16), hi)
              : flatIndex(lhs, ix.add(hi, l8), ix.add(warpRow, mid));
  // B's lanes 16-31 address the second fragment of a pair (`pair`).
  auto bRowsWith = [&](Value pair) {
    Value cols = ix.add(warpCol, pair);
    return rhs.layout.kContiguous ? flatIndex(rhs, ix.add(cols, l8), mid)
                                  : flatIndex(rhs, ix.add(mid, l8), cols);
  };
  bRows = bRowsWith(hi);
  bRowsLast = fn % 2 ? bRowsWith(zero) : Value();
}

SmallVector<Value> MmaContractionKernel::step(const TileCopy &lhs,
                                              const TileCopy &rhs,
                                              int64_t kBase, Value lhsStage,
                                              Value rhsStage,
                                              ArrayRef<Value> accs) {
  Ix ix{rw, loc};
  Type element = inputElement();
  // The offset of the fragment at tile row (or column) `outer`, K `k`
  // from a lane's first: a constant, an immediate of the access.
  auto offset = [&](const TileCopy &copy, int64_t outer, int64_t k) {
    int64_t columns = copy.layout.columns;
    return copy.layout.kContiguous ? outer * columns + k : k * columns + outer;
  };
  auto ldmatrix = [&](const TileCopy &copy, Value rows, int64_t at,
                      int64_t tiles) {
    return rw.create<nvgpu::LdMatrixOp>(
        loc, VectorType::get({tiles, 2}, element), copy.flat,
        ValueRange{ix.add(rows, ix.c(at))}, !copy.layout.kContiguous,
        static_cast<uint32_t>(tiles));
  };
  // MFMA: the lane's 4 K of a row (or column), consecutive in a
  // K-contiguous tile, a row of the tile apart in the transpose.
  auto run = [&](const TileCopy &copy, Value rows, int64_t at) -> Value {
    auto type = VectorType::get({kMfmaRun}, element);
    if (copy.layout.kContiguous)
      return rw.create<vector::LoadOp>(loc, type, copy.flat,
                                       ValueRange{ix.add(rows, ix.c(at))});
    SmallVector<Value> values;
    for (int64_t q = 0; q < kMfmaRun; ++q)
      values.push_back(rw.create<memref::LoadOp>(
          loc, copy.flat,
          ValueRange{ix.add(rows, ix.c(at + q * copy.layout.columns))}));
    return rw.create<vector::FromElementsOp>(loc, type, values);
  };

  Value aBase = ix.add(aRows, lhsStage), bBase = ix.add(bRows, rhsStage);
  SmallVector<Value> a, b;
  for (int64_t i = 0; i < fm; ++i) {
    int64_t at = offset(lhs, i * inst.shape[0], kBase);
    a.push_back(isMfma() ? run(lhs, aBase, at)
                         : ldmatrix(lhs, aBase, at, /*tiles=*/4));
  }
  for (int64_t j = 0; j < fn; ++j) {
    int64_t at = offset(rhs, j * inst.shape[1], kBase);
    if (isMfma()) {
      b.push_back(run(rhs, bBase, at));
      continue;
    }
    // Two fragments from four matrices, or the last of an odd count from
    // two.
    if (j % 2)
      continue;
    bool pair = j + 1 < fn;
    Value matrices = ldmatrix(rhs, pair ? bBase : ix.add(bRowsLast, rhsStage),
                              at, pair ? 4 : 2);
    for (int64_t f = 0; f < (pair ? 2 : 1); ++f)
      b.push_back(rw.create<vector::ExtractStridedSliceOp>(
          loc, matrices, ArrayRef<int64_t>{2 * f, 0}, ArrayRef<int64_t>{2, 2},
          ArrayRef<int64_t>{1, 1}));
  }
  SmallVector<Value> out;
  for (int64_t i = 0; i < fm; ++i)
    for (int64_t j = 0; j < fn; ++j) {
      Value acc = accs[i * fn + j];
      if (isMfma())
        out.push_back(rw.create<amdgpu::MFMAOp>(
            loc, acc.getType(), inst.shape[0], inst.shape[1], inst.shape[2],
            /*blocks=*/1, a[i], b[j], acc));
      else
        out.push_back(rw.create<nvgpu::MmaSyncOp>(
            loc, a[i], b[j], acc, ArrayRef<int64_t>(inst.shape)));
    }
  return out;
}

void MmaContractionKernel::storeOutputs(ValueRange accs, Value tid) {
  // A pass takes `rowsPerPass` rows of every subgroup row's fragment i at
  // a time (mma.sync: rows g of one half, 8; MFMA: all 16): each lane puts
  // its accumulators of those rows into staging row `rowsPerPass`
  // (subgroup row) + its row in the pass, then the block's threads take
  // the staged values, consecutive threads consecutive columns; each
  // output in bounds is stored, then the epilogues run at its point. The
  // K loop's last barrier leaves the operand tiles' bytes free.
  Ix ix{rw, loc};
  int64_t perPass = inst.rowsPerPass, stagedRows = inst.warpsM * perPass;
  Value stage = block->view(
      ix, 0,
      workgroupBuffer({stagedRows, bn + inst.stagingPad}, rw.getF32Type()));
  Value stageRow = ix.add(ix.mul(ix.div(warpRow, ix.c(wm)), perPass), accRows);
  Value firstRow = ix.div(tid, ix.c(bn)), stagedCol = ix.rem(tid, ix.c(bn));
  for (int64_t i = 0; i < fm; ++i)
    for (int64_t pass = 0; pass < inst.shape[0] / perPass; ++pass) {
      if (i || pass)
        rw.create<gpu::BarrierOp>(loc);
      for (int64_t j = 0; j < fn; ++j)
        for (int64_t e = 0; e < 4; ++e) {
          if (accRow(e) / perPass != pass)
            continue;
          Value value = rw.create<vector::ExtractOp>(loc, accs[i * fn + j],
                                                     accPosition(e));
          rw.create<memref::StoreOp>(
              loc, value, stage,
              ValueRange{
                  ix.add(stageRow, ix.c(accRow(e) % perPass)),
                  ix.add(warpCol, ix.add(accColumns, ix.c(j * inst.shape[1] +
                                                          accColumn(e))))});
        }
      rw.create<gpu::BarrierOp>(loc);
      for (int64_t q = 0; q < stagedRows * bn / threads; ++q) {
        Value stagedRow = ix.add(firstRow, ix.c(q * (threads / bn)));
        // Staging row r is row r % perPass of the pass in subgroup row
        // r / perPass.
        Value row =
            ix.add(block->m0,
                   ix.add(ix.mul(ix.div(stagedRow, ix.c(perPass)), wm),
                          ix.add(ix.rem(stagedRow, ix.c(perPass)),
                                 ix.c(i * inst.shape[0] + pass * perPass))));
        Value col = ix.add(block->n0, stagedCol);
        Value value = rw.create<memref::LoadOp>(
            loc, stage, ValueRange{stagedRow, stagedCol});
        block->storeOutput(ix, row, col, value, plan);
      }
    }
}

LogicalResult MmaContractionKernel::build() {
  int64_t workgroupBytes = getMmaWorkgroupBytes(op, shape, inst, bm, bn, bk);
  OpBuilder::InsertionGuard guard(rw);
  gpu::LaunchOp launch = enterContractionLaunch(rw, loc, op, shape, plan.block,
                                                bm, bn, workgroupBytes);
  Ix ix{rw, loc};
  block.emplace(ix, op, shape, launch, bm, bn);
  sizes = block->sizes;
  zero = block->zero;
  lane = launch.getThreadIds().x;
  Value warp = launch.getThreadIds().y;
  Value tid = ix.add(ix.mul(warp, plan.block[0]), lane);
  warpRow = ix.mul(ix.div(warp, ix.c(inst.warpsN)), wm);
  warpCol = ix.mul(ix.rem(warp, ix.c(inst.warpsN)), wn);
  if (isMfma()) {
    accRows = ix.mul(ix.div(lane, ix.c(16)), kMfmaRun);
    accColumns = ix.rem(lane, ix.c(16));
  } else {
    accRows = ix.div(lane, ix.c(4));
    accColumns = ix.mul(ix.rem(lane, ix.c(4)), 2);
  }
  SmallVector<Value> accs = initialAccumulators();

  TileCopy lhs = planCopy(ix, tid, true, 0);
  TileCopy rhs = planCopy(ix, tid, false, kMmaStages * lhs.stageElements * 2);
  prepareFragments(lhs, rhs);
  Value kSize = sizes[shape.kDim];
  // Every K tile t: `before(t, next stage)`, the steps on its stage,
  // `after(...)`, a barrier after which no subgroup reads this stage any
  // more (the next tile's copies may overwrite it).
  auto kLoop = [&](function_ref<void(Value, Value)> before,
                   function_ref<void(Value, Value)> after) {
    auto loop =
        rw.create<scf::ForOp>(loc, zero, ix.ceilDiv(kSize, bk), ix.c(1), accs);
    OpBuilder::InsertionGuard loopGuard(rw);
    rw.setInsertionPointToStart(loop.getBody());
    Ix in{rw, loc};
    Value t = loop.getInductionVar();
    Value stage = in.rem(t, in.c(kMmaStages));
    Value nextStage = in.rem(in.add(t, in.c(1)), in.c(kMmaStages));
    Value kNext = in.mul(in.add(t, in.c(1)), bk);
    before(kNext, nextStage);
    SmallVector<Value> out(loop.getRegionIterArgs());
    for (int64_t kBase = 0; kBase < bk; kBase += inst.shape[2])
      out = step(lhs, rhs, kBase, in.mul(stage, lhs.stageElements),
                 in.mul(stage, rhs.stageElements), out);
    after(kNext, nextStage);
    rw.create<gpu::BarrierOp>(loc);
    rw.create<scf::YieldOp>(loc, out);
    return loop;
  };

  scf::ForOp loop;
  if (copiesAsync()) {
    // cp.async: the first K tile's copies into stage 0 (when K is not
    // empty). Every K tile starts the next one's copies into the other
    // stage, then waits for all but those (this tile's) and for every
    // thread's (a barrier) before the steps. A chunk past K reads nothing
    // and is zeros.
    Ix in{rw, loc};
    auto copyBoth = [&](Value k0, Value stage) {
      Ix at{rw, loc};
      SmallVector<Value> tokens =
          copyAsync(lhs, k0, at.mul(stage, lhs.stageElements));
      llvm::append_range(tokens,
                         copyAsync(rhs, k0, at.mul(stage, rhs.stageElements)));
      return rw.create<nvgpu::DeviceAsyncCreateGroupOp>(
          loc, nvgpu::DeviceAsyncTokenType::get(rw.getContext()), tokens);
    };
    auto first = rw.create<scf::IfOp>(loc, in.lt(zero, kSize),
                                      /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard ifGuard(rw);
      rw.setInsertionPointToStart(first.thenBlock());
      copyBoth(zero, zero);
    }
    loop = kLoop(
        [&](Value kNext, Value nextStage) {
          rw.create<nvgpu::DeviceAsyncWaitOp>(loc, copyBoth(kNext, nextStage),
                                              rw.getI32IntegerAttr(1));
          rw.create<gpu::BarrierOp>(loc);
        },
        [](Value, Value) {});
  } else {
    // Through registers: the first K tile goes to stage 0. Every K tile
    // loads the next tile's elements (in flight during the steps) and
    // stores them into the other stage after the steps. The fetch after
    // the last tile loads clamped elements that are never used.
    SmallVector<Type> fetchedTypes(lhs.kk.size() + rhs.kk.size(), copiedType());
    auto fetchBoth = [&](Value k0, bool masked) {
      SmallVector<Value> values = fetch(lhs, k0, masked);
      llvm::append_range(values, fetch(rhs, k0, masked));
      return values;
    };
    // The K tile at `k0`, masked where it passes K (a branch all threads
    // take alike); K must not be empty.
    auto fetchTile = [&](Value k0) {
      Ix in{rw, loc};
      return uniformBranch(
          rw, loc, fetchedTypes, in.lt(kSize, in.add(k0, in.c(bk))),
          [&] { return fetchBoth(k0, true); },
          [&] { return fetchBoth(k0, false); });
    };
    auto putBoth = [&](ValueRange values, Value stage) {
      Ix at{rw, loc};
      put(lhs, values.take_front(lhs.kk.size()),
          at.mul(stage, lhs.stageElements));
      put(rhs, values.drop_front(lhs.kk.size()),
          at.mul(stage, rhs.stageElements));
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
    putBoth(first, zero);
    rw.create<gpu::BarrierOp>(loc);
    SmallVector<Value> next;
    loop = kLoop([&](Value kNext, Value) { next = fetchTile(kNext); },
                 [&](Value, Value nextStage) { putBoth(next, nextStage); });
  }
  storeOutputs(loop.getResults(), tid);
  return success();
}

namespace {

/// Whether `operand` of `op` can be copied in chunks: a contiguous buffer
/// known to be 16-byte aligned that `op` reads at plain loops.
bool copiesInChunks(linalg::LinalgOp op, OpOperand &operand) {
  SmallVector<unsigned> loops;
  for (AffineExpr result : op.getMatchingIndexingMap(&operand).getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(result);
    if (!dim)
      return false;
    loops.push_back(dim.getPosition());
  }
  return isAlignedAlong(op, operand, loops);
}

} // namespace

FailureOr<unsigned> accy::kernel::buildMmaContractionKernel(
    RewriterBase &rewriter, linalg::LinalgOp op, const KernelPlan &plan,
    const DispatchShape &shape) {
  Type a = elementOf(op->getOperand(shape.lhsInput));
  Type b = elementOf(op->getOperand(shape.rhsInput));
  if (a != b || !(a.isF16() || a.isBF16()) ||
      !elementOf(op.getDpsInits()[0]).isF32())
    return op.emitError("a tensor-core contraction needs f16 or bf16 inputs "
                        "of one type and an f32 accumulator");
  const MmaInstruction *inst = findMmaInstruction(plan.mma);
  if (!inst || plan.tile.size() != 3 || plan.block.size() != 3 ||
      plan.block[0] != inst->subgroup ||
      plan.block[1] != inst->warpsM * inst->warpsN || plan.block[2] != 1)
    return op.emitError() << "a tensor-core contraction plan needs mma = "
                             "[16, 8, 16] (block = [32, 8, 1]) or [16, 16, "
                             "16] (block = [64, 4, 1]), and tile = [BM, BN, "
                             "BK]";
  int64_t bm = plan.tile[0], bn = plan.tile[1], bk = plan.tile[2];
  int64_t threads = plan.block[0] * plan.block[1];
  // Whole fragments per subgroup; each thread copies whole elements of
  // both tiles along their operands' innermost dimension, and takes whole
  // staged values.
  int64_t stagedRows = inst->warpsM * inst->rowsPerPass;
  if (bm % (inst->warpsM * inst->shape[0]) ||
      bn % (inst->warpsN * inst->shape[1]) || bk % inst->shape[2] ||
      threads % bm || threads % bn || threads % bk || (bm * bk) % threads ||
      (bn * bk) % threads || (stagedRows * bn) % threads)
    return op.emitError() << "tensor-core tiles of " << bm << "x" << bk
                          << " and " << bk << "x" << bn
                          << " do not split into whole fragments and copies "
                             "among "
                          << threads << " threads";
  // The copies move a chunk of 16 bytes at a time where both operands'
  // innermost sizes are multiples of it: under a host-side branch on the
  // sizes where one of them is dynamic, element by element otherwise.
  auto variant = [&](int64_t chunk) {
    MmaContractionKernel kernel{rewriter, op.getLoc(), op,   plan,
                                shape,    *inst,       bm,   bn,
                                bk,       threads,     chunk};
    return kernel.build();
  };
  bool chunked = threads * kCopyChunk <= std::min(bm, bn) * bk;
  SmallVector<OpOperand *> dynamicInner;
  for (int64_t input : {shape.lhsInput, shape.rhsInput}) {
    OpOperand &operand = op->getOpOperand(input);
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    chunked =
        chunked && type && type.getRank() > 0 && copiesInChunks(op, operand);
    if (!chunked)
      break;
    int64_t inner = type.getShape().back();
    if (ShapedType::isDynamic(inner))
      dynamicInner.push_back(&operand);
    else
      chunked = inner % kCopyChunk == 0;
  }
  if (!chunked)
    dynamicInner.clear();
  // The host tests the dynamic innermost sizes where they decide.
  Location loc = op.getLoc();
  Ix host{rewriter, loc};
  Value aligned;
  for (OpOperand *operand : dynamicInner) {
    auto type = cast<MemRefType>(operand->get().getType());
    Value size =
        rewriter.create<memref::DimOp>(loc, operand->get(), type.getRank() - 1);
    Value multiple = host.eq(host.rem(size, host.c(kCopyChunk)), 0);
    aligned = aligned ? host.both(aligned, multiple) : multiple;
  }
  if (!chunked || !aligned) {
    if (failed(variant(chunked ? kCopyChunk : 1)))
      return failure();
    return 1u;
  }
  auto branch = rewriter.create<scf::IfOp>(loc, aligned,
                                           /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(branch.thenBlock());
  if (failed(variant(kCopyChunk)))
    return failure();
  rewriter.setInsertionPointToStart(branch.elseBlock());
  if (failed(variant(1)))
    return failure();
  return 2u;
}
