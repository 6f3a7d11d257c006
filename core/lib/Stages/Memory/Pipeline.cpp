//===- Pipeline.cpp - The accy-choir-memory pipeline ----------------------===//

#include "accy/Stages/Memory/Passes.h"

#include "accy/Stages/Dispatch/Passes.h"

#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void accy::memory::buildMemoryPipeline(OpPassManager &pm,
                                       const MemoryPipelineOptions &options) {
  pm.addPass(createInlineDispatchRegions());
  pm.addPass(createPrepareBufferization());
  // Outputs are written in place: tensor.empty ops that end in an output
  // argument become that argument.
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  bufferization::OneShotBufferizationOptions bufferization;
  bufferization.bufferizeFunctionBoundaries = true;
  bufferization.setFunctionBoundaryTypeConversion(
      bufferization::LayoutMapOption::IdentityLayoutMap);
  pm.addPass(bufferization::createOneShotBufferizePass(bufferization));
  // `(memref ins..., memref outs...) -> ()`.
  pm.addPass(bufferization::createDropEquivalentBufferResultsPass());
  pm.addPass(createCSEPass());
  pm.addPass(createPlanBuffers(PlanBuffersOptions{
      options.argumentAlignment, options.bufferAlignment}));
  // The dispatches as regions again, now on buffers: what runs in one
  // kernel after bufferization and buffer reuse.
  pm.addPass(dispatch::createBuildDispatchRegions());
}

void accy::memory::registerMemoryPipeline() {
  PassPipelineRegistration<MemoryPipelineOptions>(
      "accy-choir-memory",
      "Bufferize the dispatch product and plan every buffer (memory space, "
      "alignment, reuse, deallocation)",
      [](OpPassManager &pm, const MemoryPipelineOptions &options) {
        buildMemoryPipeline(pm.nest<ModuleOp>(), options);
      });
}
