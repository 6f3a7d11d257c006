//===- RowKernel.cpp - The row-reduction schedule and row pipelines -------===//
//
// One block per row of a row reduction, and the ops fused after it over the
// same rows (softmax, log_softmax, the layer-norm pattern): each reduces the
// row again or maps it, with the block of the row.
//
//===----------------------------------------------------------------------===//

#include "PayloadEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace accy;
using namespace accy::kernel;

namespace {

/// Reductions of a row by a block: each thread folds a strided part of the
/// row, subgroups combine with butterfly shuffles, and subgroups through a
/// shared-memory slot each; every thread ends with the row's value.
///
/// When the reduction loops are the innermost ones, an operand read over
/// the whole iteration space holds each row contiguously. If such operands
/// are 16-byte aligned and the row is a whole number of runs of 16 bytes,
/// each thread takes runs of consecutive elements instead of single ones:
/// a run's loads come first, from flattened views at offsets the backends
/// can tell are multiples of 16 bytes, so that they merge into 128-bit
/// loads (and stores, when mapping the row).
struct RowReducer {
  RewriterBase &rw;
  Location loc;
  gpu::LaunchOp launch;
  int64_t threads, subgroup;
  SmallVector<unsigned> parallelDims, reductionDims;
  SmallVector<Value> parallelIvs;
  /// Flattened aligned views of the buffers accessed in runs.
  llvm::DenseMap<Value, Value> flatViews{};

  /// The row's value of reduction `op` (combiner `combiner`, shared-memory
  /// slots `partials` when the block has several subgroups) combined into
  /// `init`; inputs found in `known` are not loaded.
  Value reduce(linalg::LinalgOp op, Operation *combiner, Value partials,
               Value init, const InRegisters &known) {
    Ix ix{rw, loc};
    Value tid = launch.getThreadIds().x;
    Value start = rw.create<arith::ConstantOp>(
        loc, *arith::getNeutralElement(combiner));
    Value acc = walkRow(op, known, start,
                        [&](ArrayRef<RowElement> elements, Value carried) {
                          for (const RowElement &element : elements) {
                            SmallVector<Value> args(element.args);
                            args.push_back(carried);
                            carried =
                                emitPayload(rw, op, element.ivs, args)[0];
                          }
                          return carried;
                        });
    for (int64_t offset = subgroup / 2; offset >= 1; offset /= 2) {
      auto shuffle = rw.create<gpu::ShuffleOp>(
          loc, acc, static_cast<int32_t>(offset),
          static_cast<int32_t>(subgroup), gpu::ShuffleMode::XOR);
      acc = combine(rw, loc, combiner, acc, shuffle.getShuffleResult());
    }
    if (partials) {
      Value lane = ix.rem(tid, ix.c(subgroup));
      Value subgroupId = ix.div(tid, ix.c(subgroup));
      {
        auto leader = rw.create<scf::IfOp>(loc, ix.eq(lane, 0), false);
        OpBuilder::InsertionGuard ifGuard(rw);
        rw.setInsertionPointToStart(leader.thenBlock());
        rw.create<memref::StoreOp>(loc, acc, partials, ValueRange{subgroupId});
      }
      rw.create<gpu::BarrierOp>(loc);
      // Every thread combines the slots in the same order.
      acc = rw.create<memref::LoadOp>(loc, partials, ValueRange{ix.c(0)});
      for (int64_t i = 1; i < threads / subgroup; ++i)
        acc = combine(
            rw, loc, combiner, acc,
            rw.create<memref::LoadOp>(loc, partials, ValueRange{ix.c(i)}));
    }
    return combine(rw, loc, combiner, init, acc);
  }

  /// The iteration point of `op` at this block's row and the `linear`-th
  /// element of the row.
  SmallVector<Value> rowIvs(Ix &ix, linalg::LinalgOp op, Value linear,
                            ArrayRef<Value> sizes) {
    return mergeIvs(ix, op.getNumLoops(), parallelDims, parallelIvs,
                    reductionDims,
                    delinearize(ix, linear, select(sizes, reductionDims)));
  }

