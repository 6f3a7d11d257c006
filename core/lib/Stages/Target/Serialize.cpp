//===- Serialize.cpp - PTX, HSACO and host objects into the product -------===//
//
// Each lowered gpu.module becomes a gpu.binary; the host module becomes the
// `accy.host_object` attribute. Code generation itself is the Target
// library's (CodeGen.h), shared with the whole-file artifacts; this pass
// translates to LLVM IR and records the results. A kernel's modules (one per
// target, each cut between its entries into pieces of at least kPieceOps
// ops where it has several) are translated in turn on the pass's thread,
// where diagnostics are captured; then LLVM optimizes and compiles the
// pieces, shared with the threads of the other kernels and the idle cores
// (SharedWork.h), and joins each module's pieces into its artifact, each
// inside a crash recovery context of its own (where the process enabled
// recovery: accy-lsp), as a crash on another thread would otherwise end the
// process. PTX code is compiled under canonical names, and a piece whose IR
// equals that of a piece in flight gets its code from that piece's code
// generation (SharedCodegen.h).
//
//===----------------------------------------------------------------------===//

#include "accy/CodeGen/Artifacts.h"
#include "accy/CodeGen/CanonicalNames.h"
#include "accy/CodeGen/CodeGen.h"
#include "accy/CodeGen/SharedCodegen.h"
#include "accy/Stages/Dispatch/Plan.h"
#include "accy/Stages/Target/Passes.h"
#include "accy/Support/CrashContainment.h"
#include "accy/Support/SharedWork.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/TimeProfiler.h"

namespace accy::target {
#define GEN_PASS_DEF_SERIALIZE
#include "accy/Stages/Target/Passes.h.inc"
} // namespace accy::target

using namespace mlir;
using namespace accy;

namespace {

/// A piece of a lowered module's code: the module itself, or a module
/// holding some of its entries and a copy of everything else.
struct CodePiece {
  /// That module; none when the piece is the whole module.
  OwningOpRef<Operation *> part;
  std::unique_ptr<llvm::LLVMContext> context;
  /// Under canonical names (`names`) where it is PTX code; none once the
  /// piece joined another's code generation (`shared`).
  std::unique_ptr<llvm::Module> llvmModule;
  codegen::CanonicalNames names;
  codegen::PieceCode out;
  /// The code generation it shares with pieces of equal code, where the
  /// context has threads.
  std::shared_ptr<codegen::SharedCodegen> shared;
  /// Whether it joined another piece's code generation, which then runs
  /// on that piece's task.
  bool joined = false;
};

/// One lowered module of a kernel on its way to an artifact.
struct CodegenJob {
  Operation *module;
  std::string kernel;
  const TargetProfile *profile;
  std::vector<CodePiece> pieces;
  /// The module's ops in order, while its pieces hold its entries.
  std::vector<Operation *> lentOps;
  std::string artifact;
  std::string error; // what joining the pieces reported

