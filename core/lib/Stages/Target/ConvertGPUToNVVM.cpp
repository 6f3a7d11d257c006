//===- ConvertGPUToNVVM.cpp - GPU to NVVM without libdevice ---------------===//
//
// Upstream's convert-gpu-to-nvvm maps math ops to libdevice (`__nv_expf`,
// ...) and declares the LLVM intrinsics NVPTX selects itself (sqrt, fabs,
// floor) illegal. Accy links no libdevice, so this is the same conversion
// built from the upstream populate functions with math lowered to intrinsics
// first and those intrinsics legal.
//
//===----------------------------------------------------------------------===//

#include "GPULowering.h"

#include "accy/Stages/Target/Passes.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace accy::target {
#define GEN_PASS_DEF_CONVERTGPUTONVVM
#include "accy/Stages/Target/Passes.h.inc"
} // namespace accy::target

using namespace mlir;
using namespace accy::target;

namespace {

struct ConvertGPUToNVVMPass
    : public accy::target::impl::ConvertGPUToNVVMBase<ConvertGPUToNVVMPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    if (!hasTarget<NVVM::NVVMTargetAttr>(module))
      return;
    // Block sizes reach ptxas as .maxntid: the upstream gpu.func lowering
    // turns known_block_size into nvvm.maxntid, so they are not needed here.
    if (failed(prepareGPUModule(module)))
      return signalPassFailure();
    auto addressSpace = [](gpu::AddressSpace space) -> unsigned {
      switch (space) {
      case gpu::AddressSpace::Global:
        return static_cast<unsigned>(NVVM::NVVMMemorySpace::kGlobalMemorySpace);
      case gpu::AddressSpace::Workgroup:
        return static_cast<unsigned>(NVVM::NVVMMemorySpace::kSharedMemorySpace);
      case gpu::AddressSpace::Private:
        return 0;
      }
      llvm_unreachable("unknown address space");
    };
    auto populateGPUPatterns = [](LLVMTypeConverter &converter,
                                  RewritePatternSet &patterns) {
      // ceildivui and friends have no direct LLVM lowering. maximumf and
      // minimumf keep theirs: llvm.maximum is one max.NaN on sm_80 and
      // later, where the compares and selects were four instructions.
      arith::populateCeilFloorDivExpandOpsPatterns(patterns);
      populateGpuToNVVMConversionPatterns(converter, patterns);
    };
    if (failed(convertGPUModuleToLLVM(
            module, addressSpace, populateGPUPatterns,
            NVVM::NVVMDialect::getDialectNamespace())))
      return signalPassFailure();
  }
};

} // namespace
