//===- KernelBuilder.h - GPU kernels for each schedule ----------*- C++ -*-===//
//
// Builds the GPU code of one dispatch (a linalg op on buffers) for one
// target: upstream parallel loops mapped to blocks and threads for the
// elementwise schedule, and explicit gpu.launch ops for the reduction and
// contraction schedules.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LIB_STAGES_KERNEL_KERNELBUILDER_H
#define ACCY_LIB_STAGES_KERNEL_KERNELBUILDER_H

#include "accy/Stages/Dispatch/Plan.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace accy::kernel {

/// What a kernel builder needs to know about the dispatch and the target.
struct KernelPlan {
  Schedule schedule = Schedule::Elementwise;
  /// What the planned kernel is built from (getPlannedShape).
  DispatchShape shape;
  llvm::SmallVector<int64_t> block;
  llvm::SmallVector<int64_t> tile;
  int64_t subgroup = 32;
  /// For scans: whether the target lowers `gpu.shuffle up` (else lanes are
  /// read with `idx` shuffles); the lines a block takes when each thread
  /// walks a line (0: never), and the line count from which it does when
  /// that is decided at run time (0: always); the elements of a line each
  /// block takes when several blocks share a line (0: never), and the line
  /// count below which they do when that is decided at run time (0: always).
  bool shuffleUp = true;
  int64_t linesPerBlock = 0, threadLinesFrom = 0;
  int64_t lineTile = 0, splitLinesBelow = 0;
  /// For scans along an outer axis: each line in `lineChunks` chunks, a
  /// thread each (0: never); below `threadLinesFrom` lines where that is
  /// set, else always.
  int64_t lineChunks = 0;
  /// For row reductions over rows of a length known at run time: the rows
  /// a block takes when each subgroup takes a row (0: a block per row),
  /// for rows of at most `subgroupRowsUpTo` elements.
  int64_t rowsPerBlock = 0, subgroupRowsUpTo = 0;
  /// For tiled contractions on tensor cores: the matrix instruction's
  /// shape (M, N, K; empty for the SIMT schedule) and the K tiles in flight.
  llvm::SmallVector<int64_t> mma;
  int64_t stages = 0;
  /// Scalars replacing the initial contents of the outputs (the values of
  /// the fills folded into this dispatch), one per output; null where the
  /// output is read.
  llvm::SmallVector<mlir::Value> initValues;
  /// Ops fused after a single-output root, in program order. Elementwise
  /// ops at the points of the root's result are computed, by the thread
  /// that stores the root's result, from the root's result (or an earlier
  /// epilogue's) in registers and their other inputs from memory. After a
  /// row reduction, ops over the same rows (a row pipeline) map each row
  /// elementwise or reduce it again, with the block of the row.
  llvm::SmallVector<mlir::linalg::LinalgOp> epilogues;
  /// The value of the fill folded into each epilogue that reduces a row
  /// (null where there is none, or for other epilogues).
  llvm::SmallVector<mlir::Value> epilogueInits;
  /// Buffers the kernel computes that nothing reads after it: temporaries
  /// that only the root, its folded fills and its epilogues use, and that
  /// the epilogues read in registers. Their stores are left out.
  llvm::SmallPtrSet<mlir::Value, 4> unreadResults;
};

/// Replaces `op` with scf.parallel loops over its iteration space, collapsed
/// to one dimension, tiled by the block size and mapped to blocks (outer) and
/// threads (inner) for `convert-parallel-loops-to-gpu`.
mlir::LogicalResult buildElementwiseLoops(mlir::RewriterBase &rewriter,
                                          mlir::linalg::LinalgOp op,
                                          const KernelPlan &plan);

/// Elements per thread of the vectorized elementwise kernel for `op` (16
/// bytes of its widest element), when every operand is a scalar or a
/// contiguous buffer known to be 16-byte aligned that the payload reads or
/// writes at the point itself; 0 when the kernel does not apply.
int64_t vectorWidth(mlir::linalg::LinalgOp op);

