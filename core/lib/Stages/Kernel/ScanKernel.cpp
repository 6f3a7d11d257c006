//===- ScanKernel.cpp - The scan schedule: a carry along every line -------===//
//
// A scan reaches the kernel stage as the tensor stage's quadratic form: a
// reduction loop j beside the parallel loops, masked by j <= i on the axis
// loop i. Its payload at j == i, with the accumulator at the combiner's
// neutral element, is the line's element i as the scan combines it (an f16
// element extended to f32, say); the kernels and loops below combine each
// element a bounded number of times, so the work is linear in the line's
// length.
//
//===----------------------------------------------------------------------===//

#include "PayloadEmitter.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace accy;
using namespace accy::kernel;

namespace {

/// The loops of a scan seen as lines: the parallel loops but the axis, and
/// the ivs of the point at element `i` of the line at `lineIvs`.
struct ScanLines {
  linalg::LinalgOp op;
  const DispatchShape &shape;
  SmallVector<unsigned> lineDims;

  ScanLines(linalg::LinalgOp op, const DispatchShape &shape)
      : op(op), shape(shape) {
    SmallVector<unsigned> parallel, reduction;
    splitLoops(op, parallel, reduction);
    for (unsigned d : parallel)
      if (d != static_cast<unsigned>(shape.scanAxis))
        lineDims.push_back(d);
  }

  SmallVector<Value> pointIvs(Ix &ix, ArrayRef<Value> lineIvs, Value i) {
    return mergeIvs(ix, op.getNumLoops(), lineDims, lineIvs,
                    {static_cast<unsigned>(shape.scanAxis),
                     static_cast<unsigned>(shape.scanReduction)},
                    {i, i});
  }

  /// Element `ivs` of the line as the scan combines it: the payload's value
  /// without its last step, the combination with the neutral accumulator.
  Value element(OpBuilder &b, Location loc, ValueRange ivs, Value neutral) {
    Value value =
        emitPayload(b, op, ivs, payloadArgs(b, loc, op, ivs, {neutral}))[0];
    Operation *last = value.getDefiningOp();
    if (!last || last->getName() != shape.combiner->getName() ||
        !last->use_empty() || !llvm::is_contained(last->getOperands(), neutral))
      return value;
    value = last->getOperand(last->getOperand(0) == neutral ? 1 : 0);
    last->erase();
    return value;
  }
};

Value neutralOf(OpBuilder &b, Location loc, Operation *combiner) {
  return b.create<arith::ConstantOp>(loc, *arith::getNeutralElement(combiner));
}

bool isNeutral(Value value, Operation *combiner) {
  Attribute constant;
  return matchPattern(value, m_Constant(&constant)) &&
         constant == *arith::getNeutralElement(combiner);
}

/// Walks positions [begin, end) of the line at `lineIvs` serially from
/// `carry` (the neutral element when null), the host's loops and a GPU
/// thread's alike: `store` gets the ivs of each position and the
/// combination up to it. Returns the combination of the whole walk.
Value walkLine(OpBuilder &b, Location loc, ScanLines &lines,
               ArrayRef<Value> lineIvs, Value begin, Value end, Value carry,
               function_ref<void(ValueRange ivs, Value running)> store) {
  Ix ix{b, loc};
  Operation *combiner = lines.shape.combiner;
  Value neutral = neutralOf(b, loc, combiner);
  auto along = b.create<scf::ForOp>(loc, begin, end, ix.c(1),
                                    ValueRange{carry ? carry : neutral});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(along.getBody());
  SmallVector<Value> ivs = lines.pointIvs(ix, lineIvs, along.getInductionVar());
  Value running = combine(b, loc, combiner, along.getRegionIterArg(0),
                          lines.element(b, loc, ivs, neutral));
  store(ivs, running);
  b.create<scf::YieldOp>(loc, running);
  return along.getResult(0);
}

/// `value` of lane `lane` (i32) of the subgroup, for any type of at most 64
/// bits: shuffles move 32-bit words, so narrower values travel widened and
/// 64-bit ones in two halves. `up` shuffles read lane - `lane` instead.
Value shuffle(OpBuilder &b, Location loc, Value value, Value lane,
              int64_t width, gpu::ShuffleMode mode) {
  Type type = value.getType();
  Type i32 = b.getI32Type();
  Value w = b.create<arith::ConstantIntOp>(loc, width, 32);
  auto move = [&](Value word) {
    return b.create<gpu::ShuffleOp>(loc, word, lane, w, mode)
        .getShuffleResult();
  };
  if (type == i32 || type.isF32())
    return move(value);
  unsigned bits = type.getIntOrFloatBitWidth();
  Type bitsType = b.getIntegerType(bits);
  Value asInt = isa<FloatType>(type)
                    ? b.create<arith::BitcastOp>(loc, bitsType, value)
                    : value;
  Value moved;
  if (bits < 32) {
    moved = b.create<arith::TruncIOp>(
        loc, bitsType, move(b.create<arith::ExtUIOp>(loc, i32, asInt)));
  } else {
    Value shift = b.create<arith::ConstantIntOp>(loc, 32, bits);
    Value lo = move(b.create<arith::TruncIOp>(loc, i32, asInt));
    Value hi = move(b.create<arith::TruncIOp>(
        loc, i32, b.create<arith::ShRUIOp>(loc, asInt, shift)));
    moved = b.create<arith::OrIOp>(
        loc, b.create<arith::ExtUIOp>(loc, bitsType, lo),
        b.create<arith::ShLIOp>(
            loc, b.create<arith::ExtUIOp>(loc, bitsType, hi), shift));
  }
  return isa<FloatType>(type) ? b.create<arith::BitcastOp>(loc, type, moved)
                              : moved;
}

Value toI32(OpBuilder &b, Location loc, Value index) {
  return b.create<arith::IndexCastOp>(loc, b.getI32Type(), index);
}

/// Scans in one block of a scan kernel: one value per thread at a time.
struct BlockScan {
  RewriterBase &rw;
  Location loc;
  Operation *combiner;
  const KernelPlan &plan;
  int64_t threads, subgroup, numSubgroups;
  Value tid, lane, subgroupId, neutral, partials;

