//===- StagePipelines.cpp - The pass pipeline of each stage ---------------===//

#include "accy/Pipeline/StageRunner.h"

#include "accy/Stages/Contract/Passes.h"
#include "accy/Stages/Dispatch/Passes.h"
#include "accy/Stages/Kernel/Passes.h"
#include "accy/Stages/Memory/Passes.h"
#include "accy/Stages/Target/Passes.h"
#include "accy/Stages/Tensor/Passes.h"

#include "llvm/ADT/StringExtras.h"

using namespace accy;

void accy::buildStagePipeline(StageId stage, mlir::OpPassManager &pm,
                              const StageOptions &options) {
  std::string targets = llvm::join(options.targets, ",");
  switch (stage) {
  case StageId::Semantic:
    return; // the frontend, not a pass pipeline
  case StageId::Contract:
    return contract::buildContractPipeline(pm);
  case StageId::Tensor:
    return tensorstage::buildTensorPipeline(pm);
  case StageId::Dispatch: {
    dispatch::DispatchPipelineOptions o;
    o.targets = targets;
    return dispatch::buildDispatchPipeline(pm, o);
  }
  case StageId::Memory:
    return memory::buildMemoryPipeline(pm, memory::MemoryPipelineOptions());
  case StageId::Kernel:
    return kernel::buildKernelPipeline(pm, kernel::KernelPipelineOptions());
  case StageId::Target: {
    target::TargetPipelineOptions o;
    o.targets = targets;
    return target::buildTargetPipeline(pm, o);
  }
  }
}