/// Replaces elementwise `op` with a gpu.launch in which each thread loads,
/// computes and stores a run of `width` consecutive elements at 16-byte
/// aligned addresses (128-bit accesses once the backend merges them), and
/// the last run that is not whole is finished element by element
/// (VectorElementwise.cpp).
mlir::FailureOr<mlir::Operation *>
buildVectorElementwiseKernel(mlir::RewriterBase &rewriter,
                             mlir::linalg::LinalgOp op, const KernelPlan &plan,
                             int64_t width);

/// Replaces elementwise `op`, whose operands are contiguous along `loops`'
/// two loops, with a gpu.launch of a block per tile of the two, the
/// operands contiguous along `loops.across` staged in workgroup memory
/// (TransposeKernel.cpp).
mlir::FailureOr<mlir::Operation *>
buildTransposeKernel(mlir::RewriterBase &rewriter, mlir::linalg::LinalgOp op,
                     const KernelPlan &plan, const TransposedLoops &loops);

/// Replaces `op` with a gpu.launch for the reduction, contraction and scan
/// schedules (and the thread schedule used for zero-dimensional elementwise
/// ops). Returns the number of launches made, or emits an error and
/// returns failure.
mlir::FailureOr<unsigned>
buildLaunch(mlir::RewriterBase &rewriter, mlir::linalg::LinalgOp op,
            const KernelPlan &plan);

/// The tiled-contraction schedule (ContractionKernel.cpp) for contraction
/// `op` (see `shape`): a block per `plan.tile` = [BM, BN, BK] tile of the
/// output, each thread a micro-tile of (BM / block[1]) x (BN / block[0])
/// accumulators in registers, K staged BK at a time through workgroup
/// memory; the epilogues of `plan` run at each output stored.
mlir::FailureOr<mlir::Operation *>
buildContractionKernel(mlir::RewriterBase &rewriter, mlir::linalg::LinalgOp op,
                       const KernelPlan &plan, const DispatchShape &shape);

/// The tiled contraction on tensor cores (MmaContractionKernel.cpp), for a
/// plan with `mma`: a block per `plan.tile` = [BM, BN, BK] tile of the
/// output, its subgroups each computing a part in fragments of the
/// target's matrix instruction (MmaInstruction: `mma.sync` read with
/// `ldmatrix`, or MFMA) from the operand tiles in workgroup memory; the
/// epilogues of `plan` run at each output stored. Where both operands'
/// innermost sizes are multiples of 8 (a host-side branch when one is
/// dynamic), a variant copies 16 bytes at a time. Returns the number of
/// launches.
mlir::FailureOr<unsigned>
buildMmaContractionKernel(mlir::RewriterBase &rewriter,
                          mlir::linalg::LinalgOp op, const KernelPlan &plan,
                          const DispatchShape &shape);
/// The row-reduction schedule (RowKernel.cpp) for `op` with `combiner`: one
/// block per row, threads folding strided parts of it and combining through
/// subgroup shuffles and workgroup memory; the row pipeline of
/// `plan.epilogues` (reducing or mapping the same row) follows in the same
/// launch. With `plan.rowsPerBlock`, short rows take a subgroup each under
/// a host-side branch on the row's length. Returns the number of launches.
mlir::FailureOr<unsigned>
buildRowReductionKernel(mlir::RewriterBase &rewriter, mlir::linalg::LinalgOp op,
                        const KernelPlan &plan, mlir::Operation *combiner);

/// The scan schedule (ScanKernel.cpp) for `op`, a scan tagged `choir.scan`
/// (see `shape`): one block per line walking the line in chunks of its
/// threads with a carry; with `plan.linesPerBlock`, one thread per line
/// walking it serially; with `plan.lineTile`, three launches (block
/// totals, their scan, each block's scan from the blocks before); linear
/// in the line's length. Where the plan leaves the choice to run time,
/// the launch function branches on the sizes between the variants.
/// Returns the number of launches built (of all variants).
mlir::FailureOr<unsigned>
buildScanKernel(mlir::RewriterBase &rewriter, mlir::linalg::LinalgOp op,
                const KernelPlan &plan, const DispatchShape &shape);

/// Replaces scan `op` with host loops: one per line, carrying the running
/// value along it.
void buildScanLoops(mlir::RewriterBase &rewriter, mlir::linalg::LinalgOp op,
                    const DispatchShape &shape);

} // namespace accy::kernel

#endif // ACCY_LIB_STAGES_KERNEL_KERNELBUILDER_H