  BlockScan(RewriterBase &rw, Location loc, gpu::LaunchOp launch,
            Operation *combiner, const KernelPlan &plan, int64_t numSubgroups)
      : rw(rw), loc(loc), combiner(combiner), plan(plan),
        threads(plan.block[0]), subgroup(plan.subgroup),
        numSubgroups(numSubgroups) {
    Ix ix{rw, loc};
    tid = launch.getThreadIds().x;
    lane = ix.rem(tid, ix.c(subgroup));
    subgroupId = ix.div(tid, ix.c(subgroup));
    neutral = neutralOf(rw, loc, combiner);
    if (numSubgroups > 1)
      partials = launch.getWorkgroupAttributions()[0];
  }

  Value combined(Value lhs, Value rhs) {
    return combine(rw, loc, combiner, lhs, rhs);
  }

  /// The inclusive scan of `value` over the threads of the block, and the
  /// block's total, in every thread (all threads must call it).
  std::pair<Value, Value> scanBlock(Value value) {
    Ix ix{rw, loc};
    // Inclusive scan of the subgroup (Hillis-Steele): after the step of
    // `offset`, each lane holds the combination of the 2 * offset lanes
    // ending at it.
    for (int64_t offset = 1; offset < subgroup; offset *= 2) {
      Value hasSource = rw.create<arith::CmpIOp>(loc, arith::CmpIPredicate::uge,
                                                 lane, ix.c(offset));
      Value shifted =
          plan.shuffleUp
              ? shuffle(rw, loc, value,
                        rw.create<arith::ConstantIntOp>(loc, offset, 32),
                        subgroup, gpu::ShuffleMode::UP)
              : shuffle(rw, loc, value,
                        toI32(rw, loc,
                              rw.create<arith::SelectOp>(
                                  loc, hasSource, ix.sub(lane, ix.c(offset)),
                                  lane)),
                        subgroup, gpu::ShuffleMode::IDX);
      value = rw.create<arith::SelectOp>(loc, hasSource,
                                         combined(shifted, value), value);
    }
    if (!partials)
      return {value,
              shuffle(rw, loc, value,
                      rw.create<arith::ConstantIntOp>(loc, subgroup - 1, 32),
                      subgroup, gpu::ShuffleMode::IDX)};

    // The subgroups' totals through shared memory: each thread adds those
    // of the subgroups before its own; every thread learns the total.
    {
      auto last = rw.create<scf::IfOp>(loc, ix.eq(lane, subgroup - 1), false);
      OpBuilder::InsertionGuard ifGuard(rw);
      rw.setInsertionPointToStart(last.thenBlock());
      rw.create<memref::StoreOp>(loc, value, partials, ValueRange{subgroupId});
    }
    rw.create<gpu::BarrierOp>(loc);
    Value before = neutral;
    Value total = rw.create<memref::LoadOp>(loc, partials, ValueRange{ix.c(0)});
    for (int64_t s = 1; s < numSubgroups; ++s) {
      // `total` combines the subgroups before s here.
      before = rw.create<arith::SelectOp>(
          loc,
          rw.create<arith::CmpIOp>(loc, arith::CmpIPredicate::uge, subgroupId,
                                   ix.c(s)),
          total, before);
      total = combined(
          total, rw.create<memref::LoadOp>(loc, partials, ValueRange{ix.c(s)}));
    }
    // A later scan overwrites the slots.
    rw.create<gpu::BarrierOp>(loc);
    return {combined(before, value), total};
  }

