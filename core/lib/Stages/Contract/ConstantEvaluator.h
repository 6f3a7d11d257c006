//===- ConstantEvaluator.h - Values of choir ops on constants ---*- C++ -*-===//
#ifndef ACCY_LIB_STAGES_CONTRACT_CONSTANTEVALUATOR_H
#define ACCY_LIB_STAGES_CONTRACT_CONSTANTEVALUATOR_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"

#include <cstdint>

namespace accy::contract {

/// The value of a choir op whose tensor operands are all constants (or
/// choir ops of constants, evaluated on the way), when its result has a
/// static shape of at most `budget` elements (and so do the values it
/// reads). Fails for ops it does not evaluate (einsum), float-to-integer
/// overflow, empty max/min reductions. Integer division follows the tensor
/// stage's lowering: x / 0 is 0, x / -1 is -x (wrapping).
mlir::FailureOr<mlir::DenseElementsAttr> evaluateChoirOp(mlir::Operation *op,
                                                         int64_t budget);

} // namespace accy::contract

#endif // ACCY_LIB_STAGES_CONTRACT_CONSTANTEVALUATOR_H