  /// The LLVM module's name: the kernel and the target.
  std::string name() const { return kernel + "." + profile->name.str(); }
};

/// The entries of a lowered GPU module, in order.
SmallVector<LLVM::LLVMFuncOp> getEntries(Operation *module, TargetKind kind) {
  StringRef entryAttr = kind == TargetKind::NVPTX
                            ? NVVM::NVVMDialect::getKernelFuncAttrName()
                            : ROCDL::ROCDLDialect::getKernelFuncAttrName();
  SmallVector<LLVM::LLVMFuncOp> entries;
  module->walk([&](LLVM::LLVMFuncOp func) {
    if (func->hasAttr(entryAttr))
      entries.push_back(func);
  });
  return entries;
}

/// The least ops of a piece: a piece costs a few milliseconds of its own
/// (its LLVM context, pass pipelines, the functions its entries share), what
/// the code generation of a small entry (a row reduction's 200 ops) takes.
/// At 600, a row kernel's warp and block variants are two pieces, so that a
/// file's third kernel has its code generation on both cores of a two-core
/// machine (docs/internals.md, "Entries on threads").
constexpr size_t kPieceOps = 600;

/// The pieces of `job.module`'s code: a GPU module of several entries is cut
/// between them (consecutive entries of at least kPieceOps ops each), so
/// that their code generation runs on threads of its own (docs/internals.md,
/// "Entries on threads"); else the piece is the module itself. Where the
/// cuts fall depends on the module alone, never on the machine: the same
/// kernel gives the same bytes everywhere.
void cutIntoPieces(CodegenJob &job) {
  SmallVector<LLVM::LLVMFuncOp> entries;
  if (job.profile->kind != TargetKind::Host)
    entries = getEntries(job.module, job.profile->kind);
  // Consecutive entries share a piece until it holds kPieceOps ops.
  SmallVector<SmallVector<Operation *>> groups(1);
  size_t groupOps = 0;
  for (LLVM::LLVMFuncOp entry : entries) {
    if (groupOps >= kPieceOps) {
      groups.emplace_back();
      groupOps = 0;
    }
    groups.back().push_back(entry);
    entry->walk([&](Operation *) { ++groupOps; });
  }
  if (groups.size() < 2) {
    job.pieces.emplace_back();
    return;
  }
  // Each piece holds its entries, moved from the module until translation
  // is done (returnEntries), and a copy of the module's other ops: cloning
  // the entries too was 1.5% of a softmax.accy build, and destroying the
  // copies as much again.
  llvm::SmallPtrSet<Operation *, 8> isEntry;
  for (LLVM::LLVMFuncOp entry : entries)
    isEntry.insert(entry);
  Block &moduleBody = job.module->getRegion(0).front();
  for (Operation &op : moduleBody)
    job.lentOps.push_back(&op);
  for (ArrayRef<Operation *> group : groups) {
    CodePiece &piece = job.pieces.emplace_back();
    piece.part = job.module->cloneWithoutRegions();
    Block *body = new Block();
    piece.part->getRegion(0).push_back(body);
    auto builder = OpBuilder::atBlockEnd(body);
    for (Operation *op : job.lentOps) {
      if (!isEntry.contains(op))
        builder.clone(*op);
      else if (llvm::is_contained(group, op))
        op->moveBefore(body, body->end());
    }
  }
}

/// Moves the entries that cutIntoPieces lent to the pieces back into the
/// module, where they were: the module is the kernel's IR, which a failure
/// report prints and recordGPUModule replaces.
void returnEntries(CodegenJob &job) {
  Block &moduleBody = job.module->getRegion(0).front();
  for (Operation *op : job.lentOps)
    op->moveBefore(&moduleBody, moduleBody.end());
  job.lentOps.clear();
}

/// Removes the internal functions and globals of `module` that nothing
/// uses: those of the entries a piece does not hold.
void dropUnusedInternals(llvm::Module &module) {
  for (bool changed = true; changed;) {
    changed = false;
    for (llvm::Function &function : llvm::make_early_inc_range(module))
      if (function.hasLocalLinkage() && function.use_empty()) {
        function.eraseFromParent();
        changed = true;
      }
    for (llvm::GlobalVariable &global :
         llvm::make_early_inc_range(module.globals()))
      if (global.hasLocalLinkage() && global.use_empty()) {
        global.eraseFromParent();
        changed = true;
      }
  }
}

/// Translates each piece of `job` to LLVM IR. On the pass's thread:
/// translation reports its failures as MLIR diagnostics on the ops.
LogicalResult translate(CodegenJob &job) {
  // The target's data layout before translation: the accesses it makes
  // take their alignment from it (codegen::getDataLayout).
  llvm::Expected<std::string> layout = codegen::getDataLayout(*job.profile);
  if (!layout)
    return job.module->emitError() << llvm::toString(layout.takeError());
  for (CodePiece &piece : job.pieces) {
    piece.context = std::make_unique<llvm::LLVMContext>();
    Operation *source = piece.part ? piece.part.get() : job.module;
    source->setAttr(LLVM::LLVMDialect::getDataLayoutAttrName(),
                    StringAttr::get(source->getContext(), *layout));
    piece.llvmModule =
        translateModuleToLLVMIR(source, *piece.context, job.name());
    if (!piece.llvmModule)
      return job.module->emitError()
             << "cannot translate the " << job.profile->name << " code of '"
             << job.name() << "' to LLVM IR";
    piece.llvmModule->setSourceFileName(job.name());
    if (piece.part)
      dropUnusedInternals(*piece.llvmModule);
    if (job.profile->kind == TargetKind::NVPTX)
      piece.names = codegen::CanonicalNames::apply(*piece.llvmModule);
  }
  return success();
}

bool hasInjectedFault(const CodegenJob &job) {
  const std::optional<InjectedFault> &fault = injectedFault();
  return fault && fault->appliesTo("codegen", job.kernel);
}

/// The pieces that get the code of `piece`: itself, and those that joined
/// `shared`, its shared code generation where it has one, which closes.
SmallVector<codegen::SharedCodegen::Recipient>
takeRecipients(CodePiece &piece, codegen::SharedCodegen *shared) {
  if (shared)
    return shared->close();
  return {{&piece.names, &piece.out}};
}

void setError(ArrayRef<codegen::SharedCodegen::Recipient> recipients,
              StringRef error) {
  for (const codegen::SharedCodegen::Recipient &recipient : recipients)
    recipient.code->error = recipient.names->restore(error.str());
}

/// Optimizes and compiles a translated piece, for it and for the pieces
/// that joined `shared`: LLVM only, so any thread may run it; errors are
/// kept in the pieces for the pass's thread to report.
void generateCode(const CodegenJob &job, CodePiece &piece,
                  codegen::SharedCodegen *shared) {
  if (hasInjectedFault(job)) {
    const InjectedFault &fault = *injectedFault();
    if (fault.mode != InjectedFault::Fail)
      fault.raise();
    setError(takeRecipients(piece, shared), fault.failureMessage());
    return;
  }
  llvm::Module &module = *piece.llvmModule;
  llvm::Error error =
      codegen::optimizeModule(module, *job.profile, &piece.names);
  if (!error)
    error = codegen::checkSelfContained(module, *job.profile);
  // Pieces join while their code is optimized; what follows carries names.
  SmallVector<codegen::SharedCodegen::Recipient> recipients =
      takeRecipients(piece, shared);
  if (error)
    return setError(recipients, llvm::toString(std::move(error)));
  bool amdgpu = job.profile->kind == TargetKind::AMDGPU;
  if (!amdgpu)
    for (const codegen::SharedCodegen::Recipient &recipient : recipients)
      recipient.code->linkable = recipient.names->writeBitcode(module);
  llvm::Expected<std::string> code =
      codegen::emitObjectCode(module, *job.profile);
  if (!code)
    return setError(recipients, llvm::toString(code.takeError()));
  // The last recipient (the only one but for shared PTX) takes the code
  // itself: an object file is not copied.
  for (auto [i, recipient] : llvm::enumerate(recipients))
    (amdgpu ? recipient.code->linkable : recipient.code->code) =
        recipient.names->restore(i + 1 < recipients.size() ? *code
                                                           : std::move(*code));
}

/// Joins the pieces of `job` into its artifact (codegen::joinCode).
void joinPieces(CodegenJob &job) {
  SmallVector<StringRef> linkables, codes;
  for (const CodePiece &piece : job.pieces) {
    linkables.push_back(piece.out.linkable);
    codes.push_back(piece.out.code);
  }
  llvm::Expected<std::string> artifact =
      codegen::joinCode(*job.profile, linkables, codes, job.name());
  if (artifact)
    job.artifact = std::move(*artifact);
  else
    job.error = llvm::toString(artifact.takeError());
}

/// The error of a crash (a signal, abort(), a fatal error inside an LLVM
/// backend) that recovery caught, where the process enabled it.
std::string crashError(const CodegenJob &job, StringRef crash) {
  return (llvm::Twine(kInternalErrorPrefix) + " (" + crash +
          ") in LLVM code generation for " + job.profile->name)
      .str();
}

void generateCodeRecovering(const CodegenJob &job, CodePiece &piece,
                            codegen::SharedCodegen *shared = nullptr) {
  llvm::TimeTraceScope scope("codegen", [&] {
    return job.name() + " piece " + std::to_string(&piece - job.pieces.data());
  });
  std::optional<std::string> crash =
      runRecoveringCrash([&] { generateCode(job, piece, shared); });
  if (!crash)
    return;
  // LLVM's module and context may be inconsistent after a crash: leaked,
  // never destroyed.
  (void)piece.llvmModule.release();
  (void)piece.context.release();
  setError(takeRecipients(piece, shared), crashError(job, *crash));
}

/// Joins `piece`'s code generation to that of a piece of equal code in
/// flight (SharedCodegen.h), or opens one for it; not where its code is not
/// renamed, nor for a kernel whose code generation a test fails.
void shareCode(CodegenJob &job, CodePiece &piece) {
  if (!piece.names.renamed() || hasInjectedFault(job))
    return;
  bool opened;
  piece.shared = codegen::SharedCodegen::join(
      job.profile->name, *piece.llvmModule, {&piece.names, &piece.out},
      [&job, &piece](codegen::SharedCodegen &shared) {
        generateCodeRecovering(job, piece, &shared);
      },
      opened);
  piece.joined = !opened;
  if (piece.joined) {
    piece.llvmModule.reset();
    piece.context.reset();
  }
}

void joinPiecesRecovering(CodegenJob &job) {
  if (std::optional<std::string> crash =
          runRecoveringCrash([&] { joinPieces(job); }))
    job.error = crashError(job, *crash);
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
    llvm::Expected<const TargetProfile &> profile =
        lookupTargetProfile(targetName);
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
    llvm::Expected<const TargetProfile &> profile = lookupTargetProfile("host");
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
    auto format = job.profile->kind == TargetKind::NVPTX
                      ? gpu::CompilationTarget::Assembly
                      : gpu::CompilationTarget::Binary;
    SmallVector<Attribute> linkables;
    for (const CodePiece &piece : job.pieces)
      linkables.push_back(b.getStringAttr(piece.out.linkable));
    auto object = gpu::ObjectAttr::get(
        ctx, module.getTargetsAttr()[0], format, b.getStringAttr(job.artifact),
        b.getDictionaryAttr(
            {b.getNamedAttr(codegen::getLinkableProperty(job.profile->kind),
                            b.getArrayAttr(linkables))}));
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
            {b.getNamedAttr("bitcode",
                            b.getStringAttr(job.pieces.front().out.linkable)),
             b.getNamedAttr("cpu", b.getStringAttr(job.profile->chip)),
             b.getNamedAttr("object", b.getStringAttr(job.artifact)),
             b.getNamedAttr("symbols", b.getArrayAttr(exported)),
             b.getNamedAttr("triple", b.getStringAttr(job.profile->triple))}));
    host.erase();
  }

  /// Runs `tasks` shared with the other kernels' threads (SharedWork), or
  /// one after the other where the context has no threads.
  void runTasks(ArrayRef<std::function<void()>> tasks,
                ArrayRef<size_t> sizes = {}) {
    if (getContext().isMultithreadingEnabled() && tasks.size() > 1) {
      SharedWork::get().runAll(tasks, sizes);
      return;
    }
    for (const std::function<void()> &task : tasks)
      task();
  }

  LogicalResult serialize(ModuleOp kernel) {
    bool failed = false;
    std::vector<CodegenJob> jobs;
    auto prepared = [&](FailureOr<CodegenJob> job) {
      if (mlir::failed(job)) {
        failed = true;
        return;
      }
      cutIntoPieces(*job);
      LogicalResult translated = translate(*job);
      returnEntries(*job);
      if (mlir::failed(translated)) {
        failed = true;
        return;
      }
      jobs.push_back(std::move(*job));
    };
    for (auto module : kernel.getOps<gpu::GPUModuleOp>())
      prepared(prepareGPUModule(kernel, module));
    for (auto host : kernel.getOps<ModuleOp>())
      if (host.getSymName() == kHostModuleName)
        prepared(prepareHost(kernel, host));
    if (failed)
      return failure();

    // Every target's pieces are independent tasks, but for those that
    // joined another's code generation; then the pieces of each target are
    // joined, a task each.
    if (getContext().isMultithreadingEnabled())
      for (CodegenJob &job : jobs)
        for (CodePiece &piece : job.pieces)
          shareCode(job, piece);
    std::vector<std::function<void()>> tasks;
    std::vector<size_t> sizes; // LLVM instructions
    for (CodegenJob &job : jobs)
      for (CodePiece &piece : job.pieces) {
        if (piece.joined)
          continue;
        sizes.push_back(piece.llvmModule->getInstructionCount());
        tasks.push_back([&job, &piece] {
          if (piece.shared)
            piece.shared->run();
          else
            generateCodeRecovering(job, piece);
        });
      }
    runTasks(tasks, sizes);
    for (CodegenJob &job : jobs)
      for (CodePiece &piece : job.pieces) {
        if (piece.shared)
          piece.shared->runOrWait();
        if (job.error.empty())
          job.error = piece.out.error;
      }
    tasks.clear();
    for (CodegenJob &job : jobs)
      if (job.error.empty())
        tasks.push_back([&job] {
          llvm::TimeTraceScope scope("join", job.name());
          joinPiecesRecovering(job);
        });
    runTasks(tasks);

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
    ModuleOp kernel = getOperation();
    if (failed(verifyKernelModuleAnchor(kernel, getArgument())) ||
        failed(serialize(kernel)))
      signalPassFailure();
  }
};

} // namespace
