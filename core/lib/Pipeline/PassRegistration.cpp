//===- PassRegistration.cpp - Textual names of the core's passes ----------===//
//
// Registers every Accy pass and stage pipeline, and the upstream passes they
// are made of, with the global pass registry. Only tools that parse textual
// pipelines (accy-opt, the pipeline tests) link this; accyc builds its
// pipelines in C++ and starts without a pass registry.
//
//===----------------------------------------------------------------------===//

#include "accy/Pipeline/Registration.h"

#include "accy/Stages/Contract/Passes.h"
#include "accy/Stages/Dispatch/Passes.h"
#include "accy/Stages/Kernel/Passes.h"
#include "accy/Stages/Memory/Passes.h"
#include "accy/Stages/Target/Passes.h"
#include "accy/Stages/Tensor/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Affine/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

void accy::registerAccyPasses() {
  mlir::registerTransformsPasses();
  mlir::registerConversionPasses();
  mlir::affine::registerAffinePasses();
  mlir::arith::registerArithPasses();
  mlir::bufferization::registerBufferizationPasses();
  mlir::registerGPUPasses();
  mlir::registerLinalgPasses();
  mlir::memref::registerMemRefPasses();
  mlir::registerSCFPasses();

  // The middle stages: contract, tensor.
  accy::contract::registerContractPasses();
  accy::contract::registerContractPipeline();
  accy::tensorstage::registerTensorPasses();
  accy::tensorstage::registerTensorPipeline();

  // The backend stages: dispatch, memory, kernel, target.
  accy::dispatch::registerDispatchPasses();
  accy::dispatch::registerDispatchPipeline();
  accy::memory::registerMemoryPasses();
  accy::memory::registerMemoryPipeline();
  accy::kernel::registerKernelPasses();
  accy::kernel::registerKernelPipeline();
  accy::target::registerTargetPasses();
  accy::target::registerTargetPipeline();
}
