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

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace accy::target {
#define GEN_PASS_DEF_CONVERTGPUTONVVM
#include "accy/Stages/Target/Passes.h.inc"
} // namespace accy::target

using namespace mlir;
using namespace accy::target;

//===----------------------------------------------------------------------===//
// Shared steps (declared in GPULowering.h)
//===----------------------------------------------------------------------===//

llvm::StringMap<SmallVector<int32_t, 3>>
accy::target::collectKnownBlockSizes(gpu::GPUModuleOp module) {
  llvm::StringMap<SmallVector<int32_t, 3>> sizes;
  for (auto func : module.getOps<gpu::GPUFuncOp>())
    if (auto known = func.getKnownBlockSizeAttr())
      sizes[func.getName()] = SmallVector<int32_t, 3>(known.asArrayRef());
  return sizes;
}

void accy::target::foldBlockDims(gpu::GPUModuleOp module) {
  module.walk([](gpu::BlockDimOp op) {
    auto func = op->getParentOfType<gpu::GPUFuncOp>();
    auto known = func ? func.getKnownBlockSizeAttr() : nullptr;
    if (!known)
      return;
    OpBuilder b(op);
    int64_t size = known.asArrayRef()[static_cast<unsigned>(op.getDimension())];
    op.replaceAllUsesWith(
        b.create<arith::ConstantIndexOp>(op.getLoc(), size).getResult());
    op.erase();
  });
}

FailureOr<llvm::StringMap<SmallVector<int32_t, 3>>>
accy::target::prepareGPUModule(gpu::GPUModuleOp module) {
  llvm::StringMap<SmallVector<int32_t, 3>> blockSizes =
      collectKnownBlockSizes(module);
  foldBlockDims(module);
  RewritePatternSet patterns(module.getContext());
  populateGpuRewritePatterns(patterns);
  if (failed(applyPatternsAndFoldGreedily(module, std::move(patterns))))
    return failure();
  return blockSizes;
}

LogicalResult accy::target::lowerMathToLLVM(gpu::GPUModuleOp module,
                                            LLVMTypeConverter &converter) {
  RewritePatternSet patterns(module.getContext());
  populateMathToLLVMConversionPatterns(converter, patterns);
  ConversionTarget target(*module.getContext());
  target.addIllegalDialect<math::MathDialect>();
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  return applyPartialConversion(module, target, std::move(patterns));
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {

struct ConvertGPUToNVVMPass
    : public accy::target::impl::ConvertGPUToNVVMBase<ConvertGPUToNVVMPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    if (!hasTarget<NVVM::NVVMTargetAttr>(module))
      return;
    MLIRContext *ctx = &getContext();
    // Block sizes reach ptxas as .maxntid: the upstream gpu.func lowering
    // turns known_block_size into nvvm.maxntid, so they are not needed here.
    if (failed(prepareGPUModule(module)))
      return signalPassFailure();

    LowerToLLVMOptions options(
        ctx, DataLayout(cast<DataLayoutOpInterface>(module.getOperation())));
    LLVMTypeConverter converter(ctx, options);
    populateGpuMemorySpaceAttributeConversions(
        converter, [](gpu::AddressSpace space) -> unsigned {
          switch (space) {
          case gpu::AddressSpace::Global:
            return static_cast<unsigned>(
                NVVM::NVVMMemorySpace::kGlobalMemorySpace);
          case gpu::AddressSpace::Workgroup:
            return static_cast<unsigned>(
                NVVM::NVVMMemorySpace::kSharedMemorySpace);
          case gpu::AddressSpace::Private:
            return 0;
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
    populateGpuToNVVMConversionPatterns(converter, patterns);
    LLVMConversionTarget target(*ctx);
    target.addLegalDialect<NVVM::NVVMDialect>();
    target.addIllegalDialect<gpu::GPUDialect>();
    target.addIllegalOp<func::FuncOp>();
    target.addLegalOp<gpu::GPUModuleOp, gpu::ModuleEndOp>();
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
