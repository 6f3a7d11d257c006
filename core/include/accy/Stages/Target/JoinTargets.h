//===- JoinTargets.h - One kernel's target products joined ------*- C++ -*-===//
//
// The target stage's product of a kernel for several targets is what the
// stage makes for each target alone, put together: SelectTargets keeps one
// target's launch functions, gpu.module and host module, and nothing the
// stage does for one target depends on another. So code generation can run
// in units of one kernel for one target (accy-lsp does, so that a check
// waits for one such unit at most) and the units' products are joined into
// the product a run for every target makes, byte for byte.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_STAGES_TARGET_JOINTARGETS_H
#define ACCY_STAGES_TARGET_JOINTARGETS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

namespace accy::target {

/// Joins `parts`, the target-stage products of the kernel module `input` (a
/// kernel-stage product) for one target each, into the product for all of
/// them: the ops in the order `input` has them, the generated-kernel summary
/// of every target, the host object from the host's part. The keys are left
/// for the caller to set. An error when the parts are not products of
/// `input` for distinct targets.
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
joinTargetProducts(mlir::ModuleOp input, llvm::ArrayRef<mlir::ModuleOp> parts,
                   llvm::ArrayRef<llvm::StringRef> targets);

} // namespace accy::target

#endif // ACCY_STAGES_TARGET_JOINTARGETS_H
