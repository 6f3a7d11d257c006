//===- ConvertGPUToROCDL.cpp - GPU to ROCDL without device libraries ------===//
//
// Upstream's convert-gpu-to-rocdl maps math ops to OCML and gpu.block_dim to
// OCKL calls, which only ROCm's device libraries define. This is the same
// conversion from the upstream populate functions, with math lowered to
// LLVM intrinsics (AMDGPU selects sqrt, fabs, floor, ... itself) and block
// dimensions folded to the kernels' known sizes. The tensor-core
// contractions' `amdgpu.mfma` ops lower here too, by a pattern of our own:
// MLIR 19's amdgpu-to-rocdl patterns come with a type conversion of every
// bf16 of the module to i16, which would break every other bf16 kernel.
//
//===----------------------------------------------------------------------===//

#include "GPULowering.h"

#include "accy/Stages/Target/Passes.h"

#include "mlir/Conversion/GPUToROCDL/GPUToROCDLPass.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
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

/// `amdgpu.mfma` 16x16x16 of f16 or bf16 into f32 (what
/// MmaContractionKernel.cpp issues) as the ROCDL intrinsic: bf16 operands
/// as their 16-bit patterns, as `v_mfma_f32_16x16x16bf16_1k` takes them.
struct MfmaToROCDL : ConvertOpToLLVMPattern<amdgpu::MFMAOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(amdgpu::MFMAOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto input = dyn_cast<VectorType>(op.getSourceA().getType());
    Type f32x4 = VectorType::get({4}, rewriter.getF32Type());
    if (op.getM() != 16 || op.getN() != 16 || op.getK() != 16 ||
        op.getBlocks() != 1 || op.getCbsz() || op.getAbid() ||
        op.getBlgp() != amdgpu::MFMAPermB::none || !input ||
        input.getShape() != ArrayRef<int64_t>{4} ||
        !(input.getElementType().isF16() || input.getElementType().isBF16()) ||
        op.getDestC().getType() != f32x4)
      return rewriter.notifyMatchFailure(op, "not 16x16x16 f16/bf16 to f32");
    Location loc = op.getLoc();
    Value a = adaptor.getSourceA(), b = adaptor.getSourceB();
    auto zeroI32 = [&] {
      return rewriter.create<LLVM::ConstantOp>(loc, rewriter.getI32Type(),
                                               rewriter.getI32IntegerAttr(0));
    };
    if (input.getElementType().isBF16()) {
      Type bits = VectorType::get({4}, rewriter.getI16Type());
      a = rewriter.create<LLVM::BitcastOp>(loc, bits, a);
      b = rewriter.create<LLVM::BitcastOp>(loc, bits, b);
      rewriter.replaceOpWithNewOp<ROCDL::mfma_f32_16x16x16bf16_1k>(
          op, f32x4,
          ValueRange{a, b, adaptor.getDestC(), zeroI32(), zeroI32(),
                     zeroI32()});
      return success();
    }
    rewriter.replaceOpWithNewOp<ROCDL::mfma_f32_16x16x16f16>(
        op, f32x4,
        ValueRange{a, b, adaptor.getDestC(), zeroI32(), zeroI32(), zeroI32()});
    return success();
  }
};

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
      // The tensor-core contractions (MmaContractionKernel.cpp).
      patterns.add<MfmaToROCDL>(converter);
      populateVectorToLLVMConversionPatterns(converter, patterns);
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
