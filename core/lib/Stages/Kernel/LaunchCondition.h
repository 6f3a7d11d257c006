//===- LaunchCondition.h - When a launch runs -------------------*- C++ -*-===//
//
// A launch function may choose between kernels on the sizes (a scan picks
// its variant at run time when its shapes are dynamic): host-side scf.if
// ops around the launches, on comparisons of sizes. The kernel summary
// states each launch's condition as affine constraints over the argument
// dimensions, for a runtime that does not run the launch function.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LIB_STAGES_KERNEL_LAUNCHCONDITION_H
#define ACCY_LIB_STAGES_KERNEL_LAUNCHCONDITION_H

#include "accy/Stages/Memory/SymbolicSizes.h"

#include "mlir/IR/BuiltinAttributes.h"

namespace accy::kernel {

/// When `launch`, in a launch function, runs: null when always, else an
/// array of affine maps over the symbols of `dims`, each a conjunction of
/// constraints `result >= 0`, any of which holding means it runs (an empty
/// array: never). Emits an error and fails when a
/// region around the launch is not an scf.if, or an scf.if's condition is
/// not a combination (and, or, not) of comparisons of affine functions of
/// the argument dimensions.
mlir::FailureOr<mlir::ArrayAttr> traceLaunchCondition(mlir::Operation *launch,
                                                      const ArgumentDims &dims);

} // namespace accy::kernel

#endif // ACCY_LIB_STAGES_KERNEL_LAUNCHCONDITION_H