  /// Maps this block's row with elementwise `op`: each thread computes a
  /// strided part of the row and stores it.
  void mapRow(linalg::LinalgOp op, const InRegisters &known) {
    OpOperand *output = op.getDpsInitOperand(0);
    Value flatOutput = runWidth(op) && isAlignedAtPoint(op, *output)
                           ? viewOf(*output)
                           : Value();
    walkRow(op, known, Value(),
            [&](ArrayRef<RowElement> elements, Value) {
              SmallVector<Value> values;
              for (const RowElement &element : elements) {
                SmallVector<Value> args(element.args);
                args.push_back(
                    op.getMatchingBlockArgument(output).use_empty()
                        ? Value()
                        : loadOperand(rw, loc, op, output, element.ivs));
                values.push_back(emitPayload(rw, op, element.ivs, args)[0]);
              }
              // A run stores into the flattened output, after its loads.
              for (auto [element, value] : llvm::zip(elements, values))
                if (flatOutput && elements.size() > 1)
                  rw.create<memref::StoreOp>(loc, value, flatOutput,
                                             flatIndex(element.linear));
                else
                  storeOperand(rw, loc, op, output, value, element.ivs);
              return Value();
            });
  }

  /// The offset of this row's start in a flattened operand: the row
  /// (the block) times the row's length, rounded down to a whole number of
  /// runs where runs are taken (the same value then, but one the backends
  /// know to be a multiple of the run).
  Value rowStart;

  /// Elements per run for `op` (see the struct's comment), or 0.
  int64_t runWidth(linalg::LinalgOp op) {
    unsigned numLoops = op.getNumLoops();
    for (auto [i, d] : llvm::enumerate(reductionDims))
      if (d != numLoops - reductionDims.size() + i)
        return 0;
    int64_t widest = 0;
    for (OpOperand &operand : op->getOpOperands())
      if (isAlignedAtPoint(op, operand))
        widest = std::max(widest, storedBytes(elementOf(operand.get())));
    if (widest == 0 || kVectorBytes % widest != 0)
      return 0;
    return kVectorBytes / widest > 1 ? kVectorBytes / widest : 0;
  }

  /// The flattened view of `operand`'s buffer, made once per launch, at
  /// the first use (always at the top of the launch's body).
  Value viewOf(OpOperand &operand) {
    Value &view = flatViews[operand.get()];
    if (!view)
      view = alignedFlatView(rw, loc, operand.get());
    return view;
  }

  /// The position of element `linear` of this row in a flattened operand.
  Value flatIndex(Value linear) {
    Ix ix{rw, loc};
    return ix.add(rowStart, linear);
  }

  /// What walkRow hands its step for each element of a run (or the single
  /// element): its position in the row, its ivs, the payload's input
  /// arguments (all loaded before the step).
  struct RowElement {
    Value linear;
    SmallVector<Value> ivs, args;
  };

