//===- ConvertGPUToNVVM.cpp - GPU to NVVM without libdevice ---------------===//
//
// Upstream's convert-gpu-to-nvvm maps math ops to libdevice (`__nv_expf`,
// ...) and declares the LLVM intrinsics NVPTX selects itself (sqrt, fabs,
// floor) illegal. Accy links no libdevice, so this is the same conversion
// built from the upstream populate functions with math lowered to intrinsics
// first and those intrinsics legal. The tensor-core contractions' nvgpu and
// vector ops lower here too; MLIR 19 cannot lower a bf16 `nvgpu.mma.sync`
// (its NVVM op wants f16 vectors where the intrinsic takes i32), so that
// one becomes a call of the intrinsic. A `cp.async` with a source size (the
// zeros past K of a contraction's copies) becomes inline PTX: MLIR 19
// translates its NVVM op to the intrinsic without that size.
//
//===----------------------------------------------------------------------===//

#include "GPULowering.h"

#include "accy/Stages/Target/Passes.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace accy::target {
#define GEN_PASS_DEF_CONVERTGPUTONVVM
#include "accy/Stages/Target/Passes.h.inc"
} // namespace accy::target

using namespace mlir;
using namespace accy::target;

namespace {

/// `nvgpu.mma.sync` of bf16 m16n8k16 fragments as a call of
/// `llvm.nvvm.mma.m16n8k16.row.col.bf16`: A and B as the i32 registers
/// that hold two bf16 each, C and D as four f32.
struct MmaSyncBF16ToIntrinsic : ConvertOpToLLVMPattern<nvgpu::MmaSyncOp> {
  MmaSyncBF16ToIntrinsic(const LLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern(converter, /*benefit=*/2) {}

  LogicalResult
  matchAndRewrite(nvgpu::MmaSyncOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto aType = op.getMatrixA().getType();
    if (!aType.getElementType().isBF16() ||
        op.getMmaShapeAsArray() != std::array<int64_t, 3>{16, 8, 16} ||
        aType.getShape() != ArrayRef<int64_t>{4, 2} ||
        op.getMatrixB().getType().getShape() != ArrayRef<int64_t>{2, 2} ||
        op.getMatrixC().getType() !=
            VectorType::get({2, 2}, rewriter.getF32Type()))
      return rewriter.notifyMatchFailure(op, "not bf16 m16n8k16 into f32");
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type(), f32 = rewriter.getF32Type();
    SmallVector<Value> args;
    // A and B lower to arrays of vector<2xbf16>: each one i32 register.
    for (auto [value, count] :
         {std::pair{adaptor.getMatrixA(), 4}, {adaptor.getMatrixB(), 2}})
      for (int64_t i = 0; i < count; ++i)
        args.push_back(rewriter.create<LLVM::BitcastOp>(
            loc, i32, rewriter.create<LLVM::ExtractValueOp>(loc, value, i)));
    // C: an array of two vector<2xf32> rows.
    for (int64_t r = 0; r < 2; ++r) {
      Value row =
          rewriter.create<LLVM::ExtractValueOp>(loc, adaptor.getMatrixC(), r);
      for (int64_t c = 0; c < 2; ++c)
        args.push_back(rewriter.create<LLVM::ExtractElementOp>(
            loc, row,
            rewriter.create<LLVM::ConstantOp>(loc, i32,
                                              rewriter.getI32IntegerAttr(c))));
    }
    auto resultType = LLVM::LLVMStructType::getLiteral(
        getContext(), SmallVector<Type>(4, f32));
    Value d =
        rewriter
            .create<LLVM::CallIntrinsicOp>(
                loc, resultType, "llvm.nvvm.mma.m16n8k16.row.col.bf16", args)
            .getResult(0);
    Type rowType = VectorType::get({2}, f32);
    Type arrayType = getTypeConverter()->convertType(op.getType());
    Value result = rewriter.create<LLVM::UndefOp>(loc, arrayType);
    for (int64_t r = 0; r < 2; ++r) {
      Value row = rewriter.create<LLVM::UndefOp>(loc, rowType);
      for (int64_t c = 0; c < 2; ++c)
        row = rewriter.create<LLVM::InsertElementOp>(
            loc, row, rewriter.create<LLVM::ExtractValueOp>(loc, d, 2 * r + c),
            rewriter.create<LLVM::ConstantOp>(loc, i32,
                                              rewriter.getI32IntegerAttr(c)));
      result = rewriter.create<LLVM::InsertValueOp>(loc, result, row, r);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

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
      // The tensor-core contractions (MmaContractionKernel.cpp); their
      // cp.async tokens are nothing at run time (an i32, as upstream's
      // pass converts them).
      converter.addConversion([&](nvgpu::DeviceAsyncTokenType type) {
        return converter.convertType(IntegerType::get(type.getContext(), 32));
      });
      populateNVGPUToNVVMConversionPatterns(converter, patterns);
      patterns.add<MmaSyncBF16ToIntrinsic>(converter);
      populateVectorToLLVMConversionPatterns(converter, patterns);
    };
    if (failed(convertGPUModuleToLLVM(
            module, addressSpace, populateGPUPatterns,
            NVVM::NVVMDialect::getDialectNamespace())))
      return signalPassFailure();
    // NVVM ops without an intrinsic for their operands, as inline PTX.
    SmallVector<Operation *> inlinePtx;
    module.walk([&](NVVM::BasicPtxBuilderInterface op) {
      if (!op.hasIntrinsic())
        inlinePtx.push_back(op);
    });
    if (inlinePtx.empty())
      return;
    RewritePatternSet patterns(&getContext());
    populateNVVMToLLVMConversionPatterns(patterns);
    GreedyRewriteConfig config;
    config.strictMode = GreedyRewriteStrictness::ExistingOps;
    if (failed(applyOpPatternsAndFold(inlinePtx, std::move(patterns), config)))
      return signalPassFailure();
  }
};

} // namespace
