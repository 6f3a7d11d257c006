//===- Compiler.cpp - The staged compile engine ---------------------------===//

#include "accy/Pipeline/Compiler.h"

#include "SemanticStage.h"

#include "accy/Pipeline/KernelStore.h"
#include "accy/Pipeline/Product.h"
#include "accy/Pipeline/TargetUnits.h"

#include "llvm/ADT/ScopeExit.h"

#include <mutex>

using namespace accy;

//===----------------------------------------------------------------------===//
// Compilation
//===----------------------------------------------------------------------===//

/// The whole products of the stages after semantic, each made once, when
/// first asked for (a stage file is written from it; accy-lsp never asks).
struct Compilation::WholeProducts {
  // A lock per stage: accyc writes its stage files on several threads.
  std::array<std::mutex, kNumStages> mutexes;
  std::array<mlir::OwningOpRef<mlir::ModuleOp>, kNumStages> modules;
};

bool Compilation::hasProduct(StageId stage) const {
  if (stage == StageId::Semantic)
    return semanticProduct != nullptr;
  return products[stageIndex(stage)].has_value();
}

llvm::SmallVector<mlir::ModuleOp> Compilation::kernels(StageId stage) const {
  if (stage == StageId::Semantic)
    return semanticProduct ? kernelModules(semanticProduct->get())
                           : llvm::SmallVector<mlir::ModuleOp>();
  llvm::SmallVector<mlir::ModuleOp> modules;
  for (const SharedKernel &kernel : kernelProducts(stage))
    modules.push_back(kernel->module.get());
  return modules;
}

mlir::ModuleOp Compilation::kernel(StageId stage, llvm::StringRef name) const {
  for (mlir::ModuleOp module : kernels(stage))
    if (kernelName(module) == name)
      return module;
  return nullptr;
}

llvm::ArrayRef<SharedKernel> Compilation::kernelProducts(StageId stage) const {
  const auto &made = products[stageIndex(stage)];
  return made ? llvm::ArrayRef<SharedKernel>(*made)
              : llvm::ArrayRef<SharedKernel>();
}

mlir::ModuleOp Compilation::product(StageId stage) const {
  if (stage == StageId::Semantic)
    return semanticProduct ? semanticProduct->get() : mlir::ModuleOp();
  if (!hasProduct(stage))
    return nullptr;
  std::lock_guard<std::mutex> lock(whole->mutexes[stageIndex(stage)]);
  mlir::OwningOpRef<mlir::ModuleOp> &module = whole->modules[stageIndex(stage)];
  if (!module) {
    // Copies: the kernels are shared with the cache, and with other
    // compiles that reused them.
    module = createProduct(*context, stage);
    for (const SharedKernel &kernel : kernelProducts(stage))
      module->getBody()->push_back(kernel->module.get().clone());
  }
  return *module;
}

void Compilation::setKernels(StageId stage, std::vector<SharedKernel> kernels) {
  products[stageIndex(stage)] = std::move(kernels);
  // Copies of this record share the whole products made so far; this one
  // starts afresh, as its products are not theirs any more.
  whole = std::make_shared<WholeProducts>();
}

std::vector<FailureRecord> Compilation::failures() const {
  std::vector<FailureRecord> all;
  for (const StageRecord &record : stageRecords)
    all.insert(all.end(), record.failures.begin(), record.failures.end());
  return all;
}

Compilation Compilation::withoutProducts() const {
  Compilation c;
  c.ok = ok;
  c.wasCancelled = wasCancelled;
  c.last = last;
  c.stageRecords = stageRecords;
  c.sourceManager = sourceManager;
  c.frontendDiags = frontendDiags;
  c.map = map;
  c.deps = deps;
  return c;
}

//===----------------------------------------------------------------------===//
// Compiler
//===----------------------------------------------------------------------===//

Compiler::Compiler(mlir::MLIRContext &context, CompileOptions options)
    : context(context), options(std::move(options)) {}

StageId Compiler::lastStageOf(const RunControl &control) const {
  if (control.stopAfter &&
      stageIndex(*control.stopAfter) < stageIndex(options.stopAfter))
    return *control.stopAfter;
  return options.stopAfter;
}

Compilation Compiler::compileFile(llvm::StringRef path,
                                  const RunControl &control) {
  if (control.observer)
    control.observer->stageStarted(StageId::Semantic);
  return compileSemantic(
      runSemanticStage(context, path, /*text=*/std::nullopt, options),
      control);
}

Compilation Compiler::compileBuffer(llvm::StringRef path, llvm::StringRef text,
                                    const RunControl &control) {
  if (control.observer)
    control.observer->stageStarted(StageId::Semantic);
  return compileSemantic(runSemanticStage(context, path, text.str(), options),
                         control);
}

