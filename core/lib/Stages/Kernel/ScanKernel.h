//===- ScanKernel.h - What the scan kernels share ---------------*- C++ -*-===//
//
// The lines of a scan, the serial walk along one (a GPU thread's and the
// host's loops), and what every launch of a scan needs. The variants built
// of block scans and the choice among the variants are ScanKernel.cpp's;
// those of a thread per line are ScanThreadLines.cpp's.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LIB_STAGES_KERNEL_SCANKERNEL_H
#define ACCY_LIB_STAGES_KERNEL_SCANKERNEL_H

#include "PayloadEmitter.h"

#include "mlir/IR/PatternMatch.h"

namespace accy::kernel {

/// The loops of a scan seen as lines: the parallel loops but the axis, and
/// the ivs of the point at element `i` of the line at `lineIvs`.
struct ScanLines {
  mlir::linalg::LinalgOp op;
  const DispatchShape &shape;
  llvm::SmallVector<unsigned> lineDims;

  ScanLines(mlir::linalg::LinalgOp op, const DispatchShape &shape);

  llvm::SmallVector<mlir::Value>
  pointIvs(Ix &ix, llvm::ArrayRef<mlir::Value> lineIvs, mlir::Value i);

  /// Element `ivs` of the line as the scan combines it: the payload's value
  /// without its last step, the combination with the neutral accumulator.
  mlir::Value element(mlir::OpBuilder &b, mlir::Location loc,
                      mlir::ValueRange ivs, mlir::Value neutral);
};

mlir::Value neutralOf(mlir::OpBuilder &b, mlir::Location loc,
                      mlir::Operation *combiner);
bool isNeutral(mlir::Value value, mlir::Operation *combiner);

/// Walks positions [begin, end) of the line at `lineIvs` serially from
/// `carry` (the neutral element when null), the host's loops and a GPU
/// thread's alike: `store` gets the ivs of each position and the
/// combination up to it. Returns the combination of the whole walk.
mlir::Value walkLine(
    mlir::OpBuilder &b, mlir::Location loc, ScanLines &lines,
    llvm::ArrayRef<mlir::Value> lineIvs, mlir::Value begin, mlir::Value end,
    mlir::Value carry,
    llvm::function_ref<void(mlir::ValueRange ivs, mlir::Value running)> store);

/// A block's scan of part of a line (ScanKernel.cpp).
struct BlockScan;

/// What every launch of a scan needs: the op, its lines, its sizes.
struct ScanKernel {
  mlir::RewriterBase &rw;
  mlir::linalg::LinalgOp op;
  const KernelPlan &plan;
  const DispatchShape &shape;
  ScanLines lines;
  int64_t numSubgroups;
  mlir::Location loc;
  mlir::Type accType;

  ScanKernel(mlir::RewriterBase &rw, mlir::linalg::LinalgOp op,
             const KernelPlan &plan, const DispatchShape &shape,
             int64_t numSubgroups)
      : rw(rw), op(op), plan(plan), shape(shape), lines(op, shape),
        numSubgroups(numSubgroups), loc(op.getLoc()),
        accType(shape.combiner->getResult(0).getType()) {}

  /// A launch of `blocksPerLine` blocks per line (one when null); `body`
  /// fills it, given the scanner, the ivs of the block's line, the block's
  /// index within its line, the line's length and the loop sizes.
  void launch(
      mlir::Value blocksPerLine,
      llvm::function_ref<void(BlockScan &, llvm::ArrayRef<mlir::Value> lineIvs,
                              mlir::Value block, mlir::Value length,
                              llvm::ArrayRef<mlir::Value> sizes)>
          body);

  llvm::SmallVector<mlir::Value> ivsAt(llvm::ArrayRef<mlir::Value> lineIvs,
                                       mlir::Value i);

  /// Element `i` of the line as the scan combines it.
  mlir::Value element(llvm::ArrayRef<mlir::Value> lineIvs, mlir::Value i,
                      mlir::Value neutral);

  /// Stores `value`, combined with the output's start where that is not
  /// the neutral element a folded fill gives, at `i`, and runs the
  /// epilogues there.
  void store(llvm::ArrayRef<mlir::Value> lineIvs, mlir::Value i,
             mlir::Value value);
  void storeAt(mlir::ValueRange ivs, mlir::Value value);

  /// The output at `i` of the line, as the root computes it.
  mlir::Value loadOutput(llvm::ArrayRef<mlir::Value> lineIvs, mlir::Value i);
};

/// One thread per line, walking it whole: `plan.linesPerBlock` lines a
/// block, consecutive threads on consecutive lines. Returns the launches.
unsigned buildThreadPerLine(ScanKernel &kernel);

/// Three launches of a thread per line, each line in `plan.lineChunks`
/// chunks, a thread each. Returns the launches.
unsigned buildLineChunks(ScanKernel &kernel);

} // namespace accy::kernel

#endif // ACCY_LIB_STAGES_KERNEL_SCANKERNEL_H