  /// Calls `step` on the elements of the row this thread takes, threading
  /// `carried` (null for none) through, and returns what it ends with.
  Value walkRow(linalg::LinalgOp op, const InRegisters &known, Value carried,
                function_ref<Value(ArrayRef<RowElement>, Value)> step) {
    Ix ix{rw, loc};
    SmallVector<Value> sizes = loopSizes(rw, loc, op);
    Value total = ix.product(select(sizes, reductionDims));
    Value tid = launch.getThreadIds().x;
    // A range over `carried` itself, not over a temporary list.
    ValueRange carriedRange = carried ? ValueRange(carried) : ValueRange();
    llvm::DenseMap<Value, Value> flat;
    auto loop = [&](int64_t width) {
      auto each = rw.create<scf::ForOp>(loc, ix.mul(tid, width), total,
                                        ix.c(threads * width), carriedRange);
      OpBuilder::InsertionGuard loopGuard(rw);
      // Without iter_args, scf.for's body comes with its yield.
      if (carried)
        rw.setInsertionPointToStart(each.getBody());
      else
        rw.setInsertionPoint(each.getBody()->getTerminator());
      Ix in{rw, loc};
      SmallVector<RowElement> elements;
      for (int64_t k = 0; k < width; ++k) {
        RowElement element;
        element.linear = in.add(each.getInductionVar(), in.c(k));
        element.ivs = rowIvs(in, op, element.linear, sizes);
        for (OpOperand *input : op.getDpsInputOperands()) {
          if (Value value = known.lookup(input->get()))
            element.args.push_back(value);
          else if (op.getMatchingBlockArgument(input).use_empty())
            element.args.push_back(Value());
          else if (Value view = flat.lookup(input->get()))
            element.args.push_back(rw.create<memref::LoadOp>(
                loc, view, flatIndex(element.linear)));
          else
            element.args.push_back(
                loadOperand(rw, loc, op, input, element.ivs));
        }
        elements.push_back(std::move(element));
      }
      Value next =
          step(elements, carried ? each.getRegionIterArg(0) : Value());
      if (!carried)
        return Value();
      rw.create<scf::YieldOp>(loc, next);
      return each.getResult(0);
    };
    int64_t width = runWidth(op);
    if (!width)
      return loop(1);
    for (OpOperand *input : op.getDpsInputOperands())
      if (isAlignedAtPoint(op, *input) && !known.count(input->get()))
        flat[input->get()] = viewOf(*input);
    // Rows of a whole number of runs take runs; others single elements.
    Value whole = ix.eq(ix.rem(total, ix.c(width)), 0);
    rowStart = ix.mul(launch.getBlockIds().x,
                      ix.mul(ix.div(total, ix.c(width)), width));
    auto branch = rw.create<scf::IfOp>(
        loc, carried ? TypeRange{carried.getType()} : TypeRange{}, whole,
        true);
    // Without results, scf.if's blocks come with their yields.
    auto inBranch = [&](Block *block, int64_t branchWidth) {
      OpBuilder::InsertionGuard ifGuard(rw);
      if (!carried) {
        rw.setInsertionPoint(block->getTerminator());
        loop(branchWidth);
        return;
      }
      rw.setInsertionPointToStart(block);
      rw.create<scf::YieldOp>(loc, loop(branchWidth));
    };
    inBranch(branch.thenBlock(), width);
    // The single elements of a row that is not whole runs: no views.
    flat.clear();
    inBranch(branch.elseBlock(), 1);
    return carried ? branch.getResult(0) : Value();
  }
};

/// The combiner of a reduction planned as a row reduction, or null.
Operation *rowCombiner(linalg::LinalgOp op) {
  DispatchShape shape = classifyDispatch(op);
  return shape.schedule == Schedule::RowReduction ? shape.combiner : nullptr;
}

} // namespace

FailureOr<Operation *>
accy::kernel::buildRowReductionKernel(RewriterBase &rw, linalg::LinalgOp op,
                                      const KernelPlan &plan,
                                      Operation *combiner) {
  Location loc = op.getLoc();
  int64_t threads = plan.block[0], subgroup = plan.subgroup;
  FailureOr<int64_t> subgroups = subgroupsPerBlock(op, plan);
  if (failed(subgroups))
    return failure();
  int64_t numSubgroups = *subgroups;

  // The reductions of the row: the root's and those of the pipeline, each
  // with its combiner and shared-memory slots.
  SmallVector<linalg::LinalgOp> reductions{op};
  for (linalg::LinalgOp epilogue : plan.epilogues)
    if (epilogue.getNumReductionLoops() > 0)
      reductions.push_back(epilogue);
  llvm::DenseMap<Operation *, Operation *> combiners;
  SmallVector<Type> workgroup;
  for (linalg::LinalgOp reduction : reductions) {
    Operation *c = reduction == op ? combiner : rowCombiner(reduction);
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
  row.launch = createLaunch(rw, loc, rows, {threads, 1, 1}, workgroup);

  OpBuilder::InsertionGuard guard(rw);
  rw.setInsertionPoint(row.launch.getBody().front().getTerminator());
  Ix ix{rw, loc};
  SmallVector<Value> sizes = loopSizes(rw, loc, op);
  Value isFirst = ix.eq(row.launch.getThreadIds().x, 0);
  row.parallelIvs = delinearize(ix, row.launch.getBlockIds().x,
                                select(sizes, row.parallelDims));
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
      // Later ops read the row's new elements, some stored by other threads.
      if (i + 1 < plan.epilogues.size())
        rw.create<gpu::BarrierOp>(loc);
    } else {
      Value value = emitPointValue(rw, loc, epilogue, point, rowValues);
      storeByFirstThread(epilogue, value, point);
      rowValues[result] = value;
    }
  }
  return row.launch.getOperation();
}