  /// The value at `i` (< end) where it is in range, the neutral element
  /// elsewhere.
  Value valueAt(Value i, Value inRange,
                function_ref<Value(Value i)> elementAt) {
    auto guarded = rw.create<scf::IfOp>(loc, neutral.getType(), inRange, true);
    OpBuilder::InsertionGuard ifGuard(rw);
    rw.setInsertionPointToStart(guarded.thenBlock());
    rw.create<scf::YieldOp>(loc, elementAt(i));
    rw.setInsertionPointToStart(guarded.elseBlock());
    rw.create<scf::YieldOp>(loc, neutral);
    return guarded.getResult(0);
  }

  /// Walks [begin, end) in chunks of the block's threads, one position per
  /// thread, from `carry` (the combination of everything before `begin`):
  /// stores the inclusive scan at each position with `store`.
  void walk(Value begin, Value end, Value carry,
            function_ref<Value(Value i)> elementAt,
            function_ref<void(Value i, Value value)> store) {
    Ix ix{rw, loc};
    auto chunks = rw.create<scf::ForOp>(loc, begin, end, ix.c(threads),
                                        ValueRange{carry});
    OpBuilder::InsertionGuard guard(rw);
    rw.setInsertionPointToStart(chunks.getBody());
    Value before = chunks.getRegionIterArg(0);
    Value i = ix.add(chunks.getInductionVar(), tid);
    Value inRange = ix.lt(i, end);
    auto [scanned, total] = scanBlock(valueAt(i, inRange, elementAt));
    {
      auto guarded = rw.create<scf::IfOp>(loc, inRange, false);
      OpBuilder::InsertionGuard ifGuard(rw);
      rw.setInsertionPointToStart(guarded.thenBlock());
      store(i, combined(before, scanned));
    }
    rw.create<scf::YieldOp>(loc, combined(before, total));
  }

  /// The combination of [begin, end) in every thread: a strided serial
  /// combine per thread, then the block's total.
  Value reduce(Value begin, Value end, function_ref<Value(Value i)> elementAt) {
    Ix ix{rw, loc};
    auto strided = rw.create<scf::ForOp>(loc, ix.add(begin, tid), end,
                                         ix.c(threads), ValueRange{neutral});
    {
      OpBuilder::InsertionGuard guard(rw);
      rw.setInsertionPointToStart(strided.getBody());
      rw.create<scf::YieldOp>(loc,
                              combined(strided.getRegionIterArg(0),
                                       elementAt(strided.getInductionVar())));
    }
    return scanBlock(strided.getResult(0)).second;
  }
};

/// What every launch of a scan needs: the op, its lines, its sizes.
struct ScanKernel {
  RewriterBase &rw;
  linalg::LinalgOp op;
  const KernelPlan &plan;
  const DispatchShape &shape;
  ScanLines lines;
  int64_t numSubgroups;
  Location loc;
  Type accType;

