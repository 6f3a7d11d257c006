//===- MmaContractionKernel.h - The tensor-core contraction -----*- C++ -*-===//
//
// The state of one tensor-core contraction kernel (see
// MmaContractionKernel.cpp), shared by the file that builds its launch,
// accumulators, fragments and outputs and MmaTileCopies.cpp, which copies
// the operand tiles into workgroup memory.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LIB_STAGES_KERNEL_MMACONTRACTIONKERNEL_H
#define ACCY_LIB_STAGES_KERNEL_MMACONTRACTIONKERNEL_H

#include "ContractionBlocks.h"

#include <optional>
#include <utility>

namespace accy::kernel {

/// The side of the 8x8 matrices `ldmatrix` reads, and the rows of a 16 x 8
/// accumulator fragment of mma.sync a lane holds two of (`g` and `g + 8`).
inline constexpr int64_t kMatrix = 8;
/// The K a lane holds of an MFMA fragment's row or column, and the rows of
/// a 16 x 16 accumulator fragment it holds.
inline constexpr int64_t kMfmaRun = 4;
/// Elements a copy moves at a time in the chunked variant: 16 bytes.
inline constexpr int64_t kCopyChunk = 8;

/// The tensor-core kernel of one contraction dispatch for one target:
/// `inst`'s subgroups each own a part of a [bm, bn] output tile, K staged
/// `bk` at a time, copies `chunk` elements at a time.
struct MmaContractionKernel {
  mlir::RewriterBase &rw;
  mlir::Location loc;
  mlir::linalg::LinalgOp op;
  const KernelPlan &plan;
  const DispatchShape &shape;
  const MmaInstruction &inst;
  int64_t bm, bn, bk, threads;
  /// Elements a copy moves at a time: 1, or kCopyChunk in the variant for
  /// operands whose innermost dimension is a multiple of it (16 bytes a
  /// load and a store).
  int64_t chunk;
  int64_t wm = bm / inst.warpsM, wn = bn / inst.warpsN;
  int64_t fm = wm / inst.shape[0], fn = wn / inst.shape[1];

  // Set inside the launch.
  llvm::SmallVector<mlir::Value> sizes;
  std::optional<ContractionBlock> block;
  mlir::Value zero;
  /// This lane's subgroup's part of the tile (its first row and column),
  /// and where in each fragment its accumulators lie: at
  /// (accRows + accRow(e), accColumns + accColumn(e)) for accumulator e.
  mlir::Value lane, warpRow, warpCol, accRows, accColumns;

  bool isMfma() const { return inst.kind == TensorCores::Mfma; }
  /// A lane's four accumulators of a fragment: mma.sync's rows g and g + 8
  /// at columns 2t and 2t + 1; MFMA's rows 4 (lane / 16) to + 3 at column
  /// lane % 16 (the PTX and CDNA ISAs' layouts).
  mlir::VectorType accumulatorType() {
    mlir::Type f32 = rw.getF32Type();
    return isMfma() ? mlir::VectorType::get({4}, f32)
                    : mlir::VectorType::get({2, 2}, f32);
  }
  int64_t accRow(int64_t e) { return isMfma() ? e : kMatrix * (e / 2); }
  int64_t accColumn(int64_t e) { return isMfma() ? 0 : e % 2; }
  llvm::SmallVector<int64_t> accPosition(int64_t e) {
    if (isMfma())
      return {e};
    return {e / 2, e % 2};
  }

  /// An operand tile in workgroup memory and what one thread copies of it
  /// per K tile: elements at K offset `kk[i]` of tile row `row[i]` (an M or
  /// N index), whose index in the operand is clamped into it (`outer[i]`).
  struct TileCopy {
    mlir::OpOperand *operand;
    bool isLhs;
    MmaOperandTile layout;
    llvm::SmallVector<mlir::Value> kk, outer;
    /// With chunks: the operand as one aligned dimension.
    mlir::Value global;
    /// The tile of every stage as one dimension, a stage `stageElements`
    /// after the one before, and each element's index in a stage: one base
    /// and a constant apart (the stores' offsets are immediates, not an
    /// address register each).
    mlir::Value flat;
    int64_t stageElements;
    llvm::SmallVector<mlir::Value> at;
  };

  mlir::Type inputElement() {
    return elementOf(op->getOperand(shape.lhsInput));
  }

  /// NVIDIA's chunks go to workgroup memory by `cp.async`, not through
  /// registers.
  bool copiesAsync() const { return chunk > 1 && !isMfma(); }
  /// What a thread copies at a time: an element, or a vector of a chunk.
  mlir::Type copiedType();

  // The copies of the operand tiles (MmaTileCopies.cpp).
  /// Consecutive threads take consecutive elements (or chunks) of the
  /// operand's innermost dimension (K, or the tile's rows), which are
  /// consecutive in the tile too.
  TileCopy planCopy(Ix &ix, mlir::Value tid, bool isLhs, int64_t offset);
  /// Where in the flat, aligned operand of `copy` the chunk at the
  /// iteration point `ivs` (its first element) is.
  mlir::Value chunkIndex(const TileCopy &copy, mlir::ValueRange ivs);
  /// The iteration point of `copy`'s element (or chunk) `i` at K offset
  /// `k0`, K clamped to its last element (or chunk) where `masked`; and
  /// whether that K is inside the operand.
  std::pair<llvm::SmallVector<mlir::Value>, mlir::Value>
  copyPoint(const TileCopy &copy, size_t i, mlir::Value k0, bool masked);
  /// Loads this thread's elements (or chunks) of `copy` at K offset `k0`;
  /// with `masked`, those at K past its end are zeros.
  llvm::SmallVector<mlir::Value> fetch(const TileCopy &copy, mlir::Value k0,
                                       bool masked);
  /// Starts the cp.async copies of this thread's chunks of `copy` at K
  /// offset `k0` into the stage at `stageOffset`; returns their tokens.
  llvm::SmallVector<mlir::Value> copyAsync(const TileCopy &copy, mlir::Value k0,
                                           mlir::Value stageOffset);
  /// Stores what `fetch` loaded into the stage at `stageOffset` elements.
  void put(const TileCopy &copy, mlir::ValueRange values,
           mlir::Value stageOffset);

  // The launch, its accumulators, fragments and outputs
  // (MmaContractionKernel.cpp).
  llvm::SmallVector<mlir::Value> initialAccumulators();
  /// Reads fragments and multiplies: the lane's rows of the operand tiles
  /// (computed once), then each step.
  void prepareFragments(const TileCopy &lhs, const TileCopy &rhs);
  llvm::SmallVector<mlir::Value> step(const TileCopy &lhs, const TileCopy &rhs,
                                      int64_t kBase, mlir::Value lhsStage,
                                      mlir::Value rhsStage,
                                      llvm::ArrayRef<mlir::Value> accs);
  void storeOutputs(mlir::ValueRange accs, mlir::Value tid);
  mlir::LogicalResult build();

  // Set by prepareFragments: where this lane's first row of the A and B
  // fragments is in a stage of the flat tiles (B's last fragment of an
  // odd count apart, for mma.sync).
  mlir::Value aRows, bRows, bRowsLast;
};

} // namespace accy::kernel

#endif // ACCY_LIB_STAGES_KERNEL_MMACONTRACTIONKERNEL_H
