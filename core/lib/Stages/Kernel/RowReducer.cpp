//===- RowReducer.cpp - A row reduced or mapped by its threads ------------===//

#include "RowReduction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace accy;
using namespace accy::kernel;

/// The subgroup reduction of `combiner`, a reduction's combiner with a
/// neutral element (the dispatch stage plans no other): each of those has
/// its gpu.all_reduce operation.
static gpu::AllReduceOperation subgroupOperation(Operation *combiner) {
  using Op = gpu::AllReduceOperation;
  return llvm::TypeSwitch<Operation *, Op>(combiner)
      .Case<arith::AddFOp, arith::AddIOp>([](auto) { return Op::ADD; })
      .Case<arith::MulFOp, arith::MulIOp>([](auto) { return Op::MUL; })
      .Case([](arith::MaximumFOp) { return Op::MAXIMUMF; })
      .Case([](arith::MinimumFOp) { return Op::MINIMUMF; })
      .Case([](arith::MaxNumFOp) { return Op::MAXNUMF; })
      .Case([](arith::MinNumFOp) { return Op::MINNUMF; })
      .Case([](arith::MaxSIOp) { return Op::MAXSI; })
      .Case([](arith::MinSIOp) { return Op::MINSI; })
      .Case([](arith::MaxUIOp) { return Op::MAXUI; })
      .Case([](arith::MinUIOp) { return Op::MINUI; })
      .Case([](arith::AndIOp) { return Op::AND; })
      .Case([](arith::OrIOp) { return Op::OR; })
      .Case([](arith::XOrIOp) { return Op::XOR; })
      .Default([](Operation *) -> Op {
        llvm_unreachable("a combiner without a neutral element");
      });
}

