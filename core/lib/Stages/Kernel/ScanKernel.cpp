//===- ScanKernel.cpp - The scan schedule: a carry along every line -------===//
//
// A scan reaches the kernel stage as the tensor stage's quadratic form: a
// reduction loop j beside the parallel loops, masked by j <= i on the axis
// loop i. Its payload at j == i, with the accumulator at the combiner's
// neutral element, is the line's element i as the scan combines it (an f16
// element extended to f32, say); both builders below combine those elements
// once each, in order, so the work is linear in the line's length.
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
        !llvm::is_contained(last->getOperands(), neutral))
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

FailureOr<Operation *> accy::kernel::buildScanKernel(RewriterBase &rw,
                                                     linalg::LinalgOp op,
                                                     const KernelPlan &plan,
                                                     const DispatchShape &shape) {
  Operation *combiner = shape.combiner;
  Type accType = combiner->getResult(0).getType();
  if (!accType.isIntOrFloat() || accType.getIntOrFloatBitWidth() > 64)
    return op.emitError() << "scan of " << accType
                          << " values: subgroup shuffles move at most 64 bits";
  FailureOr<int64_t> subgroups = subgroupsPerBlock(op, plan);
  if (failed(subgroups))
    return failure();
  int64_t threads = plan.block[0], subgroup = plan.subgroup;
  int64_t numSubgroups = *subgroups;
  Location loc = op.getLoc();
  ScanLines lines(op, shape);

  Ix host{rw, loc};
  SmallVector<Type> workgroup;
  if (numSubgroups > 1)
    workgroup.push_back(workgroupBuffer({numSubgroups}, accType));
  gpu::LaunchOp launch = createLaunch(
      rw, loc, host.product(select(loopSizes(rw, loc, op), lines.lineDims)),
      {threads, 1, 1}, workgroup);

  OpBuilder::InsertionGuard guard(rw);
  rw.setInsertionPoint(launch.getBody().front().getTerminator());
  Ix ix{rw, loc};
  SmallVector<Value> sizes = loopSizes(rw, loc, op);
  Value length = sizes[shape.scanAxis];
  SmallVector<Value> lineIvs = delinearize(ix, launch.getBlockIds().x,
                                           select(sizes, lines.lineDims));
  Value tid = launch.getThreadIds().x;
  Value lane = ix.rem(tid, ix.c(subgroup));
  Value subgroupId = ix.div(tid, ix.c(subgroup));
  Value neutral = neutralOf(rw, loc, combiner);
  OpOperand *output = op.getDpsInitOperand(0);
  Value init = plan.initValues.empty() ? Value() : plan.initValues[0];

  // Chunk after chunk of the line, one element per thread; `carry` combines
  // every element of the chunks before.
  auto chunks = rw.create<scf::ForOp>(loc, ix.c(0), length, ix.c(threads),
                                      ValueRange{neutral});
  rw.setInsertionPointToStart(chunks.getBody());
  Value carry = chunks.getRegionIterArg(0);
  Value i = ix.add(chunks.getInductionVar(), tid);
  Value inLine = ix.lt(i, length);
  SmallVector<Value> ivs = lines.pointIvs(ix, lineIvs, i);
  Value value;
  {
    auto guarded = rw.create<scf::IfOp>(loc, accType, inLine, true);
    OpBuilder::InsertionGuard ifGuard(rw);
    rw.setInsertionPointToStart(guarded.thenBlock());
    rw.create<scf::YieldOp>(loc, lines.element(rw, loc, ivs, neutral));
    rw.setInsertionPointToStart(guarded.elseBlock());
    rw.create<scf::YieldOp>(loc, neutral);
    value = guarded.getResult(0);
  }

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
    value = rw.create<arith::SelectOp>(
        loc, hasSource, combine(rw, loc, combiner, shifted, value), value);
  }

  // The subgroups' totals through shared memory: each thread adds those of
  // the subgroups before its own; every thread learns the chunk's total.
  Value total;
  if (numSubgroups > 1) {
    Value partials = launch.getWorkgroupAttributions()[0];
    {
      auto last = rw.create<scf::IfOp>(loc, ix.eq(lane, subgroup - 1), false);
      OpBuilder::InsertionGuard ifGuard(rw);
      rw.setInsertionPointToStart(last.thenBlock());
      rw.create<memref::StoreOp>(loc, value, partials, ValueRange{subgroupId});
    }
    rw.create<gpu::BarrierOp>(loc);
    Value before = neutral;
    total = rw.create<memref::LoadOp>(loc, partials, ValueRange{ix.c(0)});
    for (int64_t s = 1; s < numSubgroups; ++s) {
      // `total` combines the subgroups before s here.
      before = rw.create<arith::SelectOp>(
          loc,
          rw.create<arith::CmpIOp>(loc, arith::CmpIPredicate::uge, subgroupId,
                                   ix.c(s)),
          total, before);
      total = combine(
          rw, loc, combiner, total,
          rw.create<memref::LoadOp>(loc, partials, ValueRange{ix.c(s)}));
    }
    // The next chunk overwrites the slots.
    rw.create<gpu::BarrierOp>(loc);
    value = combine(rw, loc, combiner, before, value);
  } else {
    total = shuffle(rw, loc, value,
                    rw.create<arith::ConstantIntOp>(loc, subgroup - 1, 32),
                    subgroup, gpu::ShuffleMode::IDX);
  }

  Value result = combine(rw, loc, combiner, carry, value);
  {
    auto store = rw.create<scf::IfOp>(loc, inLine, false);
    OpBuilder::InsertionGuard ifGuard(rw);
    rw.setInsertionPointToStart(store.thenBlock());
    // The output's start, where it is not the neutral element a folded
    // fill gives.
    if (!init)
      init = loadOperand(rw, loc, op, output, ivs);
    if (!isNeutral(init, combiner))
      result = combine(rw, loc, combiner, init, result);
    storeResult(rw, loc, op, output, result, ivs, plan);
  }
  rw.create<scf::YieldOp>(loc, combine(rw, loc, combiner, carry, total));
  return launch.getOperation();
}

void accy::kernel::buildScanLoops(RewriterBase &rw, linalg::LinalgOp op,
                                  const DispatchShape &shape) {
  Location loc = op.getLoc();
  rw.setInsertionPoint(op);
  ScanLines lines(op, shape);
  Ix ix{rw, loc};
  SmallVector<Value> sizes = loopSizes(rw, loc, op);
  Value neutral = neutralOf(rw, loc, shape.combiner);
  auto each = rw.create<scf::ForOp>(
      loc, ix.c(0), ix.product(select(sizes, lines.lineDims)), ix.c(1));
  rw.setInsertionPointToStart(each.getBody());
  SmallVector<Value> lineIvs = delinearize(ix, each.getInductionVar(),
                                           select(sizes, lines.lineDims));
  auto along = rw.create<scf::ForOp>(loc, ix.c(0), sizes[shape.scanAxis],
                                     ix.c(1), ValueRange{neutral});
  rw.setInsertionPointToStart(along.getBody());
  SmallVector<Value> ivs =
      lines.pointIvs(ix, lineIvs, along.getInductionVar());
  Value carry = combine(rw, loc, shape.combiner, along.getRegionIterArg(0),
                        lines.element(rw, loc, ivs, neutral));
  OpOperand *output = op.getDpsInitOperand(0);
  storeOperand(rw, loc, op, output,
               combine(rw, loc, shape.combiner,
                       loadOperand(rw, loc, op, output, ivs), carry),
               ivs);
  rw.create<scf::YieldOp>(loc, carry);
  rw.eraseOp(op);
}
