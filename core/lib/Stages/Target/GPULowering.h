//===- GPULowering.h - Shared steps of the NVVM and ROCDL lowerings -*- C++ -*-===//
#ifndef ACCY_LIB_STAGES_TARGET_GPULOWERING_H
#define ACCY_LIB_STAGES_TARGET_GPULOWERING_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/StringMap.h"

namespace mlir {
class LLVMTypeConverter;
} // namespace mlir

namespace accy::target {

/// The known block size of each kernel of `module`, by name.
llvm::StringMap<llvm::SmallVector<int32_t, 3>>
collectKnownBlockSizes(mlir::gpu::GPUModuleOp module);

/// Replaces gpu.block_dim with the kernel's known block size (ROCDL would
/// otherwise call OCKL, and both backends optimize better with constants).
void foldBlockDims(mlir::gpu::GPUModuleOp module);

/// The first steps of both lowerings: records each kernel's known block
/// size, folds gpu.block_dim to it and applies upstream's GPU rewrites.
/// Returns the block sizes (the conversions attach them to the kernels).
mlir::FailureOr<llvm::StringMap<llvm::SmallVector<int32_t, 3>>>
prepareGPUModule(mlir::gpu::GPUModuleOp module);

/// Converts the remaining math ops to LLVM intrinsics (sqrt, fabs, floor,
/// ...) before the GPU conversions would map them to libdevice/OCML calls.
mlir::LogicalResult lowerMathToLLVM(mlir::gpu::GPUModuleOp module,
                                    mlir::LLVMTypeConverter &converter);

/// True when the module's first target attribute is of type `TargetAttr`.
template <typename TargetAttr>
bool hasTarget(mlir::gpu::GPUModuleOp module) {
  mlir::ArrayAttr targets = module.getTargetsAttr();
  return targets && !targets.empty() && mlir::isa<TargetAttr>(targets[0]);
}

} // namespace accy::target

#endif // ACCY_LIB_STAGES_TARGET_GPULOWERING_H
