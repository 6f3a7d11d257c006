//===- RowCache.cpp - A row in the threads' registers ---------------------===//

#include "RowReduction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace accy;
using namespace accy::kernel;

/// The inputs of row reduction `op` worth caching: read over the whole
/// iteration space (the identity map), read the same way by a later op of
/// the pipeline over the same loops, and written by none of them.
SmallVector<OpOperand *>
accy::kernel::rowCacheOperands(linalg::LinalgOp op,
                               ArrayRef<linalg::LinalgOp> epilogues) {
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
int64_t accy::kernel::rowCacheRuns(ArrayRef<OpOperand *> operands,
                                   int64_t width) {
  int64_t wordsPerRun = 0;
  for (OpOperand *operand : operands)
    wordsPerRun +=
        llvm::divideCeil(width * storedBytes(elementOf(operand->get())), 4);
  if (wordsPerRun == 0)
    return 0;
  return std::min(kRowCacheMaxRuns, kRowCacheWords / wordsPerRun);
}

/// Loads this thread's runs of `operands` of row reduction `op`, for a row
/// of `total` elements that is a whole number of runs and fits the cache
/// (`row.rowStart` set for it).
RowCache accy::kernel::loadRowCache(RowReducer &row, linalg::LinalgOp op,
                                    ArrayRef<OpOperand *> operands,
                                    int64_t width, int64_t runs, Value total) {
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
