//===- Passes.h - Passes and pipeline of the dispatch stage -------*- C++ -*-===//
//
// Dispatch regions with fusion, then a schedule per dispatch and target.
// The pipeline `accy-choir-dispatch` is registered for accy-opt; drivers build
// it per kernel module with buildDispatchPipeline.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_STAGES_DISPATCH_PASSES_H
#define ACCY_STAGES_DISPATCH_PASSES_H

#include "accy/Target/TargetProfile.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

#include <memory>
#include <string>

namespace accy::dispatch {

#define GEN_PASS_DECL
#include "accy/Stages/Dispatch/Passes.h.inc"

struct DispatchPipelineOptions
    : public mlir::PassPipelineOptions<DispatchPipelineOptions> {
  Option<std::string> targets{
      *this, "targets",
      llvm::cl::desc("Comma-separated target profiles to plan for"),
      llvm::cl::init(std::string(kDefaultTargets))};
  Option<unsigned> maxRecomputeOps{
      *this, "max-recompute-ops",
      llvm::cl::desc("Largest producer body duplicated into consumers"),
      llvm::cl::init(8)};
};

/// Adds the dispatch stage to `pm`, which must be anchored on one kernel
/// module (a `builtin.module` with `accy.kernel`).
void buildDispatchPipeline(mlir::OpPassManager &pm,
                     const DispatchPipelineOptions &options);

/// Registers `accy-choir-dispatch`. Given a file's top-level module, the
/// registered pipeline runs the stage on each kernel module nested in it.
void registerDispatchPipeline();

#define GEN_PASS_REGISTRATION
#include "accy/Stages/Dispatch/Passes.h.inc"

} // namespace accy::dispatch

#endif // ACCY_STAGES_DISPATCH_PASSES_H