Compilation Compiler::compileSemantic(SemanticResult semantic,
                                      const RunControl &control) {
  Compilation c;
  c.context = &context;
  c.whole = std::make_shared<Compilation::WholeProducts>();
  c.sourceManager = std::move(semantic.sources);
  c.frontendDiags = std::move(semantic.diagnostics);
  c.map = std::move(semantic.sourceMap);
  c.deps = std::move(semantic.dependencies);
  for (StageId stage : kAllStages)
    c.stageRecords[stageIndex(stage)].stage = stage;
  c.stageRecords[stageIndex(StageId::Semantic)] = std::move(semantic.record);
  if (control.observer)
    control.observer->stageDone(c.record(StageId::Semantic));
  if (!semantic.product)
    return c;
  c.semanticProduct =
      std::make_shared<const mlir::OwningOpRef<mlir::ModuleOp>>(
          std::move(semantic.product));
  c.ok = true;
  c.last = StageId::Semantic;
  resume(c, control);
  return c;
}

Compilation Compiler::compileFrom(mlir::OwningOpRef<mlir::ModuleOp> product,
                                  StageId from, SourceMap sourceMap,
                                  const RunControl &control) {
  Compilation c;
  c.context = &context;
  c.whole = std::make_shared<Compilation::WholeProducts>();
  c.sourceManager = std::make_unique<SourceManager>();
  c.map = std::move(sourceMap);
  for (StageId stage : kAllStages)
    c.stageRecords[stageIndex(stage)].stage = stage;
  StageRecord &record = c.stageRecords[stageIndex(from)];
  if (llvm::Error err = verifyProduct(*product, from)) {
    record.failInternally(llvm::toString(std::move(err)));
    return c;
  }
  record.status = StageStatus::Reused;
  if (from == StageId::Semantic) {
    c.semanticProduct =
        std::make_shared<const mlir::OwningOpRef<mlir::ModuleOp>>(
            std::move(product));
  } else {
    // The kernels, taken out of the product that held them, with the
    // content hashes the next stage's keys need: from the store's entry
    // under the same key when there is one (serializing every kernel of a
    // file again cost a target step a tenth of its time).
    KernelStore *store =
        isStoredStage(from) ? options.stages.store : nullptr;
    std::vector<SharedKernel> kernels;
    for (mlir::ModuleOp kernel : kernelModules(*product)) {
      kernel->remove();
      mlir::OwningOpRef<mlir::ModuleOp> owned(kernel);
      std::optional<std::string> hash =
          store ? store->recordedContentHash(from, kernelKey(kernel))
                : std::nullopt;
      kernels.push_back(
          hash ? std::make_shared<const KernelProduct>(std::move(owned),
                                                       std::move(*hash))
               : shareKernel(std::move(owned)));
    }
    c.setKernels(from, std::move(kernels));
  }
  c.ok = true;
  c.last = from;
  resume(c, control);
  return c;
}

void Compiler::resume(Compilation &c, const RunControl &control) {
  StageId lastStage = lastStageOf(control);
  // Pipelined, the kernels run ahead into the caches; the stages below
  // then find them there and make the records and products as always,
  // credited with what the kernels' runs did. Not where a caller watches
  // or cancels stage by stage (accy-lsp).
  std::vector<KernelUnit> ahead;
  if (options.pipelineKernels && !control.observer && !control.cancelled &&
      c.ok && c.last && stageIndex(*c.last) + 1 < stageIndex(lastStage) &&
      context.isMultithreadingEnabled() && c.kernels(*c.last).size() > 1)
    ahead = runKernelsAhead(c, lastStage);
  auto credit = llvm::make_scope_exit([&] {
    // Only the stages that ran: after a failure, kernels ran ahead into
    // stages that the compile did not reach.
    for (KernelUnit &unit : ahead)
      llvm::erase_if(unit.records, [&](const StageRecord &record) {
        return c.record(record.stage).status == StageStatus::NotRun;
      });
    creditUnits(c, ahead);
  });
  for (StageId stage : kAllStages) {
    if (!c.ok || c.wasCancelled || stageIndex(stage) > stageIndex(lastStage))
      return;
    if (stageIndex(stage) <= stageIndex(*c.last))
      continue;
    if (control.isCancelled()) {
      c.wasCancelled = true;
      return;
    }
    if (!runStageOn(c, stage, control))
      return;
  }
}

