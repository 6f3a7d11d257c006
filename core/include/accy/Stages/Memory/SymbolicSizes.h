//===- SymbolicSizes.h - Sizes as expressions of argument dims --*- C++ -*-===//
//
// Buffer sizes, grid sizes and kernel scalar arguments are recorded in the
// plans as affine expressions over the dynamic dimensions of the kernel
// entry's arguments, so that a runtime can evaluate them from the shapes it
// is given without running any compiled host code.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_STAGES_MEMORY_SYMBOLICSIZES_H
#define ACCY_STAGES_MEMORY_SYMBOLICSIZES_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir {
class Builder;
namespace func {
class FuncOp;
} // namespace func
} // namespace mlir

namespace accy {

/// Symbol i is the i-th dynamic dimension of the function's shaped arguments,
/// counting arguments, then their dimensions, in order. The numbering
/// depends on the signature only, so the entry, its launch functions and its
/// host version share it.
class ArgumentDims {
public:
  explicit ArgumentDims(mlir::func::FuncOp func);

  unsigned getNumSymbols() const { return symbols.size(); }
  /// `[array<i64: argument, dimension>, ...]`, one entry per symbol.
  mlir::ArrayAttr getSymbolsAttr(mlir::Builder &b) const;

  /// The expression an index value computes, or failure when it is not an
  /// affine function of argument dimensions (the caller reports it).
  mlir::FailureOr<mlir::AffineExpr> trace(mlir::Value value) const;
  /// The size of dimension `dim` of the shaped `value`.
  mlir::FailureOr<mlir::AffineExpr> traceDim(mlir::Value value,
                                             unsigned dim) const;
  /// All dimensions of a shaped value, as one map `()[s...] -> (d...)`.
  mlir::FailureOr<mlir::AffineMap> traceShape(mlir::Value value) const;

  /// `()[s0, ..., sN] -> (exprs)`, simplified.
  mlir::AffineMap makeMap(llvm::ArrayRef<mlir::AffineExpr> exprs) const;

private:
  mlir::Block *body;
  mlir::MLIRContext *context;
  llvm::SmallVector<std::pair<unsigned, unsigned>> symbols;
  llvm::DenseMap<std::pair<unsigned, unsigned>, unsigned> symbolIndex;
};

} // namespace accy

#endif // ACCY_STAGES_MEMORY_SYMBOLICSIZES_H
