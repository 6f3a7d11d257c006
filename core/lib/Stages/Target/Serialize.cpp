//===- Serialize.cpp - PTX, HSACO and host objects into the product -------===//
//
// Each lowered gpu.module becomes a gpu.binary; the host module becomes the
// `accy.host_object` attribute. Code generation itself is the Target
// library's (CodeGen.h), shared with the whole-file artifacts; this pass
// translates to LLVM IR and records the results. A kernel's modules (one per
// target) are translated in turn on the pass's thread, where diagnostics are
// captured, and then optimized and compiled by LLVM at once, one per thread,
// each inside a crash recovery context of its own (where the process enabled
// recovery: accy-lsp), as a crash on a thread of the pool would otherwise
// end the process.
//
//===----------------------------------------------------------------------===//

#include "accy/Stages/Dispatch/Plan.h"
#include "accy/Stages/Target/Passes.h"
#include "accy/Support/CrashContainment.h"
#include "accy/Target/Artifacts.h"
#include "accy/Target/CodeGen.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Threading.h"
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

/// One lowered module of a kernel on its way to an artifact.
struct CodegenJob {
  Operation *module;
  std::string kernel;
  const target::TargetProfile *profile;
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> llvmModule;
  /// NVPTX and host: the bitcode; AMDGPU: the relocatable object.
  std::string linkable;
  std::string artifact;
  std::string error; // what LLVM reported, empty on success

  /// The LLVM module's name: the kernel and the target.
  std::string name() const { return kernel + "." + profile->name.str(); }
};

/// Translates `job.module` to LLVM IR. On the pass's thread: translation
/// reports its failures as MLIR diagnostics on the ops.
LogicalResult translate(CodegenJob &job) {
  job.context = std::make_unique<llvm::LLVMContext>();
  job.llvmModule = translateModuleToLLVMIR(job.module, *job.context, job.name());
  if (!job.llvmModule)
    return job.module->emitError()
           << "cannot translate the " << job.profile->name << " code of '"
           << job.name() << "' to LLVM IR";
  job.llvmModule->setSourceFileName(job.name());
  return success();
}

/// Optimizes and compiles the translated module: LLVM only, so any thread
/// may run it; errors are kept in the job for the pass's thread to report.
void generateCode(CodegenJob &job) {
  const std::optional<InjectedFault> &fault = injectedFault();
  if (fault && fault->appliesTo("codegen", job.kernel)) {
    if (fault->mode != InjectedFault::Fail)
      fault->raise();
    job.error = fault->failureMessage();
    return;
  }
  llvm::Module &module = *job.llvmModule;
  llvm::Error error = target::optimizeModule(module, *job.profile);
  if (!error)
    error = target::checkSelfContained(module, *job.profile);
  if (error) {
    job.error = llvm::toString(std::move(error));
    return;
  }
  bool amdgpu = job.profile->kind == target::TargetKind::AMDGPU;
  if (!amdgpu)
    job.linkable = target::writeBitcode(module);
  llvm::Expected<target::EmittedCode> code =
      target::emitCode(module, *job.profile);
  if (!code) {
    job.error = llvm::toString(code.takeError());
    return;
  }
  job.artifact = std::move(code->artifact);
  if (amdgpu)
    job.linkable = std::move(code->relocatable);
}

/// generateCode, with a crash (a signal, abort(), a fatal error inside an
/// LLVM backend) turned into the job's error where recovery is enabled.
void generateCodeRecovering(CodegenJob &job) {
  std::optional<std::string> crash =
      runRecoveringCrash([&] { generateCode(job); });
  if (!crash)
    return;
  // LLVM's module and context may be inconsistent after a crash: leaked,
  // never destroyed.
  (void)job.llvmModule.release();
  (void)job.context.release();
  job.error = (llvm::Twine(kInternalErrorPrefix) + " (" + *crash +
               ") in LLVM code generation for " + job.profile->name)
                  .str();
}

