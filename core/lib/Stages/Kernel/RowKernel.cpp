//===- RowKernel.cpp - The row-reduction schedule and row pipelines -------===//
//
// One block per row of a row reduction, and the ops fused after it over the
// same rows (softmax, log_softmax, the layer-norm pattern): each reduces the
// row again or maps it, with the block of the row.
//
//===----------------------------------------------------------------------===//

#include "RowReduction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace accy;
using namespace accy::kernel;

namespace {

/// How a launch of the row-reduction schedule lays rows on its blocks:
/// `threads` take a row, `rowsPerBlock` rows share a block (a block per
/// row, or a subgroup per row).
struct RowLayout {
  int64_t threads, rowsPerBlock;
};

/// The launch of row reduction `op` and its row pipeline, rows laid out as
/// `layout` says.
FailureOr<Operation *> buildRowLaunch(RewriterBase &rw, linalg::LinalgOp op,
                                      const KernelPlan &plan,
                                      Operation *combiner, RowLayout layout) {
  Location loc = op.getLoc();
  int64_t threads = layout.threads, subgroup = plan.subgroup;
  if (threads % subgroup != 0 || threads * layout.rowsPerBlock != plan.block[0])
    return op.emitError() << "row-reduction block of " << plan.block[0]
                          << " threads does not hold " << layout.rowsPerBlock
                          << " row(s) of " << threads
                          << " threads, whole subgroups of " << subgroup;
  int64_t numSubgroups = threads / subgroup;

  // The reductions of the row: the root's and those of the pipeline, each
  // with its combiner and shared-memory slots.
  SmallVector<linalg::LinalgOp> reductions{op};
  for (linalg::LinalgOp epilogue : plan.epilogues)
    if (epilogue.getNumReductionLoops() > 0)
      reductions.push_back(epilogue);
  llvm::DenseMap<Operation *, Operation *> combiners;
  SmallVector<Type> workgroup;
  for (linalg::LinalgOp reduction : reductions) {
    // The dispatch stage joined each reduction of the pipeline as a row
    // reduction of the root's rows (followsRootRow), the memory stage
    // checked it again on buffers: its combiner is the op it yields.
    Operation *c = reduction == op ? combiner : getYieldedCombiner(reduction);
    if (!c || !arith::getNeutralElement(c))
      return reduction.emitError()
             << "row-reduction combiner has no neutral element";
    combiners[reduction] = c;
    if (numSubgroups > 1)
      workgroup.push_back(
          workgroupBuffer({numSubgroups}, c->getResult(0).getType()));
  }

  Ix host{rw, loc};
  RowReducer row{rw, loc, nullptr, threads, subgroup};
  splitLoops(op, row.parallelDims, row.reductionDims);
  Value rows =
      host.product(select(loopSizes(rw, loc, op), row.parallelDims));
  row.launch = createLaunch(rw, loc, host.ceilDiv(rows, layout.rowsPerBlock),
                            {plan.block[0], 1, 1}, workgroup);

  OpBuilder::InsertionGuard guard(rw);
  rw.setInsertionPoint(row.launch.getBody().front().getTerminator());
  Ix ix{rw, loc};
  SmallVector<Value> sizes = loopSizes(rw, loc, op);
  row.thread = row.launch.getThreadIds().x;
  row.rowIndex = row.launch.getBlockIds().x;
  if (layout.rowsPerBlock > 1) {
    // A subgroup per row; the subgroups past the last row have none.
    Value tid = row.thread;
    row.thread = ix.rem(tid, ix.c(threads));
    row.rowIndex = ix.add(ix.mul(row.rowIndex, layout.rowsPerBlock),
                          ix.div(tid, ix.c(threads)));
    auto hasRow = rw.create<scf::IfOp>(
        loc, ix.lt(row.rowIndex, ix.product(select(sizes, row.parallelDims))),
        /*withElseRegion=*/false);
    rw.setInsertionPoint(hasRow.thenBlock()->getTerminator());
  }
  Value isFirst = ix.eq(row.thread, 0);
  row.parallelIvs =
      delinearize(ix, row.rowIndex, select(sizes, row.parallelDims));
  SmallVector<Value> pointIvs =
      mergeIvs(ix, op.getNumLoops(), row.parallelDims, row.parallelIvs,
               row.reductionDims, {});
  // The point of the row's results, for the epilogues at those points.
  SmallVector<Value> point =
      applyMap(rw, loc, op.getMatchingIndexingMap(op.getDpsInitOperand(0)),
               pointIvs);
  auto storeByFirstThread = [&](linalg::LinalgOp producer, Value value,
                                ValueRange ivs) {
    auto first = rw.create<scf::IfOp>(loc, isFirst, false);
    OpBuilder::InsertionGuard ifGuard(rw);
    rw.setInsertionPointToStart(first.thenBlock());
    storeOperand(rw, loc, producer, producer.getDpsInitOperand(0), value, ivs);
  };
  unsigned slot = 0;
  auto reduceRow = [&](linalg::LinalgOp reduction, Value init,
                       const InRegisters &known) {
    Value partials;
    if (numSubgroups > 1)
      partials = row.launch.getWorkgroupAttributions()[slot];
    ++slot;
    if (!init)
      init = loadOperand(rw, loc, reduction, reduction.getDpsInitOperand(0),
                         pointIvs);
    return row.reduce(reduction, combiners[reduction], partials, init, known);
  };

  // The pipeline, from the row's first reduction to its last op.
  auto emitPipeline = [&]() {
    slot = 0;
    // The row's values so far, in every thread's registers.
    InRegisters rowValues;
    Value rootValue = reduceRow(
        op, !plan.initValues.empty() ? plan.initValues[0] : Value(), rowValues);
    storeByFirstThread(op, rootValue, pointIvs);
    rowValues[op.getDpsInits()[0]] = rootValue;
    for (auto [i, fused] : llvm::enumerate(plan.epilogues)) {
      linalg::LinalgOp epilogue = fused;
      Value init = plan.epilogueInits[i];
      Value result = epilogue.getDpsInits()[0];
      if (epilogue.getNumReductionLoops() > 0) {
        Value value = reduceRow(epilogue, init, rowValues);
        storeByFirstThread(epilogue, value, pointIvs);
        rowValues[result] = value;
      } else if (epilogue.getNumLoops() == op.getNumLoops()) {
        row.mapRow(epilogue, rowValues);
        // Later ops read the row's new elements, some stored by other
        // threads (the plan takes a subgroup per row only without them).
        if (i + 1 < plan.epilogues.size())
          rw.create<gpu::BarrierOp>(loc);
      } else {
        Value value = emitPointValue(rw, loc, epilogue, point, rowValues);
        storeByFirstThread(epilogue, value, point);
        rowValues[result] = value;
      }
    }
  };

  // Where the row fits in registers (a whole number of runs of the root's
  // width, within the cache's runs), the rows read again come from the
  // cache; other rows are walked as they come. A row of static length
  // takes one of the two, and only the runs it needs.
  SmallVector<OpOperand *> cached = rowCacheOperands(op, plan.epilogues);
  int64_t width = std::max<int64_t>(row.runWidth(op), 1);
  int64_t runs = rowCacheRuns(cached, width);
  std::optional<int64_t> length = staticTripCount(op, [&](unsigned loop) {
    return llvm::is_contained(row.reductionDims, loop);
  });
  if (length)
    runs = std::min<int64_t>(runs, llvm::divideCeil(*length, threads * width));
  bool alwaysFits = length && runs > 0 && *length % width == 0 &&
                    *length <= threads * width * runs;
  if (cached.empty() || runs == 0 || (length && !alwaysFits)) {
    emitPipeline();
    return row.launch.getOperation();
  }
  Value total = ix.product(select(sizes, row.reductionDims));
  // Before the branch: inside it, LLVM folds the rounding away (the branch
  // says the row is whole runs) and with it what proves the runs aligned.
  row.rowStart = row.wholeRunsStart(total, width);
  auto emitCachedPipeline = [&]() {
    RowCache cache = loadRowCache(row, op, cached, width, runs, total);
    row.cache = &cache;
    emitPipeline();
    row.cache = nullptr;
  };
  if (alwaysFits) {
    emitCachedPipeline();
    return row.launch.getOperation();
  }
  Value fits = ix.lt(total, ix.c(threads * width * runs + 1));
  if (width > 1)
    fits = ix.both(fits, ix.eq(ix.rem(total, ix.c(width)), 0));
  auto branch = rw.create<scf::IfOp>(loc, fits, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard branchGuard(rw);
    rw.setInsertionPoint(branch.thenBlock()->getTerminator());
    emitCachedPipeline();
    rw.setInsertionPoint(branch.elseBlock()->getTerminator());
    // A subgroup's rows are never longer than its cache: the rows that
    // miss it are those that are not whole runs.
    row.partialRunsOnly = layout.rowsPerBlock > 1 &&
                          plan.subgroupRowsUpTo <= threads * width * runs;
    emitPipeline();
  }
  return row.launch.getOperation();
}

} // namespace