Value RowReducer::reduce(linalg::LinalgOp op, Operation *combiner,
                         Value partials, Value init, const InRegisters &known) {
  Ix ix{rw, loc};
  Value start =
      rw.create<arith::ConstantOp>(loc, *arith::getNeutralElement(combiner));
  Value acc = walkRow(op, known, start,
                      [&](ArrayRef<RowElement> elements, Value carried) {
                        for (const RowElement &element : elements) {
                          SmallVector<Value> args(element.args);
                          args.push_back(carried);
                          carried = emitPayload(rw, op, element.ivs, args)[0];
                        }
                        return carried;
                      });
  // Every lane of the subgroup takes part (the target stage lowers this
  // to butterfly shuffles over the target's subgroup).
  acc = rw.create<gpu::SubgroupReduceOp>(loc, acc, subgroupOperation(combiner),
                                         /*uniform=*/true);
  if (partials) {
    Value lane = ix.rem(thread, ix.c(subgroup));
    Value subgroupId = ix.div(thread, ix.c(subgroup));
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

SmallVector<Value> RowReducer::rowIvs(Ix &ix, linalg::LinalgOp op, Value linear,
                                      ArrayRef<Value> sizes) {
  return mergeIvs(ix, op.getNumLoops(), parallelDims, parallelIvs,
                  reductionDims,
                  delinearize(ix, linear, select(sizes, reductionDims)));
}

void RowReducer::mapRow(linalg::LinalgOp op, const InRegisters &known) {
  OpOperand *output = op.getDpsInitOperand(0);
  Value flatOutput =
      runWidth(op) && isAlignedAtPoint(op, *output) ? viewOf(*output) : Value();
  walkRow(op, known, Value(), [&](ArrayRef<RowElement> elements, Value) {
    SmallVector<Value> values;
    for (const RowElement &element : elements) {
      SmallVector<Value> args(element.args);
      args.push_back(op.getMatchingBlockArgument(output).use_empty()
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

int64_t RowReducer::runWidth(linalg::LinalgOp op) {
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

Value RowReducer::viewOf(OpOperand &operand) {
  Value &view = flatViews[operand.get()];
  if (!view) {
    OpBuilder::InsertionGuard guard(rw);
    rw.setInsertionPointToStart(&launch.getBody().front());
    view = alignedFlatView(rw, loc, operand.get());
  }
  return view;
}

Value RowReducer::wholeRunsStart(Value total, int64_t width) {
  Ix ix{rw, loc};
  return ix.mul(rowIndex, ix.mul(ix.div(total, ix.c(width)), width));
}

Value RowReducer::flatIndex(Value linear) {
  Ix ix{rw, loc};
  return ix.add(rowStart, linear);
}

RowReducer::RunViews RowReducer::runViews(linalg::LinalgOp op,
                                          const InRegisters &known) {
  RunViews views;
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (known.count(input->get()))
      continue;
    if (isAlignedAtPoint(op, *input))
      views[input] = {viewOf(*input), false};
    else if (isAlignedAlong(op, *input, reductionDims))
      views[input] = {viewOf(*input), true};
  }
  return views;
}

RowReducer::RowElement
RowReducer::rowElement(linalg::LinalgOp op, const InRegisters &known,
                       const RunViews &views, Value first, int64_t k,
                       ArrayRef<Value> sizes, int64_t run) {
  Ix in{rw, loc};
  RowElement element;
  element.linear = in.add(first, in.c(k));
  element.ivs = rowIvs(in, op, element.linear, sizes);
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (Value value = known.lookup(input->get()))
      element.args.push_back(value);
    else if (op.getMatchingBlockArgument(input).use_empty())
      element.args.push_back(Value());
    else if (Value cached =
                 run >= 0 ? cache->lookup(op, *input, run, k) : Value())
      element.args.push_back(cached);
    else if (auto it = views.find(input); it != views.end())
      element.args.push_back(rw.create<memref::LoadOp>(
          loc, it->second.view,
          it->second.alongRow ? element.linear : flatIndex(element.linear)));
    else
      element.args.push_back(loadOperand(rw, loc, op, input, element.ivs));
  }
  return element;
}

Value RowReducer::runStart(int64_t run, int64_t width) {
  Ix ix{rw, loc};
  return ix.add(ix.mul(thread, width), ix.c(run * threads * width));
}

Value RowReducer::walkRow(
    linalg::LinalgOp op, const InRegisters &known, Value carried,
    function_ref<Value(ArrayRef<RowElement>, Value)> step) {
  if (cache)
    return walkCachedRow(op, known, carried, step);
  Ix ix{rw, loc};
  SmallVector<Value> sizes = loopSizes(rw, loc, op);
  Value total = ix.product(select(sizes, reductionDims));
  // A range over `carried` itself, not over a temporary list.
  ValueRange carriedRange = carried ? ValueRange(carried) : ValueRange();
  RunViews views;
  auto loop = [&](int64_t width) {
    auto each = rw.create<scf::ForOp>(loc, ix.mul(thread, width), total,
                                      ix.c(threads * width), carriedRange);
    OpBuilder::InsertionGuard loopGuard(rw);
    // Without iter_args, scf.for's body comes with its yield.
    if (carried)
      rw.setInsertionPointToStart(each.getBody());
    else
      rw.setInsertionPoint(each.getBody()->getTerminator());
    SmallVector<RowElement> elements;
    for (int64_t k = 0; k < width; ++k)
      elements.push_back(rowElement(op, known, views, each.getInductionVar(), k,
                                    sizes,
                                    /*run=*/-1));
    Value next = step(elements, carried ? each.getRegionIterArg(0) : Value());
    if (!carried)
      return Value();
    rw.create<scf::YieldOp>(loc, next);
    return each.getResult(0);
  };
  int64_t width = runWidth(op);
  if (!width || partialRunsOnly)
    return loop(1);
  views = runViews(op, known);
  // Rows of a whole number of runs take runs; others single elements.
  Value whole = ix.eq(ix.rem(total, ix.c(width)), 0);
  rowStart = wholeRunsStart(total, width);
  auto branch = rw.create<scf::IfOp>(
      loc, carried ? TypeRange{carried.getType()} : TypeRange{}, whole, true);
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
  views.clear();
  inBranch(branch.elseBlock(), 1);
  return carried ? branch.getResult(0) : Value();
}

Value RowReducer::walkCachedRow(
    linalg::LinalgOp op, const InRegisters &known, Value carried,
    function_ref<Value(ArrayRef<RowElement>, Value)> step) {
  Ix ix{rw, loc};
  SmallVector<Value> sizes = loopSizes(rw, loc, op);
  Value total = ix.product(select(sizes, reductionDims));
  int64_t width = cache->width;
  RunViews views = width > 1 ? runViews(op, known) : RunViews();
  // A reduction that reads only the cache and the row's values folds
  // every run and keeps the fold where the run is in the row: no branch,
  // and the ops it shares with later walks (softmax's exp(x - max)) are
  // the same ops on the same values, which CSE merges.
  bool unguarded =
      carried && llvm::all_of(op.getDpsInputOperands(), [&](OpOperand *input) {
        return known.count(input->get()) || cache->holds(op, *input);
      });
  for (int64_t run = 0; run < cache->runs; ++run) {
    Value first = runStart(run, width);
    Value inRow = ix.lt(first, total);
    auto elementsOfRun = [&]() {
      SmallVector<RowElement> elements;
      for (int64_t k = 0; k < width; ++k)
        elements.push_back(rowElement(op, known, views, first, k, sizes, run));
      return elements;
    };
    if (unguarded) {
      carried = rw.create<arith::SelectOp>(
          loc, inRow, step(elementsOfRun(), carried), carried);
      continue;
    }
    // Otherwise only the runs in the row are read (and stored).
    auto guard = rw.create<scf::IfOp>(
        loc, carried ? TypeRange{carried.getType()} : TypeRange{}, inRow,
        /*withElseRegion=*/bool(carried));
    OpBuilder::InsertionGuard ifGuard(rw);
    if (carried)
      rw.setInsertionPointToStart(guard.thenBlock());
    else
      rw.setInsertionPoint(guard.thenBlock()->getTerminator());
    Value next = step(elementsOfRun(), carried);
    if (!carried)
      continue;
    rw.create<scf::YieldOp>(loc, next);
    rw.setInsertionPointToStart(guard.elseBlock());
    rw.create<scf::YieldOp>(loc, carried);
    carried = guard.getResult(0);
  }
  return carried;
}
