//===- Passes.h - Passes and pipeline of the kernel stage -------*- C++ -*-===//
//
// Thread mapping, kernel outlining, host version, kernel summary.
// The pipeline `accy-choir-kernel` is registered for accy-opt; drivers build
// it per kernel module with buildKernelPipeline.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_STAGES_KERNEL_PASSES_H
#define ACCY_STAGES_KERNEL_PASSES_H

#include "accy/Target/TargetProfile.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

#include <memory>
#include <string>

namespace accy::kernel {

#define GEN_PASS_DECL
#include "accy/Stages/Kernel/Passes.h.inc"

struct KernelPipelineOptions
    : public mlir::PassPipelineOptions<KernelPipelineOptions> {

};

/// Adds the kernel stage to `pm`, which must be anchored on one kernel
/// module (a `builtin.module` with `accy.kernel`).
void buildKernelPipeline(mlir::OpPassManager &pm,
                     const KernelPipelineOptions &options);

/// Registers `accy-choir-kernel`. Given a file's top-level module, the
/// registered pipeline runs the stage on each kernel module nested in it.
void registerKernelPipeline();

#define GEN_PASS_REGISTRATION
#include "accy/Stages/Kernel/Passes.h.inc"

} // namespace accy::kernel

#endif // ACCY_STAGES_KERNEL_PASSES_H
