//===- LoweringUtils.h - Builders shared by the tensor passes ---*- C++ -*-===//
//
// Every tensor-stage lowering builds the same few shapes of IR: an
// elementwise linalg.generic whose operands are read through projected
// permutation maps (broadcast unit dimensions collapsed away first), and a
// reduction linalg.generic into a linalg.fill'ed accumulator. They are built
// here once, for any element type: f16/bf16 compute in f32, integers use
// signed arith integer ops.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LIB_STAGES_TENSOR_LOWERINGUTILS_H
#define ACCY_LIB_STAGES_TENSOR_LOWERINGUTILS_H

#include "accy/Dialect/Choir/IR/Choir.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"

#include <functional>
#include <string>

namespace accy::tensorstage {

inline mlir::RankedTensorType tensorType(mlir::Value v) {
  return mlir::cast<mlir::RankedTensorType>(v.getType());
}

//===----------------------------------------------------------------------===//
// Scalars (inside linalg bodies)
//===----------------------------------------------------------------------===//

/// The type values of `elem` are computed in: f32 for f16 and bf16.
mlir::Type computeType(mlir::Type elem);
/// A scalar constant of a float or integer type.
mlir::Value scalarConstant(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Type type, double value);
/// Converts a scalar between float types, or float and integer types.
mlir::Value convertScalar(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value v, mlir::Type to);
mlir::Value addScalar(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      mlir::Value y);
mlir::Value subScalar(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      mlir::Value y);
mlir::Value mulScalar(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      mlir::Value y);
/// Float division, or signed integer division that never traps (x / 0 is
/// 0, x / -1 is -x wrapping).
mlir::Value divScalar(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      mlir::Value y);
/// NaN-propagating max/min for floats, signed for integers.
mlir::Value maxScalar(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      mlir::Value y);
mlir::Value minScalar(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      mlir::Value y);

//===----------------------------------------------------------------------===//
// Tensors
//===----------------------------------------------------------------------===//

/// tensor.dim of every dynamic dimension of `v`, in order.
llvm::SmallVector<mlir::Value> dynamicDims(mlir::OpBuilder &b,
                                           mlir::Location loc, mlir::Value v);
mlir::Value emptyTensor(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::RankedTensorType type,
                        mlir::ValueRange dynamicSizes);
/// linalg.fill of a tensor.empty with a scalar.
mlir::Value filledTensor(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::RankedTensorType type,
                         mlir::ValueRange dynamicSizes, mlir::Value scalar);

/// Removes the unit dimensions `dims` of `v` with tensor.collapse_shape.
mlir::Value dropUnitDims(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                         llvm::ArrayRef<int64_t> dims);
/// Inserts unit dimensions into `v` so that it has type `target`, whose
/// dimensions `unitDims` are the new ones (tensor.expand_shape).
mlir::Value addUnitDims(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                        mlir::RankedTensorType target,
                        llvm::ArrayRef<int64_t> unitDims);

/// An operand as an elementwise generic over `resultShape` reads it: NumPy
/// broadcasting (right-aligned), with the unit dimensions that broadcast
/// collapsed away so that `map` is a projected permutation.
struct BroadcastRead {
  mlir::Value value;
  mlir::AffineMap map;
};
BroadcastRead broadcastRead(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value operand,
                            llvm::ArrayRef<int64_t> resultShape);

/// The sizes of the dynamic dimensions of a broadcast of `operands` to
/// `type`, from tensor.dim of an operand that has the dimension unbroadcast.
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
broadcastSizes(mlir::OpBuilder &b, mlir::Location loc,
               mlir::RankedTensorType type, mlir::ValueRange operands);

using ScalarBody = std::function<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                             mlir::ValueRange)>;

/// An elementwise linalg.generic producing `resultType` (dynamic sizes from
/// `dynamicSizes`) from `operands` (broadcast per NumPy); `body` gets one
/// scalar per operand and returns the result scalar.
mlir::Value buildElementwise(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::RankedTensorType resultType,
                             mlir::ValueRange dynamicSizes,
                             mlir::ValueRange operands, const ScalarBody &body);

/// A linalg.generic with all-parallel loops over `resultType`, reading
/// `inputs` through `maps` (one per input).
mlir::Value buildParallelGeneric(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::RankedTensorType resultType,
                                 mlir::ValueRange dynamicSizes,
                                 mlir::ValueRange inputs,
                                 llvm::ArrayRef<mlir::AffineMap> maps,
                                 const ScalarBody &body);

/// `v` itself, or a tensor.cast of it to `type` (equal but for static sizes).
mlir::Value castTo(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                   mlir::RankedTensorType type);

/// The neutral element of a sum/max/min reduction of `type`.
mlir::Value reductionIdentity(mlir::OpBuilder &b, mlir::Location loc,
                              choir::ReduceKind kind, mlir::Type type);

/// Reduces `input` over the sorted `axes` into a tensor without those
/// dimensions, of element type `accType` (the input is converted to it).
/// `kind` is sum, max or min (mean is a sum here).
mlir::Value buildReduction(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value input, llvm::ArrayRef<int64_t> axes,
                           choir::ReduceKind kind, mlir::Type accType);

/// A number of elements: a static factor times dynamic sizes. The sizes
/// are tensor.dim values (each an affine function of the arguments, which is
/// what a kernel launch may capture); the scalar is built where it is used,
/// inside a linalg body.
struct ElementCount {
  int64_t staticPart = 1;
  llvm::SmallVector<mlir::Value> dynamicSizes;
  void multiply(int64_t size) { staticPart *= size; }
  void multiply(mlir::Value size) { dynamicSizes.push_back(size); }
  /// The count as a scalar of `type` (a float or integer type).
  mlir::Value build(mlir::OpBuilder &b, mlir::Location loc,
                    mlir::Type type) const;
};

/// The number of elements of the dimensions `axes` of `v`.
ElementCount elementCount(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value v, llvm::ArrayRef<int64_t> axes);

} // namespace accy::tensorstage

#endif // ACCY_LIB_STAGES_TENSOR_LOWERINGUTILS_H
