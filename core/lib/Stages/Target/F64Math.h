//===- F64Math.h - f64 exp, log and tanh as arithmetic ------*- C++ -*-===//
#ifndef ACCY_LIB_STAGES_TARGET_F64MATH_H
#define ACCY_LIB_STAGES_TARGET_F64MATH_H

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace accy::target {

/// Rewrites scalar f64 `math.exp`, `math.log` and `math.tanh` (the
/// transcendentals the tensor stage emits) into f64 arithmetic, floor and
/// bit casts, within 3 ulp over the whole range, so that f64 kernels need no
/// libm on any target. Upstream's approximations cover f32 only.
void populateF64MathPatterns(mlir::RewritePatternSet &patterns);

} // namespace accy::target

#endif
