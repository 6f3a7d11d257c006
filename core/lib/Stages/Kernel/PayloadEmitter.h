//===- PayloadEmitter.h - Building blocks of kernel code --------*- C++ -*-===//
//
// The pieces every kernel builder is made of: index arithmetic, iteration
// points, loads and stores of a linalg op's operands at a point, its payload
// cloned for one point, the epilogues fused after a root, and gpu.launch
// with workgroup buffers.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LIB_STAGES_KERNEL_PAYLOADEMITTER_H
#define ACCY_LIB_STAGES_KERNEL_PAYLOADEMITTER_H

#include "KernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace accy::kernel {

/// Index arithmetic at a builder's insertion point, unsigned where it
/// divides, compares or takes a minimum (indices are never negative, and
/// unsigned division is cheaper on GPUs than signed). MLIR 19's
/// ArithBuilder has add, sub and mul but only signed compares and no
/// division, remainder or minimum, so it would cover half of this.
struct Ix {
  mlir::OpBuilder &b;
  mlir::Location loc;

  /// The index constant `v`, made once per kernel body or function (at the
  /// start of the entry block of the launch body or function around the
  /// insertion point): the builders ask for the same few constants at
  /// every element of an unrolled row cache or register tile, a quarter of
  /// the ops they made, which canonicalization then merged.
  mlir::Value c(int64_t v);
  mlir::Value add(mlir::Value x, mlir::Value y) {
    return b.create<mlir::arith::AddIOp>(loc, x, y);
  }
  mlir::Value sub(mlir::Value x, mlir::Value y) {
    return b.create<mlir::arith::SubIOp>(loc, x, y);
  }
  mlir::Value mul(mlir::Value x, mlir::Value y) {
    return b.create<mlir::arith::MulIOp>(loc, x, y);
  }
  mlir::Value mul(mlir::Value x, int64_t y) {
    return y == 1 ? x : mul(x, c(y));
  }
  mlir::Value div(mlir::Value x, mlir::Value y) {
    return b.create<mlir::arith::DivUIOp>(loc, x, y);
  }
  mlir::Value rem(mlir::Value x, mlir::Value y) {
    return b.create<mlir::arith::RemUIOp>(loc, x, y);
  }
  mlir::Value ceilDiv(mlir::Value x, int64_t y) {
    return y == 1 ? x : b.create<mlir::arith::CeilDivUIOp>(loc, x, c(y));
  }
  mlir::Value minU(mlir::Value x, mlir::Value y) {
    return b.create<mlir::arith::MinUIOp>(loc, x, y);
  }
  mlir::Value lt(mlir::Value x, mlir::Value y) {
    return b.create<mlir::arith::CmpIOp>(loc, mlir::arith::CmpIPredicate::ult,
                                         x, y);
  }
  mlir::Value eq(mlir::Value x, int64_t y) {
    return b.create<mlir::arith::CmpIOp>(loc, mlir::arith::CmpIPredicate::eq, x,
                                         c(y));
  }
  mlir::Value both(mlir::Value x, mlir::Value y) {
    return b.create<mlir::arith::AndIOp>(loc, x, y);
  }
  mlir::Value product(llvm::ArrayRef<mlir::Value> values) {
    mlir::Value result;
    for (mlir::Value v : values)
      result = result ? mul(result, v) : v;
    return result ? result : c(1);
  }
};

/// The entries of `values` at `dims`.
llvm::SmallVector<mlir::Value> select(llvm::ArrayRef<mlir::Value> values,
                                      llvm::ArrayRef<unsigned> dims);

/// The trip counts of `op`'s loops, computed at the insertion point (from
/// memref.dim of its operands; constants where static).
llvm::SmallVector<mlir::Value> loopSizes(mlir::OpBuilder &b, mlir::Location loc,
                                         mlir::linalg::LinalgOp op);

/// Row-major delinearization of `linear` over `sizes`, in unsigned division
/// and remainder (indices are never negative). Not MLIR 19's
/// affine::delinearizeIndex: its affine floordiv and mod lower to signed
/// division with sign fix-ups; with it the strided loops of
/// elementwise.accy's stats_k4 went from 304 to 400 SASS instructions
/// (24 -> 26 registers, the main loop 68 -> 74).
llvm::SmallVector<mlir::Value> delinearize(Ix &ix, mlir::Value linear,
                                           llvm::ArrayRef<mlir::Value> sizes);

/// The parallel and the reduction loops of `op`, in order.
void splitLoops(mlir::linalg::LinalgOp op,
                llvm::SmallVectorImpl<unsigned> &parallel,
                llvm::SmallVectorImpl<unsigned> &reduction);

/// All loop ivs: `parallel` and `reduction` ivs in their places, zero for a
/// missing group.
llvm::SmallVector<mlir::Value>
mergeIvs(Ix &ix, unsigned numLoops, llvm::ArrayRef<unsigned> parallelDims,
         llvm::ArrayRef<mlir::Value> parallelIvs,
         llvm::ArrayRef<unsigned> reductionDims,
         llvm::ArrayRef<mlir::Value> reductionIvs);