  ScanKernel(RewriterBase &rw, linalg::LinalgOp op, const KernelPlan &plan,
             const DispatchShape &shape, int64_t numSubgroups)
      : rw(rw), op(op), plan(plan), shape(shape), lines(op, shape),
        numSubgroups(numSubgroups), loc(op.getLoc()),
        accType(shape.combiner->getResult(0).getType()) {}

  /// A launch of `blocksPerLine` blocks per line (one when null); `body`
  /// fills it, given the scanner, the ivs of the block's line, the block's
  /// index within its line, the line's length and the loop sizes.
  void
  launch(Value blocksPerLine,
         function_ref<void(BlockScan &, ArrayRef<Value> lineIvs, Value block,
                           Value length, ArrayRef<Value> sizes)>
             body) {
    Ix host{rw, loc};
    SmallVector<Type> workgroup;
    if (numSubgroups > 1)
      workgroup.push_back(workgroupBuffer({numSubgroups}, accType));
    Value grid = host.product(select(loopSizes(rw, loc, op), lines.lineDims));
    if (blocksPerLine)
      grid = host.mul(grid, blocksPerLine);
    gpu::LaunchOp launch =
        createLaunch(rw, loc, grid, {plan.block[0], 1, 1}, workgroup);
    OpBuilder::InsertionGuard guard(rw);
    rw.setInsertionPoint(launch.getBody().front().getTerminator());
    Ix ix{rw, loc};
    SmallVector<Value> sizes = loopSizes(rw, loc, op);
    Value length = sizes[shape.scanAxis];
    Value id = launch.getBlockIds().x, block = ix.c(0);
    if (blocksPerLine) {
      Value perLine = ix.ceilDiv(length, plan.lineTile);
      block = ix.rem(id, perLine);
      id = ix.div(id, perLine);
    }
    SmallVector<Value> lineIvs =
        delinearize(ix, id, select(sizes, lines.lineDims));
    BlockScan scan(rw, loc, launch, shape.combiner, plan, numSubgroups);
    body(scan, lineIvs, block, length, sizes);
  }

  SmallVector<Value> ivsAt(ArrayRef<Value> lineIvs, Value i) {
    Ix ix{rw, loc};
    return lines.pointIvs(ix, lineIvs, i);
  }

  /// Element `i` of the line as the scan combines it.
  Value element(ArrayRef<Value> lineIvs, Value i, Value neutral) {
    return lines.element(rw, loc, ivsAt(lineIvs, i), neutral);
  }

  /// Stores `value`, combined with the output's start where that is not
  /// the neutral element a folded fill gives, at `i`, and runs the
  /// epilogues there.
  void store(ArrayRef<Value> lineIvs, Value i, Value value) {
    storeAt(ivsAt(lineIvs, i), value);
  }
  void storeAt(ValueRange ivs, Value value) {
    OpOperand *output = op.getDpsInitOperand(0);
    Value init = plan.initValues.empty() ? Value() : plan.initValues[0];
    if (!init)
      init = loadOperand(rw, loc, op, output, ivs);
    if (!isNeutral(init, shape.combiner))
      value = combine(rw, loc, shape.combiner, init, value);
    storeResult(rw, loc, op, output, value, ivs, plan);
  }

