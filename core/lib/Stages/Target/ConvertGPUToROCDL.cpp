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

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/GPUToROCDL/GPUToROCDLPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace accy::target {
#define GEN_PASS_DEF_CONVERTGPUTOROCDL
#include "accy/Stages/Target/Passes.h.inc"
} // namespace accy::target

using namespace mlir;
using namespace accy::target;

namespace {

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

    LowerToLLVMOptions options(
        ctx, DataLayout(cast<DataLayoutOpInterface>(module.getOperation())));
    LLVMTypeConverter converter(ctx, options);
    populateGpuMemorySpaceAttributeConversions(
        converter, [](gpu::AddressSpace space) -> unsigned {
          switch (space) {
          case gpu::AddressSpace::Global:
            return 1;
          case gpu::AddressSpace::Workgroup:
            return 3;
          case gpu::AddressSpace::Private:
            return 5;
          }
          llvm_unreachable("unknown address space");
        });
    if (failed(lowerMathToLLVM(module, converter)))
      return signalPassFailure();

    RewritePatternSet patterns(ctx);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    populateFuncToLLVMConversionPatterns(converter, patterns);
    populateFinalizeMemRefToLLVMConversionPatterns(converter, patterns);
    index::populateIndexToLLVMConversionPatterns(converter, patterns);
    populateGpuToROCDLConversionPatterns(converter, patterns,
                                         gpu::amd::Runtime::Unknown);
    LLVMConversionTarget target(*ctx);
    target.addLegalDialect<ROCDL::ROCDLDialect>();
    target.addIllegalDialect<gpu::GPUDialect>();
    target.addIllegalOp<func::FuncOp>();
    target.addLegalOp<gpu::GPUModuleOp, gpu::ModuleEndOp>();
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
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
