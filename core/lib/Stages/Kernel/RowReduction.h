//===- RowReduction.h - A row reduced or mapped by its threads --*- C++ -*-===//
//
// The parts of the row-reduction schedule (RowKernel.cpp) that walk a row:
// RowReducer folds or maps the row a block (or a subgroup) takes, each
// thread a strided part of it, in runs of 16 bytes where the row allows
// (RowReducer.cpp); the row cache holds the row in the threads' registers
// where it fits, for a pipeline that reads it several times (RowCache.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LIB_STAGES_KERNEL_ROWREDUCTION_H
#define ACCY_LIB_STAGES_KERNEL_ROWREDUCTION_H

#include "PayloadEmitter.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/DenseMap.h"

namespace accy::kernel {

/// 32-bit registers a thread gives to the elements of the row it caches.
inline constexpr int64_t kRowCacheWords = 32;
/// The most runs a thread caches; every walk of the row unrolls them, so
/// that compile time grows with it (4: rows up to 4096 f32 for a block of
/// 256, 512 for a warp, as the dispatch plan's subgroup rows assume).
inline constexpr int64_t kRowCacheMaxRuns = 4;

/// The elements of the row a thread takes, in its registers: of each
/// cached buffer, element k of run r (see RowReducer::runStart) at
/// [r * width + k].
struct RowCache {
  int64_t width = 1, runs = 0;
  llvm::DenseMap<mlir::Value, llvm::SmallVector<mlir::Value>> values{};

  /// Whether the cache holds what `op` reads through `input`: a cached
  /// buffer, read through the identity map as the root reads it.
  bool holds(mlir::linalg::LinalgOp op, mlir::OpOperand &input) const {
    return values.count(input.get()) &&
           op.getMatchingIndexingMap(&input).isIdentity();
  }

  /// The element of run `run`, position `k`, that `op` reads through
  /// `input`, when the cache holds it.
  mlir::Value lookup(mlir::linalg::LinalgOp op, mlir::OpOperand &input,
                     int64_t run, int64_t k) const {
    if (!holds(op, input))
      return mlir::Value();
    return values.find(input.get())->second[run * width + k];
  }
};

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
  mlir::RewriterBase &rw;
  mlir::Location loc;
  mlir::gpu::LaunchOp launch;
  /// The threads that take a row, and each thread's place among them.
  int64_t threads, subgroup;
  mlir::Value thread = nullptr;
  /// The row this block takes: its position among the rows.
  mlir::Value rowIndex = nullptr;
  llvm::SmallVector<unsigned> parallelDims, reductionDims;
  llvm::SmallVector<mlir::Value> parallelIvs;
  /// Flattened aligned views of the buffers accessed in runs.
  llvm::DenseMap<mlir::Value, mlir::Value> flatViews{};
  /// The row in registers, while the pipeline is built for rows that fit.
  const RowCache *cache = nullptr;
  /// Whether the rows walked are known not to be a whole number of runs
  /// (those that are took the cache): walks take single elements only.
  bool partialRunsOnly = false;

  /// The row's value of reduction `op` (combiner `combiner`, shared-memory
  /// slots `partials` when the block has several subgroups) combined into
  /// `init`; inputs found in `known` are not loaded.
  mlir::Value reduce(mlir::linalg::LinalgOp op, mlir::Operation *combiner,
                     mlir::Value partials, mlir::Value init,
                     const InRegisters &known);

  /// The iteration point of `op` at this block's row and the `linear`-th
  /// element of the row.
  llvm::SmallVector<mlir::Value> rowIvs(Ix &ix, mlir::linalg::LinalgOp op,
                                        mlir::Value linear,
                                        llvm::ArrayRef<mlir::Value> sizes);

  /// Maps this block's row with elementwise `op`: each thread computes a
  /// strided part of the row and stores it.
  void mapRow(mlir::linalg::LinalgOp op, const InRegisters &known);

  /// The offset of this row's start in a flattened operand (see
  /// wholeRunsStart), set by walkRow, or before the cached pipeline.
  mlir::Value rowStart;

