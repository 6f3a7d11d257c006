//===- Pipeline.cpp - The accy-choir-tensor pipeline ----------------------===//

#include "accy/Stages/Tensor/Passes.h"

#include "accy/Transforms/Canonicalize.h"

#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace accy::tensorstage;

void accy::tensorstage::buildTensorPipeline(
    OpPassManager &pm, const TensorPipelineOptions &options) {
  // Losses and activations first: they are written in terms of reductions
  // and elementwise ops of their own, so each pass finishes its ops.
  pm.addPass(createChoirLossLower());
  pm.addPass(createChoirActivationLower());
  ChoirEinsumLowerOptions einsum;
  einsum.useNamedOps = options.useNamedOps;
  pm.addPass(createChoirEinsumLower(einsum));
  pm.addPass(createChoirIndexingLower());
  pm.addPass(createChoirReductionLower());
  pm.addPass(createChoirElementwiseLower());
  // Sizes read from intermediate results become sizes of the arguments.
  pm.addPass(accy::createCanonicalizePass());
  pm.addPass(memref::createResolveRankedShapeTypeResultDimsPass());
  pm.addPass(createCSEPass());
  pm.addPass(createChoirDestinationStyle());
}

void accy::tensorstage::buildTensorPipeline(OpPassManager &pm) {
  TensorPipelineOptions options;
  buildTensorPipeline(pm, options);
}

void accy::tensorstage::registerTensorPipeline() {
  PassPipelineRegistration<TensorPipelineOptions>(
      "accy-choir-tensor",
      "Lower the Accy contract product to linalg/tensor/arith/math on tensors "
      "in destination-passing style",
      [](OpPassManager &pm, const TensorPipelineOptions &options) {
        buildTensorPipeline(pm, options);
      });
}
