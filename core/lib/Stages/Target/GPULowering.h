//===- GPULowering.h - Shared steps of the NVVM and ROCDL lowerings -*- C++ -*-===//
#ifndef ACCY_LIB_STAGES_TARGET_GPULOWERING_H
#define ACCY_LIB_STAGES_TARGET_GPULOWERING_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/StringMap.h"

namespace mlir {
class LLVMTypeConverter;
class RewritePatternSet;
} // namespace mlir

namespace accy::target {

/// The first steps of both lowerings: records each kernel's known block
/// size, folds gpu.block_dim to it (ROCDL would otherwise call OCKL, and
/// both backends optimize better with constants) and applies upstream's GPU
/// rewrites, subgroup reductions among them as butterfly shuffles over the
/// subgroup of the chip the module's target names (its profile's
/// subgroupSize, which the plans were sized with). Returns the block sizes
/// by kernel name (the conversions attach them to the kernels).
mlir::FailureOr<llvm::StringMap<llvm::SmallVector<int32_t, 3>>>
prepareGPUModule(mlir::gpu::GPUModuleOp module);

/// The conversion both lowerings end with: memory spaces mapped by
/// `addressSpace`; math ops to LLVM intrinsics (sqrt, fabs, floor, ...)
/// first, before the GPU patterns would map them to libdevice/OCML calls;
/// then arith, cf, func, memref, index and the backend's patterns
/// (`populateGPUPatterns`: its GPU ops, and the arith ops it expands) to the
/// LLVM dialect and `backendDialect`.
mlir::LogicalResult convertGPUModuleToLLVM(
    mlir::gpu::GPUModuleOp module,
    llvm::function_ref<unsigned(mlir::gpu::AddressSpace)> addressSpace,
    llvm::function_ref<void(mlir::LLVMTypeConverter &,
                            mlir::RewritePatternSet &)>
        populateGPUPatterns,
    llvm::StringRef backendDialect);

/// True when the module's first target attribute is of type `TargetAttr`.
template <typename TargetAttr>
bool hasTarget(mlir::gpu::GPUModuleOp module) {
  mlir::ArrayAttr targets = module.getTargetsAttr();
  return targets && !targets.empty() && mlir::isa<TargetAttr>(targets[0]);
}

} // namespace accy::target

#endif // ACCY_LIB_STAGES_TARGET_GPULOWERING_H