  /// The output at `i` of the line, as the root computes it.
  Value loadOutput(ArrayRef<Value> lineIvs, Value i) {
    return loadOperand(rw, loc, op, op.getDpsInitOperand(0), ivsAt(lineIvs, i));
  }
};

/// Whether the output starts at the neutral element (a folded fill): the
/// blocks of a line then pass bare prefixes to each other through it.
bool startsNeutral(const KernelPlan &plan, const DispatchShape &shape) {
  return !plan.initValues.empty() && plan.initValues[0] &&
         isNeutral(plan.initValues[0], shape.combiner);
}

/// One block per line: the whole line from the neutral element.
unsigned buildBlockPerLine(ScanKernel &kernel) {
  kernel.launch(nullptr, [&](BlockScan &scan, ArrayRef<Value> lineIvs, Value,
                             Value length, ArrayRef<Value>) {
    Ix ix{kernel.rw, kernel.loc};
    scan.walk(
        ix.c(0), length, scan.neutral,
        [&](Value i) { return kernel.element(lineIvs, i, scan.neutral); },
        [&](Value i, Value v) { kernel.store(lineIvs, i, v); });
  });
  return 1;
}

/// A launch of a thread per line, `plan.linesPerBlock` lines a block:
/// consecutive threads take consecutive lines (the last line loop varies
/// fastest), so along an outer axis each step of a subgroup reads and
/// writes one contiguous segment. `chunks` times over: the blocks of chunk
/// c come after those of chunk c - 1. `body` runs for each line in range,
/// given its ivs, the chunk and the line's length.
void launchThreadPerLine(
    ScanKernel &kernel, int64_t chunks,
    function_ref<void(ArrayRef<Value> lineIvs, Value chunk, Value length)>
        body) {
  RewriterBase &rw = kernel.rw;
  Location loc = kernel.loc;
  int64_t linesPerBlock = kernel.plan.linesPerBlock;
  auto lineSizes = [&] {
    return select(loopSizes(rw, loc, kernel.op), kernel.lines.lineDims);
  };
  Ix host{rw, loc};
  gpu::LaunchOp launch = createLaunch(
      rw, loc,
      host.mul(host.ceilDiv(host.product(lineSizes()), linesPerBlock), chunks),
      {linesPerBlock, 1, 1});
  OpBuilder::InsertionGuard guard(rw);
  rw.setInsertionPoint(launch.getBody().front().getTerminator());
  Ix ix{rw, loc};
  SmallVector<Value> sizes = lineSizes();
  Value block = launch.getBlockIds().x, chunk = ix.c(0);
  if (chunks > 1) {
    Value lineBlocks = ix.ceilDiv(ix.product(sizes), linesPerBlock);
    chunk = ix.div(block, lineBlocks);
    block = ix.rem(block, lineBlocks);
  }
  Value line = ix.add(ix.mul(block, linesPerBlock), launch.getThreadIds().x);
  auto inRange = rw.create<scf::IfOp>(loc, ix.lt(line, ix.product(sizes)),
                                      /*withElseRegion=*/false);
  rw.setInsertionPointToStart(inRange.thenBlock());
  body(delinearize(ix, line, sizes), chunk,
       loopSizes(rw, loc, kernel.op)[kernel.shape.scanAxis]);
}

/// One thread per line, walking it whole.
unsigned buildThreadPerLine(ScanKernel &kernel) {
  launchThreadPerLine(
      kernel, 1, [&](ArrayRef<Value> lineIvs, Value, Value length) {
        Ix ix{kernel.rw, kernel.loc};
        walkLine(kernel.rw, kernel.loc, kernel.lines, lineIvs, ix.c(0), length,
                 Value(), [&](ValueRange ivs, Value running) {
                   kernel.storeAt(ivs, running);
                 });
      });
  return 1;
}

/// Reduce, then scan, in three launches of a thread per line, each line in
/// `plan.lineChunks` chunks of ceil(length / chunks) elements, a thread
/// each: the first stores each chunk's total at its last element, the
/// second (a thread per line) scans those totals there, and the third
/// scans each chunk from the value at the previous chunk's last element,
/// writing every element but its own last (which later chunks read).
unsigned buildLineChunks(ScanKernel &kernel) {
  RewriterBase &rw = kernel.rw;
  Location loc = kernel.loc;
  int64_t chunks = kernel.plan.lineChunks;
  // Chunk `chunk` of a line of `length`: positions [begin, end).
  auto boundsOf = [&](Value chunk, Value length) {
    Ix ix{rw, loc};
    Value size = ix.ceilDiv(length, chunks);
    Value begin = ix.minU(ix.mul(chunk, size), length);
    return std::make_pair(begin, ix.minU(ix.add(begin, size), length));
  };
  // The same, with the insertion point moved into a branch taken where the
  // chunk is not empty.
  auto enterChunk = [&](Value chunk, Value length) {
    auto [begin, end] = boundsOf(chunk, length);
    auto nonEmpty = rw.create<scf::IfOp>(loc, Ix{rw, loc}.lt(begin, end),
                                         /*withElseRegion=*/false);
    rw.setInsertionPointToStart(nonEmpty.thenBlock());
    return std::make_pair(begin, end);
  };
  launchThreadPerLine(
      kernel, chunks, [&](ArrayRef<Value> lineIvs, Value chunk, Value length) {
        auto [begin, end] = enterChunk(chunk, length);
        Value total = walkLine(rw, loc, kernel.lines, lineIvs, begin, end,
                               Value(), [](ValueRange, Value) {});
        Ix ix{rw, loc};
        storeOperand(rw, loc, kernel.op, kernel.op.getDpsInitOperand(0), total,
                     kernel.ivsAt(lineIvs, ix.sub(end, ix.c(1))));
      });
  launchThreadPerLine(
      kernel, 1, [&](ArrayRef<Value> lineIvs, Value, Value length) {
        Ix ix{rw, loc};
        auto each = rw.create<scf::ForOp>(
            loc, ix.c(0), ix.c(chunks), ix.c(1),
            ValueRange{neutralOf(rw, loc, kernel.shape.combiner)});
        OpBuilder::InsertionGuard loopGuard(rw);
        rw.setInsertionPointToStart(each.getBody());
        Value carried = each.getRegionIterArg(0);
        auto [begin, end] = boundsOf(each.getInductionVar(), length);
        auto nonEmpty = rw.create<scf::IfOp>(loc, kernel.accType,
                                             Ix{rw, loc}.lt(begin, end), true);
        {
          OpBuilder::InsertionGuard ifGuard(rw);
          rw.setInsertionPointToStart(nonEmpty.thenBlock());
          Ix at{rw, loc};
          Value last = at.sub(end, at.c(1));
          Value running = combine(rw, loc, kernel.shape.combiner, carried,
                                  kernel.loadOutput(lineIvs, last));
          kernel.store(lineIvs, last, running);
          rw.create<scf::YieldOp>(loc, running);
          rw.setInsertionPointToStart(nonEmpty.elseBlock());
          rw.create<scf::YieldOp>(loc, carried);
        }
        rw.create<scf::YieldOp>(loc, nonEmpty.getResult(0));
      });
  launchThreadPerLine(
      kernel, chunks, [&](ArrayRef<Value> lineIvs, Value chunk, Value length) {
        auto [begin, end] = enterChunk(chunk, length);
        Ix ix{rw, loc};
        auto carry =
            rw.create<scf::IfOp>(loc, kernel.accType, ix.eq(chunk, 0), true);
        {
          OpBuilder::InsertionGuard ifGuard(rw);
          rw.setInsertionPointToStart(carry.thenBlock());
          rw.create<scf::YieldOp>(loc,
                                  neutralOf(rw, loc, kernel.shape.combiner));
          rw.setInsertionPointToStart(carry.elseBlock());
          rw.create<scf::YieldOp>(
              loc, kernel.loadOutput(lineIvs, ix.sub(begin, ix.c(1))));
        }
        walkLine(rw, loc, kernel.lines, lineIvs, begin, ix.sub(end, ix.c(1)),
                 carry.getResult(0), [&](ValueRange ivs, Value running) {
                   kernel.storeAt(ivs, running);
                 });
      });
  return 3;
}

/// Reduce, then scan, in three launches: blocks of `lineTile` elements of
/// a line. The output holds each block's total at the block's last element,
/// then the scan of those totals there; each block then scans its elements
/// from the value at the previous block's last element, writing every
/// element but its own last (which later blocks read).
unsigned buildSplitLines(ScanKernel &kernel) {
  RewriterBase &rw = kernel.rw;
  linalg::LinalgOp op = kernel.op;
  Location loc = kernel.loc;
  int64_t tile = kernel.plan.lineTile;
  Ix host{rw, loc};
  Value perLine =
      host.ceilDiv(loopSizes(rw, loc, op)[kernel.shape.scanAxis], tile);
  auto lastOf = [&](Ix &ix, Value block, Value length) {
    return ix.sub(ix.minU(ix.mul(ix.add(block, ix.c(1)), tile), length),
                  ix.c(1));
  };
  kernel.launch(perLine, [&](BlockScan &scan, ArrayRef<Value> lineIvs,
                             Value block, Value length, ArrayRef<Value>) {
    Ix ix{rw, loc};
    Value begin = ix.mul(block, tile);
    Value total = scan.reduce(
        begin, ix.minU(ix.add(begin, ix.c(tile)), length),
        [&](Value i) { return kernel.element(lineIvs, i, scan.neutral); });
    auto first = rw.create<scf::IfOp>(loc, ix.eq(scan.tid, 0), false);
    rw.setInsertionPointToStart(first.thenBlock());
    storeOperand(rw, loc, op, op.getDpsInitOperand(0), total,
                 kernel.ivsAt(lineIvs, lastOf(ix, block, length)));
  });
  kernel.launch(nullptr, [&](BlockScan &scan, ArrayRef<Value> lineIvs, Value,
                             Value length, ArrayRef<Value>) {
    Ix ix{rw, loc};
    Value blocks = ix.ceilDiv(length, tile);
    scan.walk(
        ix.c(0), blocks, scan.neutral,
        [&](Value b) {
          Ix in{rw, loc};
          return kernel.loadOutput(lineIvs, lastOf(in, b, length));
        },
        [&](Value b, Value v) {
          Ix in{rw, loc};
          kernel.store(lineIvs, lastOf(in, b, length), v);
        });
  });
  kernel.launch(perLine, [&](BlockScan &scan, ArrayRef<Value> lineIvs,
                             Value block, Value length, ArrayRef<Value>) {
    Ix ix{rw, loc};
    Value begin = ix.mul(block, tile);
    Value last = lastOf(ix, block, length);
    auto carry =
        rw.create<scf::IfOp>(loc, kernel.accType, ix.eq(block, 0), true);
    {
      OpBuilder::InsertionGuard ifGuard(rw);
      rw.setInsertionPointToStart(carry.thenBlock());
      rw.create<scf::YieldOp>(loc, scan.neutral);
      rw.setInsertionPointToStart(carry.elseBlock());
      rw.create<scf::YieldOp>(
          loc, kernel.loadOutput(lineIvs, ix.sub(begin, ix.c(1))));
    }
    scan.walk(
        begin, ix.add(last, ix.c(1)), carry.getResult(0),
        [&](Value i) { return kernel.element(lineIvs, i, scan.neutral); },
        [&](Value i, Value v) {
          Ix in{rw, loc};
          auto notLast = rw.create<scf::IfOp>(loc, in.lt(i, last), false);
          OpBuilder::InsertionGuard ifGuard(rw);
          rw.setInsertionPointToStart(notLast.thenBlock());
          kernel.store(lineIvs, i, v);
        });
  });
  return 3;
}

/// The ways to take the lines of a scan, in the order they are tried.
enum class ScanVariant { ThreadPerLine, LineChunks, SplitLines, BlockPerLine };

unsigned buildVariant(ScanKernel &kernel, ScanVariant variant) {
  switch (variant) {
  case ScanVariant::ThreadPerLine:
    return buildThreadPerLine(kernel);
  case ScanVariant::LineChunks:
    return buildLineChunks(kernel);
  case ScanVariant::SplitLines:
    return buildSplitLines(kernel);
  case ScanVariant::BlockPerLine:
    return buildBlockPerLine(kernel);
  }
  llvm_unreachable("unknown scan variant");
}

/// Builds the first variant whose condition holds (a null condition always
/// does): under host-side branches on the sizes where they are conditions
/// of run time. Returns the launches built in all branches.
unsigned buildFirstThatHolds(ScanKernel &kernel,
                             ArrayRef<std::pair<ScanVariant, Value>> variants) {
  auto [variant, condition] = variants.front();
  if (!condition || variants.size() == 1)
    return buildVariant(kernel, variant);
  auto branch = kernel.rw.create<scf::IfOp>(kernel.loc, condition,
                                            /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(kernel.rw);
  kernel.rw.setInsertionPointToStart(branch.thenBlock());
  unsigned launches = buildVariant(kernel, variant);
  kernel.rw.setInsertionPointToStart(branch.elseBlock());
  return launches + buildFirstThatHolds(kernel, variants.drop_front());
}

} // namespace

FailureOr<unsigned> accy::kernel::buildScanKernel(RewriterBase &rw,
                                                  linalg::LinalgOp op,
                                                  const KernelPlan &plan,
                                                  const DispatchShape &shape) {
  Type accType = shape.combiner->getResult(0).getType();
  if (!accType.isIntOrFloat() || accType.getIntOrFloatBitWidth() > 64)
    return op.emitError() << "scan of " << accType
                          << " values: subgroup shuffles move at most 64 bits";
  FailureOr<int64_t> subgroups = subgroupsPerBlock(op, plan);
  if (failed(subgroups))
    return failure();
  ScanKernel kernel(rw, op, plan, shape, *subgroups);
  Location loc = op.getLoc();
  Ix host{rw, loc};
  auto lines = [&] {
    return host.product(select(loopSizes(rw, loc, op), kernel.lines.lineDims));
  };
  auto atLeast = [&](Value value, int64_t bound) {
    return rw.create<arith::CmpIOp>(loc, arith::CmpIPredicate::uge, value,
                                    host.c(bound));
  };

  // Where the plan records a threshold, the launch function tests it on
  // the actual sizes; a variant the plan names without one always applies.
  SmallVector<std::pair<ScanVariant, Value>> variants;
  // Line chunks without a threshold: lines of a static count too few for a
  // thread each.
  if (plan.linesPerBlock && (!plan.lineChunks || plan.threadLinesFrom))
    variants.push_back({ScanVariant::ThreadPerLine,
                        plan.threadLinesFrom
                            ? atLeast(lines(), plan.threadLinesFrom)
                            : Value()});
  if (plan.lineChunks && startsNeutral(plan, shape))
    variants.push_back({ScanVariant::LineChunks, Value()});
  if (plan.lineTile && startsNeutral(plan, shape))
    variants.push_back(
        {ScanVariant::SplitLines,
         plan.splitLinesBelow
             ? host.both(host.lt(lines(), host.c(plan.splitLinesBelow)),
                         atLeast(loopSizes(rw, loc, op)[shape.scanAxis],
                                 2 * plan.lineTile))
             : Value()});
  variants.push_back({ScanVariant::BlockPerLine, Value()});
  return buildFirstThatHolds(kernel, variants);
}

void accy::kernel::buildScanLoops(RewriterBase &rw, linalg::LinalgOp op,
                                  const DispatchShape &shape) {
  Location loc = op.getLoc();
  rw.setInsertionPoint(op);
  ScanLines lines(op, shape);
  Ix ix{rw, loc};
  SmallVector<Value> sizes = loopSizes(rw, loc, op);
  auto each = rw.create<scf::ForOp>(
      loc, ix.c(0), ix.product(select(sizes, lines.lineDims)), ix.c(1));
  rw.setInsertionPointToStart(each.getBody());
  SmallVector<Value> lineIvs =
      delinearize(ix, each.getInductionVar(), select(sizes, lines.lineDims));
  OpOperand *output = op.getDpsInitOperand(0);
  walkLine(rw, loc, lines, lineIvs, ix.c(0), sizes[shape.scanAxis], Value(),
           [&](ValueRange ivs, Value running) {
             storeOperand(rw, loc, op, output,
                          combine(rw, loc, shape.combiner,
                                  loadOperand(rw, loc, op, output, ivs),
                                  running),
                          ivs);
           });
  rw.eraseOp(op);
}
