//===- Choir.h - The choir dialect and its operations -----------*- C++ -*-===//
#ifndef ACCY_DIALECT_CHOIR_IR_CHOIR_H
#define ACCY_DIALECT_CHOIR_IR_CHOIR_H

#include "accy/Dialect/Choir/IR/ChoirAttrs.h"
#include "accy/Dialect/Choir/IR/EinsumSpec.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#define GET_OP_CLASSES
#include "accy/Dialect/Choir/IR/ChoirOps.h.inc"

namespace accy::choir {

/// Name of the argument attribute that records a kernel parameter's
/// dimensions: an array of integers (static) and strings (symbolic names).
inline constexpr llvm::StringLiteral kDimsAttrName = "choir.dims";

/// Unit attribute on the func.func of an Accy kernel.
inline constexpr llvm::StringLiteral kKernelAttrName = "choir.kernel";

/// Computes the NumPy broadcast of two shapes (aligned from the right), or
/// fails when two sizes differ and neither is 1. Dynamic sizes broadcast only
/// against themselves or 1.
mlir::FailureOr<llvm::SmallVector<int64_t>>
broadcastShapes(llvm::ArrayRef<int64_t> lhs, llvm::ArrayRef<int64_t> rhs);

} // namespace accy::choir

#endif // ACCY_DIALECT_CHOIR_IR_CHOIR_H
