//===- TargetUnits.h - Code generation one kernel, one target ---*- C++ -*-===//
//
// The target stage in units of one kernel for one target, for a caller that
// must be able to stop between them (accy-lsp runs each unit at background
// priority and gives the compile slot back after it). A unit is the target
// stage run with that target alone; its product is cached under the key of
// that run. Once every target's unit of a kernel is in the cache, the joined
// product goes into it under the key of the stage for all targets, where
// the stage run finds it as a reuse: byte for byte what it would have made.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_PIPELINE_TARGETUNITS_H
#define ACCY_PIPELINE_TARGETUNITS_H

#include "accy/Pipeline/ProductCache.h"
#include "accy/Pipeline/StageRunner.h"

namespace accy {

/// The options of the target stage's unit for `target` alone.
StageOptions targetUnitOptions(const StageOptions &options,
                               llvm::StringRef target);

/// The key of the target stage's product of `input` (a kernel-stage
/// product) under `options`.
std::string targetStageKey(const StageOptions &options,
                           const KernelProduct &input);

/// For each kernel of `inputs` (kernel-stage products) whose unit of every
/// target in `options` `cache` holds, stores the joined product in `cache`
/// (and the options' kernel store) under the target stage's key. Returns
/// how many kernels were joined.
size_t joinTargetUnits(mlir::MLIRContext &context,
                       llvm::ArrayRef<SharedKernel> inputs,
                       const StageOptions &options, ProductCache &cache);

} // namespace accy

#endif // ACCY_PIPELINE_TARGETUNITS_H