  /// Elements per run for `op` (see the struct's comment), or 0.
  int64_t runWidth(mlir::linalg::LinalgOp op);

  /// The flattened view of `operand`'s buffer, made once per launch, at
  /// the first use (always at the top of the launch's body).
  mlir::Value viewOf(mlir::OpOperand &operand);

  /// The row's start in a flattened operand when the row's `total`
  /// elements are a whole number of runs of `width`: the block times the
  /// row rounded down to runs, a value the backends know to be a multiple
  /// of the run.
  mlir::Value wholeRunsStart(mlir::Value total, int64_t width);

  /// The position of element `linear` of this row in a flattened operand.
  mlir::Value flatIndex(mlir::Value linear);

  /// What walkRow hands its step for each element of a run (or the single
  /// element): its position in the row, its ivs, the payload's input
  /// arguments (all loaded before the step).
  struct RowElement {
    mlir::Value linear;
    llvm::SmallVector<mlir::Value> ivs, args;
  };

  /// A flattened view an input is read from in runs: at the point (the
  /// row's start in it plus the position) or along the row (the same
  /// elements for every row, at the position: a bias, a scale).
  struct RunView {
    mlir::Value view;
    bool alongRow;
  };
  using RunViews = llvm::DenseMap<mlir::OpOperand *, RunView>;

  /// The views `op` reads its inputs from in runs, but those in `known`.
  RunViews runViews(mlir::linalg::LinalgOp op, const InRegisters &known);

  /// Element `k` of the run at `first` for `op`: its ivs and the payload's
  /// arguments, from `known`, from run `run` of the cache (-1: none), from
  /// the views `views`, or loaded.
  RowElement rowElement(mlir::linalg::LinalgOp op, const InRegisters &known,
                        const RunViews &views, mlir::Value first, int64_t k,
                        llvm::ArrayRef<mlir::Value> sizes, int64_t run);

  /// The first element of run `run` this thread takes of a row walked in
  /// runs of `width`: runs go round the threads, as in walkRow's loop.
  mlir::Value runStart(int64_t run, int64_t width);

  /// Calls `step` on the elements of the row this thread takes, threading
  /// `carried` (null for none) through, and returns what it ends with.
  mlir::Value walkRow(
      mlir::linalg::LinalgOp op, const InRegisters &known, mlir::Value carried,
      llvm::function_ref<mlir::Value(llvm::ArrayRef<RowElement>, mlir::Value)>
          step);

  /// walkRow over a row that fits in the cache: the cache's runs, unrolled,
  /// each where it lies in the row (the cache's condition makes the row a
  /// whole number of runs, and `rowStart` is set for it).
  mlir::Value walkCachedRow(
      mlir::linalg::LinalgOp op, const InRegisters &known, mlir::Value carried,
      llvm::function_ref<mlir::Value(llvm::ArrayRef<RowElement>, mlir::Value)>
          step);
};

/// The inputs of row reduction `op` worth caching: read over the whole
/// iteration space (the identity map), read the same way by a later op of
/// the pipeline over the same loops, and written by none of them.
llvm::SmallVector<mlir::OpOperand *>
rowCacheOperands(mlir::linalg::LinalgOp op,
                 llvm::ArrayRef<mlir::linalg::LinalgOp> epilogues);

/// How many runs of `width` elements of `operands` each thread caches
/// within kRowCacheWords registers (0: none).
int64_t rowCacheRuns(llvm::ArrayRef<mlir::OpOperand *> operands, int64_t width);

/// Loads this thread's runs of `operands` of row reduction `op`, for a row
/// of `total` elements that is a whole number of runs and fits the cache
/// (`row.rowStart` set for it).
RowCache loadRowCache(RowReducer &row, mlir::linalg::LinalgOp op,
                      llvm::ArrayRef<mlir::OpOperand *> operands, int64_t width,
                      int64_t runs, mlir::Value total);

} // namespace accy::kernel

#endif // ACCY_LIB_STAGES_KERNEL_ROWREDUCTION_H