FailureOr<unsigned>
accy::kernel::buildRowReductionKernel(RewriterBase &rw, linalg::LinalgOp op,
                                      const KernelPlan &plan,
                                      Operation *combiner) {
  RowLayout blockPerRow{plan.block[0], 1};
  if (!plan.rowsPerBlock) {
    if (failed(buildRowLaunch(rw, op, plan, combiner, blockPerRow)))
      return failure();
    return 1u;
  }
  // Rows of a length known only at run time: the launch function takes a
  // subgroup per row when they are short, a block per row otherwise.
  Location loc = op.getLoc();
  Ix host{rw, loc};
  SmallVector<unsigned> parallelDims, reductionDims;
  splitLoops(op, parallelDims, reductionDims);
  Value length = host.product(select(loopSizes(rw, loc, op), reductionDims));
  auto isShort = rw.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ule,
                                          length,
                                          host.c(plan.subgroupRowsUpTo));
  auto branch = rw.create<scf::IfOp>(loc, isShort, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(rw);
  rw.setInsertionPoint(branch.thenBlock()->getTerminator());
  if (failed(buildRowLaunch(rw, op, plan, combiner,
                            {plan.subgroup, plan.rowsPerBlock})))
    return failure();
  rw.setInsertionPoint(branch.elseBlock()->getTerminator());
  if (failed(buildRowLaunch(rw, op, plan, combiner, blockPerRow)))
    return failure();
  return 2u;
}
