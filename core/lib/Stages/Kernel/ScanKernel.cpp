//===- ScanKernel.cpp - The scan schedule: a carry along every line -------===//
//
// A scan reaches the kernel stage as the tensor stage's quadratic form: a
// reduction loop j beside the parallel loops, masked by j <= i on the axis
// loop i. Its payload at j == i, with the accumulator at the combiner's
// neutral element, is the line's element i as the scan combines it (an f16
// element extended to f32, say); the kernels and loops below combine each
// element a bounded number of times, so the work is linear in the line's
// length. Here: the variants built of block scans, and the choice among
// all variants; those of a thread per line are in ScanThreadLines.cpp.
//
//===----------------------------------------------------------------------===//

#include "ScanKernel.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace accy;
using namespace accy::kernel;

namespace {

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

} // namespace

/// Scans in one block of a scan kernel: one value per thread at a time.
struct accy::kernel::BlockScan {
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

void ScanKernel::launch(
    Value blocksPerLine,
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

namespace {

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
  case ScanVariant::BlockPerLine:
    return buildBlockPerLine(kernel);
  case ScanVariant::LineChunks:
  case ScanVariant::SplitLines: {
    // These pass carries through the output, so they store it even where
    // nothing after the kernel reads it (an f32 scan of f16 values,
    // truncated by its epilogue).
    KernelPlan storing = kernel.plan;
    storing.unreadResults.clear();
    ScanKernel carrying(kernel.rw, kernel.op, storing, kernel.shape,
                        kernel.numSubgroups);
    return variant == ScanVariant::LineChunks ? buildLineChunks(carrying)
                                              : buildSplitLines(carrying);
  }
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
