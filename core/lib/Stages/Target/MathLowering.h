//===- MathLowering.h - Which math ops every backend lowers -*- C++ -*-===//
#ifndef ACCY_LIB_STAGES_TARGET_MATHLOWERING_H
#define ACCY_LIB_STAGES_TARGET_MATHLOWERING_H

namespace mlir {
class Operation;
} // namespace mlir

namespace accy::target {

/// A math op every backend lowers to instructions (sqrt, absf, floor, ...);
/// legalize-math expands every other one into arithmetic.
bool isNativeMathOp(mlir::Operation *op);

} // namespace accy::target

#endif
