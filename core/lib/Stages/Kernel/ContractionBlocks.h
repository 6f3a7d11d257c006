//===- ContractionBlocks.h - What both contraction schedules share -*- C++
//-*-===//
//
// The tiled contraction's SIMT (ContractionKernel.cpp) and tensor-core
// (MmaContractionKernel.cpp) kernels launch a block per output tile and
// batch element alike: the grid, the tile a block takes, the iteration
// points it reads, and the branches every thread of a block takes alike.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LIB_STAGES_KERNEL_CONTRACTIONBLOCKS_H
#define ACCY_LIB_STAGES_KERNEL_CONTRACTIONBLOCKS_H

#include "PayloadEmitter.h"

namespace accy::kernel {

/// Blocks of a contraction tiled by `bm` x `bn` over the loop `sizes`: one
/// per output tile and batch element.
mlir::Value contractionGrid(Ix &host, llvm::ArrayRef<mlir::Value> sizes,
                            const DispatchShape &shape, int64_t bm, int64_t bn);

/// The launch of a block per `bm` x `bn` output tile and batch element of
/// `op` (contractionGrid), of `block` threads and one workgroup buffer of
/// `workgroupBytes` bytes; `rw`'s insertion point moves into its body (the
/// caller keeps a guard).
mlir::gpu::LaunchOp
enterContractionLaunch(mlir::RewriterBase &rw, mlir::Location loc,
                       mlir::linalg::LinalgOp op, const DispatchShape &shape,
                       llvm::ArrayRef<int64_t> block, int64_t bm, int64_t bn,
                       int64_t workgroupBytes);

/// The output tile of one block of `launch`: its first row and column and
/// its batch element (N tiles fastest, then M tiles, then the batch loops),
/// with the loop sizes and the workgroup buffer, inside the launch.
struct ContractionBlock {
  mlir::linalg::LinalgOp op;
  const DispatchShape &shape;
  llvm::SmallVector<mlir::Value> sizes;
  mlir::Value workgroup, zero, m0, n0;
  llvm::SmallVector<mlir::Value> batchIvs;

  ContractionBlock(Ix &ix, mlir::linalg::LinalgOp op,
                   const DispatchShape &shape, mlir::gpu::LaunchOp launch,
                   int64_t bm, int64_t bn);
  /// The iteration point at (mv, nv, kv) of this block's batch element.
  llvm::SmallVector<mlir::Value> ivsAt(mlir::Value mv, mlir::Value nv,
                                       mlir::Value kv) const;
  /// `type` in the workgroup buffer's bytes from `offset` on.
  mlir::Value view(Ix &ix, int64_t offset, mlir::MemRefType type) const;
  /// Stores `value`, the output at (`row`, `col`) of this block's batch
  /// element, where that is inside the output, then runs `plan`'s
  /// epilogues at that point.
  void storeOutput(Ix &ix, mlir::Value row, mlir::Value col, mlir::Value value,
                   const KernelPlan &plan) const;
};

/// The values of `types` that `ifTrue` or `ifFalse` computes, under a
/// branch on `condition` that every thread of a block takes alike.
llvm::SmallVector<mlir::Value>
uniformBranch(mlir::RewriterBase &rw, mlir::Location loc, mlir::TypeRange types,
              mlir::Value condition,
              llvm::function_ref<llvm::SmallVector<mlir::Value>()> ifTrue,
              llvm::function_ref<llvm::SmallVector<mlir::Value>()> ifFalse);

} // namespace accy::kernel

#endif // ACCY_LIB_STAGES_KERNEL_CONTRACTIONBLOCKS_H
