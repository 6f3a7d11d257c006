//===- ConvertGPUToROCDL.cpp - GPU to ROCDL without device libraries ------===//
//
// Upstream's convert-gpu-to-rocdl maps math ops to OCML and gpu.block_dim to
// OCKL calls, which only ROCm's device libraries define. This is the same
// conversion from the upstream populate functions, with math lowered to
// LLVM intrinsics (AMDGPU selects sqrt, fabs, floor, ... itself) and block
// dimensions folded to the kernels' known sizes.
//
//===----------------------------------------------------------------------===//

#include "GPULowering.h"

#include "accy/Stages/Target/Passes.h"

#include "mlir/Conversion/GPUToROCDL/GPUToROCDLPass.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Transforms/DialectConversion.h"

namespace accy::target {
#define GEN_PASS_DEF_CONVERTGPUTOROCDL
#include "accy/Stages/Target/Passes.h.inc"
} // namespace accy::target

using namespace mlir;
using namespace accy::target;

namespace {

/// What upstream's arith-expand does: ceildivui and friends, which have no
/// direct LLVM lowering, and maximumf and friends as compares and selects.
/// The AMDGPU backend's own expansion of llvm.maximum (v_max, v_cmp_o,
/// v_cndmask) saved no instruction in softmax.accy's gfx942 code object and
/// added an s_nop (a wait state) before most of its selects.
LogicalResult expandArithOps(gpu::GPUModuleOp module) {
  RewritePatternSet patterns(module.getContext());
  arith::populateArithExpandOpsPatterns(patterns);
  ConversionTarget target(*module.getContext());
  target.addIllegalOp<arith::CeilDivSIOp, arith::CeilDivUIOp,
                      arith::FloorDivSIOp, arith::MaximumFOp,
                      arith::MinimumFOp, arith::MaxNumFOp, arith::MinNumFOp>();
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  return applyPartialConversion(module, target, std::move(patterns));
}

struct ConvertGPUToROCDLPass
    : public accy::target::impl::ConvertGPUToROCDLBase<ConvertGPUToROCDLPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    if (!hasTarget<ROCDL::ROCDLTargetAttr>(module))
      return;
    MLIRContext *ctx = &getContext();
    FailureOr<llvm::StringMap<SmallVector<int32_t, 3>>> blockSizes =
        prepareGPUModule(module);
    if (failed(blockSizes))
      return signalPassFailure();
    WalkResult unsupported = module.walk([](gpu::GridDimOp op) {
      op.emitError("gpu.grid_dim needs ROCm's OCKL on AMD GPUs; Accy kernels "
                   "must not use it");
      return WalkResult::interrupt();
    });
    if (unsupported.wasInterrupted())
      return signalPassFailure();
    if (failed(expandArithOps(module)))
      return signalPassFailure();

    auto addressSpace = [](gpu::AddressSpace space) -> unsigned {
      switch (space) {
      case gpu::AddressSpace::Global:
        return 1;
      case gpu::AddressSpace::Workgroup:
        return 3;
      case gpu::AddressSpace::Private:
        return 5;
      }
      llvm_unreachable("unknown address space");
    };
    auto populateGPUPatterns = [](LLVMTypeConverter &converter,
                                  RewritePatternSet &patterns) {
      populateGpuToROCDLConversionPatterns(converter, patterns,
                                           gpu::amd::Runtime::Unknown);
    };
    if (failed(convertGPUModuleToLLVM(
            module, addressSpace, populateGPUPatterns,
            ROCDL::ROCDLDialect::getDialectNamespace())))
      return signalPassFailure();

    // The backend allocates registers and LDS for the exact block size.
    Builder b(ctx);
    for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
      auto it = blockSizes->find(func.getName());
      if (it == blockSizes->end() ||
          !func->hasAttr(ROCDL::ROCDLDialect::getKernelFuncAttrName()))
        continue;
      int64_t threads = 1;
      for (int32_t size : it->second)
        threads *= size;
      func->setAttr(ROCDL::ROCDLDialect::getReqdWorkGroupSizeAttrName(),
                    b.getDenseI32ArrayAttr(it->second));
      func->setAttr(ROCDL::ROCDLDialect::getFlatWorkGroupSizeAttrName(),
                    b.getStringAttr((llvm::Twine(threads) + "," + llvm::Twine(threads)).str()));
    }
  }
};

} // namespace
