//===- ScanThreadLines.cpp - Scans a thread per line ----------------------===//
//
// The lines of a scan and the serial walk along one, which a thread of the
// GPU variants below and the host's loops make alike, and the variants of
// a thread per line: consecutive threads on consecutive lines, so that
// along an outer axis each step of a subgroup reads and writes one
// contiguous segment (a block per line would read a sector per element).
//
//===----------------------------------------------------------------------===//

#include "ScanKernel.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace accy;
using namespace accy::kernel;

ScanLines::ScanLines(linalg::LinalgOp op, const DispatchShape &shape)
    : op(op), shape(shape) {
  SmallVector<unsigned> parallel, reduction;
  splitLoops(op, parallel, reduction);
  for (unsigned d : parallel)
    if (d != static_cast<unsigned>(shape.scanAxis))
      lineDims.push_back(d);
}

SmallVector<Value> ScanLines::pointIvs(Ix &ix, ArrayRef<Value> lineIvs,
                                       Value i) {
  return mergeIvs(ix, op.getNumLoops(), lineDims, lineIvs,
                  {static_cast<unsigned>(shape.scanAxis),
                   static_cast<unsigned>(shape.scanReduction)},
                  {i, i});
}

Value ScanLines::element(OpBuilder &b, Location loc, ValueRange ivs,
                         Value neutral) {
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

Value accy::kernel::neutralOf(OpBuilder &b, Location loc, Operation *combiner) {
  return b.create<arith::ConstantOp>(loc, *arith::getNeutralElement(combiner));
}

bool accy::kernel::isNeutral(Value value, Operation *combiner) {
  Attribute constant;
  return matchPattern(value, m_Constant(&constant)) &&
         constant == *arith::getNeutralElement(combiner);
}

Value accy::kernel::walkLine(
    OpBuilder &b, Location loc, ScanLines &lines, ArrayRef<Value> lineIvs,
    Value begin, Value end, Value carry,
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

SmallVector<Value> ScanKernel::ivsAt(ArrayRef<Value> lineIvs, Value i) {
  Ix ix{rw, loc};
  return lines.pointIvs(ix, lineIvs, i);
}

Value ScanKernel::element(ArrayRef<Value> lineIvs, Value i, Value neutral) {
  return lines.element(rw, loc, ivsAt(lineIvs, i), neutral);
}

void ScanKernel::store(ArrayRef<Value> lineIvs, Value i, Value value) {
  storeAt(ivsAt(lineIvs, i), value);
}

void ScanKernel::storeAt(ValueRange ivs, Value value) {
  OpOperand *output = op.getDpsInitOperand(0);
  Value init = plan.initValues.empty() ? Value() : plan.initValues[0];
  if (!init)
    init = loadOperand(rw, loc, op, output, ivs);
  if (!isNeutral(init, shape.combiner))
    value = combine(rw, loc, shape.combiner, init, value);
  storeResult(rw, loc, op, output, value, ivs, plan);
}

Value ScanKernel::loadOutput(ArrayRef<Value> lineIvs, Value i) {
  return loadOperand(rw, loc, op, op.getDpsInitOperand(0), ivsAt(lineIvs, i));
}

/// A launch of a thread per line, `plan.linesPerBlock` lines a block:
/// consecutive threads take consecutive lines (the last line loop varies
/// fastest), so along an outer axis each step of a subgroup reads and
/// writes one contiguous segment. `chunks` times over: the blocks of chunk
/// c come after those of chunk c - 1. `body` runs for each line in range,
/// given its ivs, the chunk and the line's length.
static void launchThreadPerLine(
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

unsigned accy::kernel::buildThreadPerLine(ScanKernel &kernel) {
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
unsigned accy::kernel::buildLineChunks(ScanKernel &kernel) {
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
