//===- GPULowering.cpp - Shared steps of the NVVM and ROCDL lowerings -----===//

#include "GPULowering.h"
#include "PatternRoots.h"

#include "accy/Target/TargetProfile.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

/// The threads of a subgroup on the chip `module`'s target attribute names.
static FailureOr<unsigned> subgroupSizeOf(gpu::GPUModuleOp module) {
  ArrayAttr targets = module.getTargetsAttr();
  StringRef chip =
      !targets || targets.empty()
          ? StringRef()
          : llvm::TypeSwitch<Attribute, StringRef>(targets[0])
                .Case<NVVM::NVVMTargetAttr, ROCDL::ROCDLTargetAttr>(
                    [](auto target) { return target.getChip(); })
                .Default([](Attribute) { return StringRef(); });
  llvm::Expected<const accy::TargetProfile &> profile =
      accy::lookupTargetProfile(chip);
  if (!profile)
    return module.emitError() << llvm::toString(profile.takeError());
  return profile->subgroupSize;
}

FailureOr<llvm::StringMap<SmallVector<int32_t, 3>>>
accy::target::prepareGPUModule(gpu::GPUModuleOp module) {
  FailureOr<unsigned> subgroupSize = subgroupSizeOf(module);
  if (failed(subgroupSize))
    return failure();
  llvm::StringMap<SmallVector<int32_t, 3>> blockSizes;
  for (auto func : module.getOps<gpu::GPUFuncOp>())
    if (auto known = func.getKnownBlockSizeAttr())
      blockSizes[func.getName()] = SmallVector<int32_t, 3>(known.asArrayRef());
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
  RewritePatternSet patterns(module.getContext());
  populateGpuRewritePatterns(patterns);
  // 32-bit values in 32-bit shuffles; wider ones (i64, f64) in 64-bit
  // shuffles, which the shuffle patterns above split in two.
  populateGpuLowerSubgroupReduceToShufflePattenrs(patterns, *subgroupSize,
                                                  /*shuffleBitwidth=*/32,
                                                  /*benefit=*/2);
  populateGpuLowerSubgroupReduceToShufflePattenrs(patterns, *subgroupSize,
                                                  /*shuffleBitwidth=*/64);
  if (failed(applyPatternsToRoots(module, std::move(patterns))))
    return failure();
  // What the conversions' structural lowering left for the greedy driver's
  // region simplification: blocks that the scf lowering made alike are
  // merged, as the whole-module greedy run this replaces did (without it,
  // the cross-entropy kernels grow by 2-3% of SASS).
  IRRewriter rewriter(module.getContext());
  (void)simplifyRegions(rewriter, module->getRegions(), /*mergeBlocks=*/true);
  return blockSizes;
}

/// Math ops to LLVM intrinsics; everything else stays as it is.
static LogicalResult lowerMathToLLVM(gpu::GPUModuleOp module,
                                     LLVMTypeConverter &converter) {
  RewritePatternSet patterns(module.getContext());
  populateMathToLLVMConversionPatterns(converter, patterns);
  ConversionTarget target(*module.getContext());
  target.addIllegalDialect<math::MathDialect>();
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  return applyPartialConversion(module, target, std::move(patterns));
}

LogicalResult accy::target::convertGPUModuleToLLVM(
    gpu::GPUModuleOp module,
    llvm::function_ref<unsigned(gpu::AddressSpace)> addressSpace,
    llvm::function_ref<void(LLVMTypeConverter &, RewritePatternSet &)>
        populateGPUPatterns,
    llvm::StringRef backendDialect) {
  MLIRContext *ctx = module.getContext();
  LowerToLLVMOptions options(
      ctx, DataLayout(cast<DataLayoutOpInterface>(module.getOperation())));
  LLVMTypeConverter converter(ctx, options);
  populateGpuMemorySpaceAttributeConversions(
      converter, [&](gpu::AddressSpace space) { return addressSpace(space); });
  if (failed(lowerMathToLLVM(module, converter)))
    return failure();

  RewritePatternSet patterns(ctx);
  arith::populateArithToLLVMConversionPatterns(converter, patterns);
  cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
  populateFuncToLLVMConversionPatterns(converter, patterns);
  populateFinalizeMemRefToLLVMConversionPatterns(converter, patterns);
  index::populateIndexToLLVMConversionPatterns(converter, patterns);
  populateGPUPatterns(converter, patterns);
  LLVMConversionTarget target(*ctx);
  target.addLegalDialect(backendDialect);
  target.addIllegalDialect<gpu::GPUDialect>();
  target.addIllegalOp<func::FuncOp>();
  target.addLegalOp<gpu::GPUModuleOp, gpu::ModuleEndOp>();
  return applyPartialConversion(module, target, std::move(patterns));
}