bool Compiler::runStageOn(Compilation &c, StageId stage,
                          const RunControl &control) {
  StageId previous = *previousStage(stage);
  if (control.observer)
    control.observer->stageStarted(stage);
  // What background units made one target at a time, as the stage's own
  // products.
  if (stage == StageId::Target)
    joinTargetUnits(context, c.kernelProducts(previous), options.stages,
                    targetCache);
  // The semantic product is the frontend's, the others kernels that carry
  // their content hashes.
  StageKernels out =
      previous == StageId::Semantic
          ? runStageOnKernels(stage, context, c.kernels(previous),
                              options.stages, &c.map, &cache(stage), control)
          : runStageOnKernels(stage, context, c.kernelProducts(previous),
                              options.stages, &c.map, &cache(stage), control);
  StageRecord &record = c.stageRecords[stageIndex(stage)];
  record = std::move(out.record);
  if (record.status == StageStatus::NotRun) {
    c.wasCancelled = true;
    return false;
  }
  if (record.status == StageStatus::Failed) {
    c.ok = false;
    return false;
  }
  // Sealing: the new product must name its predecessor's keys.
  llvm::SmallVector<mlir::ModuleOp> made;
  for (const SharedKernel &kernel : out.kernels)
    made.push_back(kernel->module.get());
  if (llvm::Error err = verifyChain(c.kernels(previous), made)) {
    record.failInternally(llvm::toString(std::move(err)));
    c.ok = false;
    return false;
  }
  c.setKernels(stage, std::move(out.kernels));
  c.last = stage;
  return true;
}

KernelUnit Compiler::compileKernel(const Compilation &base, size_t index,
                                   std::optional<llvm::StringRef> target) {
  KernelUnit unit;
  std::optional<StageId> from = base.lastStage();
  llvm::SmallVector<mlir::ModuleOp> inputs =
      from ? base.kernels(*from) : llvm::SmallVector<mlir::ModuleOp>();
  if (!base.succeeded() || index >= inputs.size()) {
    unit.failed = true;
    return unit;
  }
  unit.kernel = kernelName(inputs[index]).str();
  StageOptions unitOptions =
      target ? targetUnitOptions(options.stages, *target) : options.stages;
  // The kernel's product at the stage before, as the next stage's input.
  SharedKernel previous;
  if (*from != StageId::Semantic)
    previous = base.kernelProducts(*from)[index];
  for (StageId stage : kAllStages) {
    if (stageIndex(stage) <= stageIndex(*from) ||
        stageIndex(stage) > stageIndex(options.stopAfter))
      continue;
    // A unit has nothing to make when the stage's product for every target
    // is at hand: the stage run of resume() reuses it.
    if (stage == StageId::Target && target && previous &&
        hasTargetProduct(*previous))
      break;
    StageKernels out =
        runKernelStage(base, index, stage, previous,
                       stage == StageId::Target ? unitOptions : options.stages);
    unit.compiledAny |= out.record.status == StageStatus::Compiled;
    bool failed = out.record.status == StageStatus::Failed;
    unit.records.push_back(std::move(out.record));
    if (failed) {
      unit.failed = true;
      break;
    }
    previous = out.kernels.front();
  }
  return unit;
}

StageKernels Compiler::runKernelStage(const Compilation &base, size_t index,
                                      StageId stage,
                                      const SharedKernel &previous,
                                      const StageOptions &stageOptions) {
  if (previous)
    return runStageOnKernels(stage, context, {previous}, stageOptions,
                             &base.sourceMap(), &cache(stage));
  return runStageOnKernels(stage, context,
                           {base.kernels(*base.lastStage())[index]},
                           stageOptions, &base.sourceMap(), &cache(stage));
}

bool Compiler::hasTargetProduct(const KernelProduct &input) {
  std::string key = targetStageKey(options.stages, input);
  KernelStore *store = options.stages.store;
  if (targetCache.lookup(key))
    return true;
  if (!store)
    return false;
  if (store->contains(StageId::Target, key))
    return true;
  // What only a team's cache has is fetched now (checked, and kept in the
  // local store, where the stage run finds it) instead of compiled.
  return store->hasRemotes() &&
         store->load(StageId::Target, key, context).has_value();
}

void Compiler::creditUnits(Compilation &c, llvm::ArrayRef<KernelUnit> units) {
  for (const KernelUnit &unit : units)
    for (const StageRecord &ran : unit.records) {
      StageRecord &record = c.stageRecords[stageIndex(ran.stage)];
      record.stats += ran.stats;
      record.addPassTimings(ran.passTimings);
      record.seconds += ran.seconds;
      for (const KernelStageRecord &made : ran.kernels) {
        if (made.status != StageStatus::Compiled && !made.fromStore)
          continue;
        // A target unit's key is that of its target alone; it compiled
        // (or found in the store) part of the kernel made from the same
        // input.
        for (KernelStageRecord &k : record.kernels)
          if (k.kernel == made.kernel && k.inputHash == made.inputHash &&
              k.status == StageStatus::Reused && !k.fromStore) {
            k.status = made.status;
            k.fromStore = made.fromStore;
          }
        if (record.status == StageStatus::Reused &&
            made.status == StageStatus::Compiled)
          record.status = StageStatus::Compiled;
      }
    }
}
