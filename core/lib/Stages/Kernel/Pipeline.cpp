//===- Pipeline.cpp - The accy-choir-kernel pipeline ----------------------===//

#include "accy/Stages/Kernel/Passes.h"

#include "accy/Transforms/Canonicalize.h"

#include "mlir/Conversion/SCFToGPU/SCFToGPUPass.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void accy::kernel::buildKernelPipeline(OpPassManager &pm,
                                       const KernelPipelineOptions &) {
  pm.addPass(createSplitTargets());
  pm.addPass(createMapToGPU());
  // The elementwise dispatches became mapped scf.parallel loops.
  pm.addNestedPass<func::FuncOp>(createParallelLoopToGpuPass());
  // One sweep of the greedy driver, with the driver's own defaults (its
  // worklist bottom-up, region simplification merging blocks) rather than
  // the pass's (top-down, no block merging, up to ten sweeps): it folds and
  // rewrites until its worklist is empty, and the second sweep over the
  // whole module only found what the first one's region simplification
  // left. Half the pass's time, and no PTX, HSACO or host object of the
  // examples, the bench kernels or the scan variants changed
  // (docs/internals.md, "Rewrites on their roots").
  GreedyRewriteConfig oneSweep;
  oneSweep.maxIterations = 1;
  pm.addPass(accy::createCanonicalizePass(oneSweep));
  // Constants, dims and scalars derived from them are recomputed in the
  // kernels rather than passed.
  pm.addPass(createSinkIntoLaunches());
  pm.addPass(createOutlineKernels());
  pm.addPass(createGroupKernels());
  // The host version (nested builtin.module @host): plain loops, scans with
  // a carry.
  OpPassManager &hostFuncs = pm.nest<ModuleOp>().nest<func::FuncOp>();
  hostFuncs.addPass(createScanLoops());
  hostFuncs.addPass(createConvertLinalgToLoopsPass());
  // The host version's loops and the launch code; the gpu.modules were
  // canonicalized before outlining, and a second run over them changed no
  // PTX, HSACO or host object of the examples, the bench kernels or the
  // e2e kernels (it was a fifth of this stage's time for classifier.accy).
  pm.nest<ModuleOp>().addPass(accy::createCanonicalizePass());
  pm.nest<func::FuncOp>().addPass(accy::createCanonicalizePass());
  pm.addPass(createCSEPass());
}

void accy::kernel::registerKernelPipeline() {
  PassPipelineRegistration<KernelPipelineOptions>(
      "accy-choir-kernel",
      "Map dispatches to GPU blocks and threads, outline one gpu.module per "
      "target with host launch code, keep a host version, summarise kernels",
      [](OpPassManager &pm, const KernelPipelineOptions &options) {
        buildKernelPipeline(pm.nest<ModuleOp>(), options);
      });
}