struct SerializePass
    : public accy::target::impl::SerializeBase<SerializePass> {
  /// The dialects only. Their LLVM IR translations are dialect extensions,
  /// which the contexts that run this pass register with the dialects
  /// (registerAccyDialects): MLIR 19's PassManager::run appends a
  /// pipeline's dependent extensions to the context's registry on every
  /// run, and kernels run their pipelines on several threads of one context
  /// at once, where those appends raced (a double free).
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<gpu::GPUDialect, LLVM::LLVMDialect, NVVM::NVVMDialect,
                    ROCDL::ROCDLDialect>();
  }

  /// The job of a lowered gpu.module, or failure.
  FailureOr<CodegenJob> prepareGPUModule(ModuleOp kernel,
                                         gpu::GPUModuleOp module) {
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
    return CodegenJob{module, getKernelName(kernel).str(), &*profile};
  }

  /// The job of the host module, or failure. Only the C interface is
  /// exported; everything else is internal, so kernels of one file link
  /// together without clashes.
  FailureOr<CodegenJob> prepareHost(ModuleOp kernel, ModuleOp host) {
    llvm::Expected<const target::TargetProfile &> profile =
        target::lookupTargetProfile("host");
    if (!profile)
      return host.emitError() << llvm::toString(profile.takeError());
    bool exports = false;
    for (auto func : host.getOps<LLVM::LLVMFuncOp>()) {
      if (func.isExternal())
        continue;
      if (func.getName().starts_with("_mlir_ciface_"))
        exports = true;
      else
        func.setLinkage(LLVM::Linkage::Internal);
    }
    if (!exports)
      return host.emitError() << "the host module of '" << getKernelName(kernel)
                              << "' exports no _mlir_ciface_ function";
    return CodegenJob{host, getKernelName(kernel).str(), &*profile};
  }

  void recordGPUModule(gpu::GPUModuleOp module, CodegenJob &job) {
    MLIRContext *ctx = &getContext();
    Builder b(ctx);
    auto format = job.profile->kind == target::TargetKind::NVPTX
                      ? gpu::CompilationTarget::Assembly
                      : gpu::CompilationTarget::Binary;
    auto object = gpu::ObjectAttr::get(
        ctx, module.getTargetsAttr()[0], format, b.getStringAttr(job.artifact),
        b.getDictionaryAttr({b.getNamedAttr(
            target::getLinkableProperty(job.profile->kind),
            b.getStringAttr(job.linkable))}));
    OpBuilder builder(ctx);
    builder.setInsertionPointAfter(module);
    std::string symbol = module.getName().str();
    Location loc = module.getLoc();
    module.erase();
    builder.create<gpu::BinaryOp>(loc, symbol, Attribute(),
                                  ArrayRef<Attribute>{object});
  }

  void recordHost(ModuleOp kernel, ModuleOp host, CodegenJob &job) {
    Builder b(&getContext());
    SmallVector<Attribute> exported;
    for (auto func : host.getOps<LLVM::LLVMFuncOp>())
      if (!func.isExternal() && func.getName().starts_with("_mlir_ciface_"))
        exported.push_back(b.getStringAttr(func.getName()));
    kernel->setAttr(
        kHostObjectAttr,
        b.getDictionaryAttr(
            {b.getNamedAttr("bitcode", b.getStringAttr(job.linkable)),
             b.getNamedAttr("cpu", b.getStringAttr(job.profile->chip)),
             b.getNamedAttr("object", b.getStringAttr(job.artifact)),
             b.getNamedAttr("symbols", b.getArrayAttr(exported)),
             b.getNamedAttr("triple", b.getStringAttr(job.profile->triple))}));
    host.erase();
  }

  LogicalResult serialize(ModuleOp kernel) {
    bool failed = false;
    std::vector<CodegenJob> jobs;
    for (auto module : kernel.getOps<gpu::GPUModuleOp>()) {
      FailureOr<CodegenJob> job = prepareGPUModule(kernel, module);
      if (mlir::failed(job) || mlir::failed(translate(*job)))
        failed = true;
      else
        jobs.push_back(std::move(*job));
    }
    for (auto host : kernel.getOps<ModuleOp>()) {
      if (host.getSymName() != kHostModuleName)
        continue;
      FailureOr<CodegenJob> job = prepareHost(kernel, host);
      if (mlir::failed(job) || mlir::failed(translate(*job)))
        failed = true;
      else
        jobs.push_back(std::move(*job));
    }
    if (failed)
      return failure();

    // The targets' code generation is independent: one thread each.
    parallelForEach(&getContext(), jobs, generateCodeRecovering);

    for (CodegenJob &job : jobs) {
      if (!job.error.empty()) {
        job.module->emitError() << job.error;
        failed = true;
        continue;
      }
      if (auto module = dyn_cast<gpu::GPUModuleOp>(job.module))
        recordGPUModule(module, job);
      else
        recordHost(kernel, cast<ModuleOp>(job.module), job);
    }
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
