//===- Pipeline.cpp - The accy-choir-target pipeline ----------------------===//

#include "accy/Stages/Target/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include <string>

using namespace mlir;

/// Memref and loop lowering shared by device and host code.
static void addStructuralLowering(OpPassManager &pm) {
  pm.addPass(accy::target::createExpandStridedMetadata());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertSCFToCFPass());
}

/// bf16 on the host: x86 has no bf16 arithmetic, and LLVM's x86 backend
/// rounds f32 to bf16 by calling __truncsfbf2, which a host object may not
/// (docs/abi.md). So bf16 arithmetic is done in f32, rounded once per op as
/// f16 is, and the conversions become integer arithmetic (round to nearest
/// even, NaN kept).
static void addHostBFloat16Lowering(OpPassManager &pm) {
  static const std::string bf16[] = {"bf16"};
  arith::ArithEmulateUnsupportedFloatsOptions emulate;
  emulate.sourceTypeStrs = bf16;
  emulate.targetTypeStr = "f32";
  pm.addPass(arith::createArithEmulateUnsupportedFloats(emulate));
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));
}

void accy::target::buildTargetPipeline(OpPassManager &pm,
                                       const TargetPipelineOptions &options) {
  pm.addPass(createSelectTargets(SelectTargetsOptions{options.targets}));
  // Target attributes for the gpu.modules, which are named after their
  // target: the requested profiles, or every GPU profile.
  SmallVector<const TargetProfile *> profiles;
  if (auto parsed = parseTargetList(options.targets)) {
    profiles = *parsed;
  } else {
    llvm::consumeError(parsed.takeError());
    for (const TargetProfile &profile : getTargetProfiles())
      profiles.push_back(&profile);
  }
  for (const TargetProfile *profile : profiles) {
    std::string matcher = ("^" + profile->name + "$").str();
    if (profile->kind == TargetKind::NVPTX) {
      GpuNVVMAttachTargetOptions attach;
      attach.moduleMatcher = matcher;
      attach.triple = profile->triple.str();
      attach.chip = profile->chip.str();
      attach.features = profile->features.str();
      attach.optLevel = 3;
      pm.addPass(createGpuNVVMAttachTarget(attach));
    } else if (profile->kind == TargetKind::AMDGPU) {
      GpuROCDLAttachTargetOptions attach;
      attach.moduleMatcher = matcher;
      attach.triple = profile->triple.str();
      attach.chip = profile->chip.str();
      attach.features = profile->features.str();
      attach.optLevel = 3;
      pm.addPass(createGpuROCDLAttachTarget(attach));
    }
  }

  // f16/bf16 transcendentals are computed in f32 (and rounded once), on
  // every target alike; then everything becomes self-contained arithmetic,
  // expanded once per NVPTX module where a kernel repeats it.
  pm.addPass(createLegalizeMathToF32());
  pm.nest<gpu::GPUModuleOp>().addPass(createOutlineMath());
  pm.addPass(createLegalizeMath());

  // The GPU conversions expand the arith ops each backend wants expanded
  // (ceildivui and friends; maximumf and minimumf for AMDGPU only).
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  addStructuralLowering(device);
  device.addPass(createConvertGPUToNVVM());
  device.addPass(createConvertGPUToROCDL());
  device.addPass(createReconcileUnrealizedCastsPass());

  // The host version, in the nested `builtin.module @host`.
  OpPassManager &host = pm.nest<ModuleOp>();
  addStructuralLowering(host);
  // ceildivui and friends have no direct LLVM lowering.
  host.addPass(arith::createArithExpandOpsPass());
  addHostBFloat16Lowering(host);
  host.addPass(createConvertMathToLLVMPass());
  host.addPass(createArithToLLVMConversionPass());
  host.addPass(createConvertIndexToLLVMPass());
  host.addPass(createFinalizeMemRefToLLVMConversionPass());
  host.addPass(createConvertFuncToLLVMPass());
  host.addPass(createConvertControlFlowToLLVMPass());
  host.addPass(createReconcileUnrealizedCastsPass());

  pm.addPass(createSerialize());
}

void accy::target::registerTargetPipeline() {
  PassPipelineRegistration<TargetPipelineOptions>(
      "accy-choir-target",
      "Lower the kernel product per backend (NVVM, ROCDL, LLVM) and serialize "
      "PTX, HSACO and the host object",
      [](OpPassManager &pm, const TargetPipelineOptions &options) {
        buildTargetPipeline(pm.nest<ModuleOp>(), options);
      });
}
