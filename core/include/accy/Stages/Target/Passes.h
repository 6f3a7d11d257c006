//===- Passes.h - Passes and pipeline of the target stage -------*- C++ -*-===//
//
// Backend lowering and serialization of PTX, HSACO and host objects.
// The pipeline `accy-choir-target` is registered for accy-opt; drivers build
// it per kernel module with buildTargetPipeline.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_STAGES_TARGET_PASSES_H
#define ACCY_STAGES_TARGET_PASSES_H

#include "accy/Target/TargetProfile.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

#include <memory>
#include <string>

namespace accy::target {

#define GEN_PASS_DECL
#include "accy/Stages/Target/Passes.h.inc"

struct TargetPipelineOptions
    : public mlir::PassPipelineOptions<TargetPipelineOptions> {
  Option<std::string> targets{
      *this, "targets",
      llvm::cl::desc("Comma-separated targets to emit (empty: every target "
                     "the kernel product has code for)"),
      llvm::cl::init("")};
};

/// Adds the target stage to `pm`, which must be anchored on one kernel
/// module (a `builtin.module` with `accy.kernel`).
void buildTargetPipeline(mlir::OpPassManager &pm,
                     const TargetPipelineOptions &options);

/// Registers `accy-choir-target`. Given a file's top-level module, the
/// registered pipeline runs the stage on each kernel module nested in it.
void registerTargetPipeline();

#define GEN_PASS_REGISTRATION
#include "accy/Stages/Target/Passes.h.inc"

} // namespace accy::target

#endif // ACCY_STAGES_TARGET_PASSES_H
