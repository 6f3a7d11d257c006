//===- Pipeline.cpp - The accy-choir-dispatch pipeline --------------------===//

#include "accy/Stages/Dispatch/Passes.h"

#include "accy/Transforms/Canonicalize.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void accy::dispatch::buildDispatchPipeline(
    OpPassManager &pm, const DispatchPipelineOptions &options) {
  // Canonicalize before the roots are marked: linalg canonicalizations
  // rebuild ops and would drop the dispatch attributes afterwards.
  pm.addPass(createDropUnitDims());
  pm.addPass(accy::createCanonicalizePass());
  pm.addPass(createCSEPass());
  pm.addPass(createFormDispatches(
      FormDispatchesOptions{options.maxRecomputeOps}));
  pm.addPass(createPlanSchedule(PlanScheduleOptions{options.targets}));
  pm.addPass(createBuildDispatchRegions());
}

void accy::dispatch::registerDispatchPipeline() {
  PassPipelineRegistration<DispatchPipelineOptions>(
      "accy-choir-dispatch",
      "Form dispatch regions with fusion and plan each dispatch's schedule "
      "per target",
      [](OpPassManager &pm, const DispatchPipelineOptions &options) {
        buildDispatchPipeline(pm.nest<ModuleOp>(), options);
      });
}
