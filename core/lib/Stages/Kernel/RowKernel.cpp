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
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace accy;
using namespace accy::kernel;

namespace {

/// 32-bit registers a thread gives to the elements of the row it caches.
constexpr int64_t kRowCacheWords = 32;
/// The most runs a thread caches; every walk of the row unrolls them, so
/// that compile time grows with it (4: rows up to 4096 f32 for a block of
/// 256, 512 for a warp, as the dispatch plan's subgroup rows assume).
constexpr int64_t kRowCacheMaxRuns = 4;

/// The elements of the row a thread takes, in its registers: of each
/// cached buffer, element k of run r (see RowReducer::runStart) at
/// [r * width + k].
struct RowCache {
  int64_t width = 1, runs = 0;
  llvm::DenseMap<Value, SmallVector<Value>> values{};

  /// Whether the cache holds what `op` reads through `input`: a cached
  /// buffer, read through the identity map as the root reads it.
  bool holds(linalg::LinalgOp op, OpOperand &input) const {
    return values.count(input.get()) &&
           op.getMatchingIndexingMap(&input).isIdentity();
  }

  /// The element of run `run`, position `k`, that `op` reads through
  /// `input`, when the cache holds it.
  Value lookup(linalg::LinalgOp op, OpOperand &input, int64_t run,
               int64_t k) const {
    if (!holds(op, input))
      return Value();
    return values.find(input.get())->second[run * width + k];
  }
};

/// The subgroup reduction of `combiner`, a reduction's combiner with a
/// neutral element (the dispatch stage plans no other): each of those has
/// its gpu.all_reduce operation.
gpu::AllReduceOperation subgroupOperation(Operation *combiner) {
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
///
/// A row pipeline reads the root's row once per op. Where the row fits in
/// the threads' registers, the rows read by several ops of the pipeline
/// are loaded once, at the start, into a RowCache, and the walks over the
/// row take their elements from it.
struct RowReducer {
  RewriterBase &rw;
  Location loc;
  gpu::LaunchOp launch;
  /// The threads that take a row, and each thread's place among them.
  int64_t threads, subgroup;
  Value thread = nullptr;
  /// The row this block takes: its position among the rows.
  Value rowIndex = nullptr;
  SmallVector<unsigned> parallelDims, reductionDims;
  SmallVector<Value> parallelIvs;
  /// Flattened aligned views of the buffers accessed in runs.
  llvm::DenseMap<Value, Value> flatViews{};
  /// The row in registers, while the pipeline is built for rows that fit.
  const RowCache *cache = nullptr;
  /// Whether the rows walked are known not to be a whole number of runs
  /// (those that are took the cache): walks take single elements only.
  bool partialRunsOnly = false;

  /// The row's value of reduction `op` (combiner `combiner`, shared-memory
  /// slots `partials` when the block has several subgroups) combined into
  /// `init`; inputs found in `known` are not loaded.
  Value reduce(linalg::LinalgOp op, Operation *combiner, Value partials,
               Value init, const InRegisters &known) {
    Ix ix{rw, loc};
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
    // Every lane of the subgroup takes part (the target stage lowers this
    // to butterfly shuffles over the target's subgroup).
    acc =
        rw.create<gpu::SubgroupReduceOp>(loc, acc, subgroupOperation(combiner),
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

  /// The offset of this row's start in a flattened operand (see
  /// wholeRunsStart), set by walkRow, or before the cached pipeline.
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
    if (!view) {
      OpBuilder::InsertionGuard guard(rw);
      rw.setInsertionPointToStart(&launch.getBody().front());
      view = alignedFlatView(rw, loc, operand.get());
    }
    return view;
  }

  /// The row's start in a flattened operand when the row's `total`
  /// elements are a whole number of runs of `width`: the block times the
  /// row rounded down to runs, a value the backends know to be a multiple
  /// of the run.
  Value wholeRunsStart(Value total, int64_t width) {
    Ix ix{rw, loc};
    return ix.mul(rowIndex, ix.mul(ix.div(total, ix.c(width)), width));
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

  /// A flattened view an input is read from in runs: at the point (the
  /// row's start in it plus the position) or along the row (the same
  /// elements for every row, at the position: a bias, a scale).
  struct RunView {
    Value view;
    bool alongRow;
  };
  using RunViews = llvm::DenseMap<OpOperand *, RunView>;

  /// The views `op` reads its inputs from in runs, but those in `known`.
  RunViews runViews(linalg::LinalgOp op, const InRegisters &known) {
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

  /// Element `k` of the run at `first` for `op`: its ivs and the payload's
  /// arguments, from `known`, from run `run` of the cache (-1: none), from
  /// the views `views`, or loaded.
  RowElement rowElement(linalg::LinalgOp op, const InRegisters &known,
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
      else if (Value cached = run >= 0 ? cache->lookup(op, *input, run, k)
                                       : Value())
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

  /// The first element of run `run` this thread takes of a row walked in
  /// runs of `width`: runs go round the threads, as in walkRow's loop.
  Value runStart(int64_t run, int64_t width) {
    Ix ix{rw, loc};
    return ix.add(ix.mul(thread, width), ix.c(run * threads * width));
  }

  /// Calls `step` on the elements of the row this thread takes, threading
  /// `carried` (null for none) through, and returns what it ends with.
  Value walkRow(linalg::LinalgOp op, const InRegisters &known, Value carried,
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
        elements.push_back(rowElement(op, known, views,
                                      each.getInductionVar(), k, sizes,
                                      /*run=*/-1));
      Value next =
          step(elements, carried ? each.getRegionIterArg(0) : Value());
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
    views.clear();
    inBranch(branch.elseBlock(), 1);
    return carried ? branch.getResult(0) : Value();
  }

  /// walkRow over a row that fits in the cache: the cache's runs, unrolled,
  /// each where it lies in the row (the cache's condition makes the row a
  /// whole number of runs, and `rowStart` is set for it).
  Value walkCachedRow(linalg::LinalgOp op, const InRegisters &known,
                      Value carried,
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
    bool unguarded = carried && llvm::all_of(op.getDpsInputOperands(),
                                             [&](OpOperand *input) {
                                               return known.count(
                                                          input->get()) ||
                                                      cache->holds(op, *input);
                                             });
    for (int64_t run = 0; run < cache->runs; ++run) {
      Value first = runStart(run, width);
      Value inRow = ix.lt(first, total);
      auto elementsOfRun = [&]() {
        SmallVector<RowElement> elements;
        for (int64_t k = 0; k < width; ++k)
          elements.push_back(
              rowElement(op, known, views, first, k, sizes, run));
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
};

/// The combiner of a reduction planned as a row reduction, or null.
Operation *rowCombiner(linalg::LinalgOp op) {
  DispatchShape shape = classifyDispatch(op);
  return shape.schedule == Schedule::RowReduction ? shape.combiner : nullptr;
}

/// The inputs of row reduction `op` worth caching: read over the whole
/// iteration space (the identity map), read the same way by a later op of
/// the pipeline over the same loops, and written by none of them.
SmallVector<OpOperand *>
rowCacheOperands(linalg::LinalgOp op, ArrayRef<linalg::LinalgOp> epilogues) {
  auto writes = [&](Value buffer) {
    return op.getDpsInits()[0] == buffer ||
           llvm::any_of(epilogues, [&](linalg::LinalgOp epilogue) {
             return epilogue.getDpsInits()[0] == buffer;
           });
  };
  auto readsAgain = [&](Value buffer) {
    return llvm::any_of(epilogues, [&](linalg::LinalgOp epilogue) {
      return epilogue.getNumLoops() == op.getNumLoops() &&
             llvm::any_of(epilogue.getDpsInputOperands(), [&](OpOperand *in) {
               return in->get() == buffer &&
                      epilogue.getMatchingIndexingMap(in).isIdentity();
             });
    });
  };
  SmallVector<OpOperand *> operands;
  llvm::SmallPtrSet<Value, 4> buffers;
  for (OpOperand *input : op.getDpsInputOperands())
    if (op.getMatchingIndexingMap(input).isIdentity() &&
        !op.getMatchingBlockArgument(input).use_empty() &&
        readsAgain(input->get()) && !writes(input->get()) &&
        buffers.insert(input->get()).second)
      operands.push_back(input);
  return operands;
}

/// How many runs of `width` elements of `operands` each thread caches
/// within kRowCacheWords registers (0: none).
int64_t rowCacheRuns(ArrayRef<OpOperand *> operands, int64_t width) {
  int64_t wordsPerRun = 0;
  for (OpOperand *operand : operands)
    wordsPerRun += llvm::divideCeil(
        width * storedBytes(elementOf(operand->get())), 4);
  if (wordsPerRun == 0)
    return 0;
  return std::min(kRowCacheMaxRuns, kRowCacheWords / wordsPerRun);
}

/// Loads this thread's runs of `operands` of row reduction `op`, for a row
/// of `total` elements that is a whole number of runs and fits the cache
/// (`row.rowStart` set for it).
RowCache loadRowCache(RowReducer &row, linalg::LinalgOp op,
                      ArrayRef<OpOperand *> operands, int64_t width,
                      int64_t runs, Value total) {
  RewriterBase &rw = row.rw;
  Location loc = row.loc;
  Ix ix{rw, loc};
  SmallVector<Value> sizes = loopSizes(rw, loc, op);
  RowCache cache{width, runs};
  llvm::DenseMap<Value, Value> views;
  if (width > 1)
    for (OpOperand *operand : operands)
      if (isAlignedAtPoint(op, *operand))
        views[operand->get()] = row.viewOf(*operand);
  for (int64_t run = 0; run < runs; ++run) {
    Value first = row.runStart(run, width);
    SmallVector<Type> types;
    for (OpOperand *operand : operands)
      types.append(width, elementOf(operand->get()));
    // Runs past the row's end hold zeros, which the walks fold but do not
    // keep.
    auto inRow = rw.create<scf::IfOp>(loc, types, ix.lt(first, total),
                                      /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(rw);
    rw.setInsertionPointToStart(inRow.thenBlock());
    Ix in{rw, loc};
    SmallVector<Value> loaded;
    for (OpOperand *operand : operands)
      for (int64_t k = 0; k < width; ++k) {
        Value linear = in.add(first, in.c(k));
        Value view = views.lookup(operand->get());
        loaded.push_back(
            view ? rw.create<memref::LoadOp>(loc, view, row.flatIndex(linear))
                       .getResult()
                 : loadOperand(rw, loc, op, operand,
                               row.rowIvs(in, op, linear, sizes)));
      }
    rw.create<scf::YieldOp>(loc, loaded);
    rw.setInsertionPointToStart(inRow.elseBlock());
    SmallVector<Value> zeros;
    for (Type type : types)
      zeros.push_back(zeroOf(rw, loc, type));
    rw.create<scf::YieldOp>(loc, zeros);
    for (auto [i, operand] : llvm::enumerate(operands))
      cache.values[operand->get()].append(
          inRow.getResults().begin() + i * width,
          inRow.getResults().begin() + (i + 1) * width);
  }
  return cache;
}

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
