//===- ConstantValues.h - Constant tensors the evaluator computes on -*- C++
//-*-===//
//
// Values are held in double (floats) or int64_t (integers, wrapped to the
// element width after every op) and rounded once to the element type when
// the result attribute is built, so f32 `+ - * /` and `sqrt` fold exactly as
// IEEE-754 would.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LIB_STAGES_CONTRACT_CONSTANTVALUES_H
#define ACCY_LIB_STAGES_CONTRACT_CONSTANTVALUES_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace accy::contract {

/// A constant tensor of static shape, row-major.
struct Values {
  mlir::RankedTensorType type;
  std::vector<double> f;  // floating-point elements
  std::vector<int64_t> i; // integer elements (i1 as 0/1)
  bool isFloat() const {
    return mlir::isa<mlir::FloatType>(type.getElementType());
  }
  int64_t size() const { return type.getNumElements(); }
  /// Element `to` becomes element `from` of `source` (same element type).
  void copy(int64_t to, const Values &source, int64_t from) {
    if (isFloat())
      f[to] = source.f[from];
    else
      i[to] = source.i[from];
  }
};

/// The width of integer type `t`.
unsigned intWidth(mlir::Type t);

/// Sign-extends the low `width` bits (zero-extends for i1).
int64_t wrap(uint64_t v, unsigned width);

/// The value of `v` when it is a constant of static shape with at most
/// `budget` elements of a float or integer type.
std::optional<Values> readConstant(mlir::Value v, int64_t budget);

/// The attribute of `v`, each element rounded to the element type.
mlir::DenseElementsAttr toAttr(const Values &v);

/// Zeros of `type`.
Values makeZeros(mlir::RankedTensorType type);

/// Row-major strides of `shape`.
llvm::SmallVector<int64_t> strides(llvm::ArrayRef<int64_t> shape);

/// The index of element `linear` of a row-major tensor of `shape`.
llvm::SmallVector<int64_t> unflatten(int64_t linear,
                                     llvm::ArrayRef<int64_t> shape);

/// The element of an operand of shape `from` that broadcasts (NumPy,
/// right-aligned) to `index` of the result.
int64_t broadcastSource(llvm::ArrayRef<int64_t> index,
                        llvm::ArrayRef<int64_t> from);

} // namespace accy::contract

#endif // ACCY_LIB_STAGES_CONTRACT_CONSTANTVALUES_H
