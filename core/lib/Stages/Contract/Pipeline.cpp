//===- Pipeline.cpp - The accy-choir-contract pipeline --------------------===//

#include "accy/Stages/Contract/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace accy::contract;

void accy::contract::buildContractPipeline(
    OpPassManager &pm, const ContractPipelineOptions &options) {
  pm.addPass(createChoirCanonicalize());
  ChoirSaturateOptions saturate;
  saturate.maxIterations = options.maxSaturationIterations;
  pm.addPass(createChoirSaturate(saturate));
  pm.addPass(createChoirShapeLayoutPropagate());
  ChoirConstantFoldOptions fold;
  fold.maxElements = options.maxFoldElements;
  fold.allowTables = options.allowConstantTables;
  pm.addPass(createChoirConstantFold(fold));
  // Folding leaves dead size computations and identity ops behind.
  pm.addPass(createChoirCanonicalize());
}

void accy::contract::buildContractPipeline(OpPassManager &pm) {
  ContractPipelineOptions options;
  buildContractPipeline(pm, options);
}

void accy::contract::registerContractPipeline() {
  PassPipelineRegistration<ContractPipelineOptions>(
      "accy-choir-contract",
      "Normalize semantic Accy Choir into the backend contract product",
      [](OpPassManager &pm, const ContractPipelineOptions &options) {
        buildContractPipeline(pm, options);
      });
}
