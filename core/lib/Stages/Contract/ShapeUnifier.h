//===- ShapeUnifier.h - Classes of equal dimensions in a kernel -*- C++ -*-===//
//
// The analysis behind accy-choir-shape-layout-propagate: every tensor
// dimension of a kernel function belongs to one class of equal sizes
// (union-find). Argument dimensions start from their `choir.dims` names;
// ops join classes (broadcasting joins only sizes other than 1). A class may
// hold at most one symbol or one constant: anything else is a mismatch,
// reported at the op that joins the two.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LIB_STAGES_CONTRACT_SHAPEUNIFIER_H
#define ACCY_LIB_STAGES_CONTRACT_SHAPEUNIFIER_H

#include "ContractUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>
#include <utility>

namespace accy::contract {

/// What a class of equal dimensions is known to be.
struct DimClass {
  int64_t size = mlir::ShapedType::kDynamic;
  std::string symbol;
  /// The first kernel argument dimension in the class (argument number and
  /// dimension), whose tensor.dim materializes the size; -1 when none.
  int64_t bindArg = -1;
  int64_t bindDim = -1;
};

class ShapeUnifier {
public:
  explicit ShapeUnifier(mlir::func::FuncOp func) : func(func) {}

  /// Builds the classes; emits an error and fails at the first mismatch.
  mlir::LogicalResult run();

  const DimClass &classOf(mlir::Value v, int64_t d);
  bool sameClass(mlir::Value a, int64_t da, mlir::Value b, int64_t db);
  /// The shape `v`'s type would have with every known size filled in.
  llvm::SmallVector<int64_t> refinedShape(mlir::Value v);

private:
  unsigned find(unsigned v);
  unsigned fresh(int64_t size = mlir::ShapedType::kDynamic);
  unsigned symbolVar(llvm::StringRef name);
  /// Joins two classes; on a mismatch returns the two descriptions.
  std::optional<std::pair<std::string, std::string>> join(unsigned a,
                                                          unsigned b);
  llvm::SmallVector<unsigned> &dimsOf(mlir::Value v);
  /// The class of an index value used as a size: a tensor.dim of a known
  /// dimension, a constant, or something new.
  unsigned traceSize(mlir::Value size);
  /// Result dims from the type, dynamic ones from `sizes` in order.
  void assignSized(mlir::Value result, mlir::ValueRange sizes);
  mlir::LogicalResult equal(mlir::Operation *op, unsigned a, unsigned b,
                            const llvm::Twine &what);

  mlir::LogicalResult visitBroadcasting(mlir::Operation *op,
                                        mlir::ValueRange operands,
                                        mlir::Value result);
  mlir::LogicalResult visitEinsum(choir::EinsumOp op);
  mlir::LogicalResult visitReturn(mlir::func::ReturnOp op);
  mlir::LogicalResult visit(mlir::Operation *op);

  mlir::func::FuncOp func;
  llvm::SmallVector<unsigned> parent;
  llvm::SmallVector<DimClass> data;
  llvm::DenseMap<mlir::Value, llvm::SmallVector<unsigned>> dims;
  llvm::StringMap<unsigned> symbols;
};

} // namespace accy::contract

#endif // ACCY_LIB_STAGES_CONTRACT_SHAPEUNIFIER_H