/// The indices `map` selects at the iteration point `ivs`.
llvm::SmallVector<mlir::Value> applyMap(mlir::OpBuilder &b, mlir::Location loc,
                                        mlir::AffineMap map,
                                        mlir::ValueRange ivs);

/// The value of `operand` of `op` at `ivs` (a scalar operand is itself).
mlir::Value loadOperand(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::linalg::LinalgOp op, mlir::OpOperand *operand,
                        mlir::ValueRange ivs);

/// Stores `value` into `operand` of `op` at `ivs`.
void storeOperand(mlir::OpBuilder &b, mlir::Location loc,
                  mlir::linalg::LinalgOp op, mlir::OpOperand *operand,
                  mlir::Value value, mlir::ValueRange ivs);

/// Clones the payload of `op` for one iteration point; `args` are the values
/// of its block arguments. Returns the yielded values.
llvm::SmallVector<mlir::Value> emitPayload(mlir::OpBuilder &b,
                                           mlir::linalg::LinalgOp op,
                                           mlir::ValueRange ivs,
                                           llvm::ArrayRef<mlir::Value> args);

/// Buffers whose value at the point being computed is already in registers
/// (the results of a root and of its epilogues), and that value.
using InRegisters = llvm::DenseMap<mlir::Value, mlir::Value>;

/// Values for the payload's block arguments: inputs from registers where
/// `known` has them, loaded otherwise (null where the payload does not use
/// them), and `outputs` for the output arguments.
llvm::SmallVector<mlir::Value>
payloadArgs(mlir::OpBuilder &b, mlir::Location loc, mlir::linalg::LinalgOp op,
            mlir::ValueRange ivs, llvm::ArrayRef<mlir::Value> outputs,
            const InRegisters &known = InRegisters());

/// The value of single-output elementwise `op` at `ivs`: its payload over
/// inputs from `known` or memory, and its output's old value where the
/// payload reads it.
mlir::Value emitPointValue(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::linalg::LinalgOp op, mlir::ValueRange ivs,
                           const InRegisters &known);

/// Stores `value`, the result of root `op` at iteration point `ivs`, into
/// `output`, then computes the epilogues of `plan` at the point of that
/// result.
void storeResult(mlir::OpBuilder &b, mlir::Location loc,
                 mlir::linalg::LinalgOp op, mlir::OpOperand *output,
                 mlir::Value value, mlir::ValueRange ivs,
                 const KernelPlan &plan);

mlir::Value zeroOf(mlir::OpBuilder &b, mlir::Location loc, mlir::Type type);

/// A new op like `combiner` that combines `lhs` and `rhs`.
mlir::Value combine(mlir::OpBuilder &b, mlir::Location loc,
                    mlir::Operation *combiner, mlir::Value lhs,
                    mlir::Value rhs);

/// A 1-D grid of `gridX` blocks of `block` threads, with `workgroup`
/// buffers, its body empty but for the terminator.
mlir::gpu::LaunchOp createLaunch(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::Value gridX,
                                 llvm::ArrayRef<int64_t> block,
                                 mlir::TypeRange workgroup = {});

/// The subgroups in a block of `plan`; emits an error and fails when the
/// block is not a whole number of them.
mlir::FailureOr<int64_t> subgroupsPerBlock(mlir::linalg::LinalgOp op,
                                           const KernelPlan &plan);

/// A buffer type in workgroup (shared) memory.
mlir::MemRefType workgroupBuffer(llvm::ArrayRef<int64_t> shape,
                                 mlir::Type element);

mlir::Type elementOf(mlir::Value value);

/// The bytes of a 128-bit access.
inline constexpr int64_t kVectorBytes = 16;

/// Bytes an element of `element` (an integer or float) takes in memory.
int64_t storedBytes(mlir::Type element);

/// Whether `operand` of `op` is a contiguous buffer of integers or floats,
/// known to be 16-byte aligned (the launch function's assumption on an
/// argument, a device allocation), that `op` accesses at the iteration
/// point itself: its elements in the order of the loops are consecutive.
bool isAlignedAtPoint(mlir::linalg::LinalgOp op, mlir::OpOperand &operand);

/// Like isAlignedAtPoint, for an operand that `op` reads at `loops` only,
/// in their order (a bias read along each row, say).
bool isAlignedAlong(mlir::linalg::LinalgOp op, mlir::OpOperand &operand,
                    llvm::ArrayRef<unsigned> loops);

/// `buffer` (see isAlignedAtPoint) flattened to one dimension and asserted
/// 16-byte aligned, so that the backends merge consecutive accesses from a
/// multiple of 16 bytes into 128-bit ones.
mlir::Value alignedFlatView(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value buffer);

} // namespace accy::kernel

#endif // ACCY_LIB_STAGES_KERNEL_PAYLOADEMITTER_H
