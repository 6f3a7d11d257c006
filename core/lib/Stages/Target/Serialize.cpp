//===- Serialize.cpp - PTX, HSACO and host objects into the product -------===//
//
// Each lowered gpu.module becomes a gpu.binary; the host module becomes the
// `accy.host_object` attribute. Code generation itself is the Target
// library's (CodeGen.h), shared with the whole-file artifacts; this pass
// translates to LLVM IR and records the results.
//
//===----------------------------------------------------------------------===//

#include "accy/Stages/Dispatch/Plan.h"
#include "accy/Stages/Target/Passes.h"
#include "accy/Target/CodeGen.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/ROCDL/ROCDLToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

namespace accy::target {
#define GEN_PASS_DEF_SERIALIZE
#include "accy/Stages/Target/Passes.h.inc"
} // namespace accy::target

using namespace mlir;
using namespace accy;

namespace {

/// Bitcode and artifact of one lowered module.
struct Compiled {
  std::string bitcode;
  std::string artifact;
};

FailureOr<Compiled> compile(Operation *module, StringRef name,
                            const target::TargetProfile &profile) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, context, name);
  if (!llvmModule)
    return module->emitError() << "cannot translate the " << profile.name
                               << " code of '" << name << "' to LLVM IR";
  llvmModule->setSourceFileName(name);
  auto report = [&](llvm::Error error) {
    return module->emitError() << llvm::toString(std::move(error));
  };
  if (llvm::Error error = target::optimizeModule(*llvmModule, profile))
    return report(std::move(error));
  if (llvm::Error error = target::checkSelfContained(*llvmModule, profile))
    return report(std::move(error));
  Compiled result;
  result.bitcode = target::writeBitcode(*llvmModule);
  llvm::Expected<std::string> artifact =
      target::emitArtifact(*llvmModule, profile);
  if (!artifact)
    return report(artifact.takeError());
  result.artifact = std::move(*artifact);
  return result;
}

struct SerializePass
    : public accy::target::impl::SerializeBase<SerializePass> {
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<gpu::GPUDialect, LLVM::LLVMDialect, NVVM::NVVMDialect,
                    ROCDL::ROCDLDialect>();
    registerBuiltinDialectTranslation(registry);
    registerGPUDialectTranslation(registry);
    registerLLVMDialectTranslation(registry);
    registerNVVMDialectTranslation(registry);
    registerROCDLDialectTranslation(registry);
  }

  LogicalResult serializeGPUModule(ModuleOp kernel, gpu::GPUModuleOp module) {
    StringRef targetName = module.getName();
    if (auto name = module->getAttrOfType<StringAttr>(kGPUModuleTargetAttr))
      targetName = name.getValue();
    llvm::Expected<const target::TargetProfile &> profile =
        target::lookupTargetProfile(targetName);
    if (!profile)
      return module.emitError() << llvm::toString(profile.takeError());
    ArrayAttr targets = module.getTargetsAttr();
    if (!targets || targets.size() != 1)
      return module.emitError()
             << "gpu.module for '" << targetName
             << "' needs exactly one target attribute (nvvm-attach-target / "
                "rocdl-attach-target)";
    std::string name = (getKernelName(kernel) + "." + targetName).str();
    FailureOr<Compiled> compiled = compile(module, name, *profile);
    if (failed(compiled))
      return failure();
    MLIRContext *ctx = &getContext();
    Builder b(ctx);
    auto format = profile->kind == target::TargetKind::NVPTX
                      ? gpu::CompilationTarget::Assembly
                      : gpu::CompilationTarget::Binary;
    auto object = gpu::ObjectAttr::get(
        ctx, targets[0], format, b.getStringAttr(compiled->artifact),
        b.getDictionaryAttr({b.getNamedAttr(
            kBitcodeProperty, b.getStringAttr(compiled->bitcode))}));
    OpBuilder builder(&getContext());
    builder.setInsertionPointAfter(module);
    std::string symbol = module.getName().str();
    Location loc = module.getLoc();
    module.erase();
    builder.create<gpu::BinaryOp>(loc, symbol, Attribute(),
                                  ArrayRef<Attribute>{object});
    return success();
  }

  LogicalResult serializeHost(ModuleOp kernel, ModuleOp host) {
    llvm::Expected<const target::TargetProfile &> profile =
        target::lookupTargetProfile("host");
    if (!profile)
      return host.emitError() << llvm::toString(profile.takeError());
    // Only the C interface is exported; everything else is internal, so
    // kernels of one file link together without clashes.
    SmallVector<Attribute> exported;
    Builder b(&getContext());
    for (auto func : host.getOps<LLVM::LLVMFuncOp>()) {
      if (func.isExternal())
        continue;
      if (func.getName().starts_with("_mlir_ciface_"))
        exported.push_back(b.getStringAttr(func.getName()));
      else
        func.setLinkage(LLVM::Linkage::Internal);
    }
    if (exported.empty())
      return host.emitError() << "the host module of '" << getKernelName(kernel)
                              << "' exports no _mlir_ciface_ function";
    std::string name = (getKernelName(kernel) + ".host").str();
    FailureOr<Compiled> compiled = compile(host, name, *profile);
    if (failed(compiled))
      return failure();
    kernel->setAttr(
        kHostObjectAttr,
        b.getDictionaryAttr(
            {b.getNamedAttr("bitcode", b.getStringAttr(compiled->bitcode)),
             b.getNamedAttr("cpu", b.getStringAttr(profile->chip)),
             b.getNamedAttr("object", b.getStringAttr(compiled->artifact)),
             b.getNamedAttr("symbols", b.getArrayAttr(exported)),
             b.getNamedAttr("triple", b.getStringAttr(profile->triple))}));
    host.erase();
    return success();
  }

  LogicalResult serialize(ModuleOp kernel) {
    bool failed = false;
    for (auto module :
         llvm::make_early_inc_range(kernel.getOps<gpu::GPUModuleOp>()))
      failed |= mlir::failed(serializeGPUModule(kernel, module));
    for (auto host : llvm::make_early_inc_range(kernel.getOps<ModuleOp>()))
      if (host.getSymName() == kHostModuleName)
        failed |= mlir::failed(serializeHost(kernel, host));
    return failure(failed);
  }

  void runOnOperation() override {
    if (failed(forEachKernelModule(getOperation(), [&](ModuleOp kernel) {
          return serialize(kernel);
        })))
      signalPassFailure();
  }
};

} // namespace
