//===- DocumentCompiler.cpp - One document through the seven stages -------===//

#include "DocumentCompiler.h"

#include "accy/Pipeline/Product.h"
#include "accy/Pipeline/Registration.h"
#include "accy/Pipeline/TargetUnits.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

#include <chrono>

using namespace accy;
using namespace accy::lsp;

bool CompileResult::hasProduct(StageId stage) const {
  if (stage == StageId::Semantic)
    return bool(semanticStage->product(StageId::Semantic));
  return products[stageIndex(stage)].has_value();
}

llvm::SmallVector<mlir::ModuleOp> CompileResult::kernels(StageId stage) const {
  if (stage == StageId::Semantic) {
    mlir::ModuleOp product = semanticStage->product(StageId::Semantic);
    return product ? kernelModules(product) : llvm::SmallVector<mlir::ModuleOp>();
  }
  llvm::SmallVector<mlir::ModuleOp> modules;
  if (const auto &made = products[stageIndex(stage)])
    for (const SharedKernel &kernel : *made)
      modules.push_back(kernel->module.get());
  return modules;
}

mlir::ModuleOp CompileResult::kernel(StageId stage, llvm::StringRef name) const {
  for (mlir::ModuleOp module : kernels(stage))
    if (kernelName(module) == name)
      return module;
  return nullptr;
}

std::vector<FailureRecord> CompileResult::failures() const {
  std::vector<FailureRecord> all;
  for (const StageRecord &record : records)
    all.insert(all.end(), record.failures.begin(), record.failures.end());
  return all;
}

std::shared_ptr<CompileResult> CompileResult::copy(bool withProducts) const {
  auto copy = std::make_shared<CompileResult>();
  copy->context = context;
  copy->snapshot = snapshot;
  copy->compileGeneration = compileGeneration;
  copy->semanticStage = semanticStage;
  if (withProducts)
    copy->products = products;
  copy->records = records;
  copy->elapsed = elapsed;
  copy->retained = withProducts && retained;
  copy->isComplete = isComplete;
  return copy;
}

std::shared_ptr<const CompileResult> CompileResult::withoutProducts() const {
  std::shared_ptr<CompileResult> copy = this->copy(/*withProducts=*/false);
  // Nothing of the copy lives in the context any more: the context goes
  // with the last result that holds products in it.
  copy->semanticStage =
      std::make_shared<const Compilation>(semanticStage->withoutProducts());
  copy->context = nullptr;
  return copy;
}

DocumentCompiler::DocumentCompiler(CompileOptions options,
                                   llvm::ThreadPoolInterface *pool)
    : options(std::move(options)), pool(pool) {
  context = makeContext();
}

std::shared_ptr<mlir::MLIRContext> DocumentCompiler::makeContext() const {
  mlir::DialectRegistry registry;
  registerAccyDialects(registry);
  auto fresh = std::make_shared<mlir::MLIRContext>(
      registry, mlir::MLIRContext::Threading::DISABLED);
  // Every dialect loaded now, not when a pipeline first needs it: loading
  // takes no lock, and a request printing a product (stage output, hover)
  // reads the loaded dialects while the target stage may still be running
  // in the same context.
  fresh->loadAllAvailableDialects();
  // Kernels of one stage compile in parallel on the server's shared pool
  // rather than on a pool per document.
  if (pool)
    fresh->setThreadPool(*pool);
  fresh->printOpOnDiagnostic(false);
  fresh->printStackTraceOnDiagnostic(false);
  return fresh;
}

void DocumentCompiler::releaseProducts() {
  cache.clear();
  targetCache.clear();
  checkedProducts = 0;
  targetProducts = 0;
  // A fresh context: the old one, with everything it uniqued while this
  // document compiled (types, attributes, the PTX and objects of every
  // compile), goes with the last result that uses it.
  context = makeContext();
}

DocumentCompiler::~DocumentCompiler() = default;

bool DocumentCompiler::runStageOn(StageId stage, CompileResult &result,
                                  ProductCache &stageCache) {
  StageId previous = *previousStage(stage);
  const SourceMap &sourceMap = result.semanticStage->sourceMap();
  // What the background units made one target at a time, as the stage's
  // own products (the kernel stage's product is never the semantic one).
  if (stage == StageId::Target)
    joinTargetUnits(*result.context, *result.products[stageIndex(previous)],
                    options.stages, stageCache);
  // The semantic product is the frontend's, the others kernels that carry
  // their content hashes.
  StageKernels out =
      previous == StageId::Semantic
          ? runStageOnKernels(stage, *result.context, result.kernels(previous),
                              options.stages, &sourceMap, &stageCache)
          : runStageOnKernels(stage, *result.context,
                              *result.products[stageIndex(previous)],
                              options.stages, &sourceMap, &stageCache);
  StageRecord &record = result.records[stageIndex(stage)];
  record = std::move(out.record);
  if (record.status == StageStatus::Failed)
    return false;
  llvm::SmallVector<mlir::ModuleOp> made;
  for (const SharedKernel &kernel : out.kernels)
    made.push_back(kernel->module.get());
  if (llvm::Error err = verifyChain(result.kernels(previous), made)) {
    record.failInternally(llvm::toString(std::move(err)));
    return false;
  }
  result.products[stageIndex(stage)] = std::move(out.kernels);
  return true;
}

static double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       start)
      .count();
}

std::optional<StageId> CompileResult::lastProduct() const {
  std::optional<StageId> last;
  for (StageId stage : kAllStages)
    if (hasProduct(stage))
      last = stage;
  return last;
}

std::shared_ptr<const CompileResult>
DocumentCompiler::frontend(const DocumentSnapshot &document,
                           uint64_t generation) {
  auto start = std::chrono::steady_clock::now();
  auto result = std::make_shared<CompileResult>();
  result->context = context;
  result->snapshot = document;
  result->compileGeneration = generation;
  CompileOptions semanticOnly = options;
  semanticOnly.stopAfter = StageId::Semantic;
  Compiler compiler(*context, semanticOnly);
  result->semanticStage = std::make_shared<const Compilation>(
      compiler.compileBuffer(document.path, document.text));
  result->records[stageIndex(StageId::Semantic)] =
      result->semanticStage->record(StageId::Semantic);
  for (StageId stage : kAllStages)
    result->records[stageIndex(stage)].stage = stage;
  result->elapsed = secondsSince(start);
  result->isComplete = !result->semanticStage->succeeded() ||
                       options.stopAfter == StageId::Semantic;
  return result;
}

bool DocumentCompiler::runLaterStages(CompileResult &result, bool checkOnly,
                                      const std::atomic<bool> &cancelled,
                                      const StageCallback &onStage, bool &ok) {
  StageId last = checkOnly && stageIndex(options.stopAfter) >
                                  stageIndex(StageId::Kernel)
                     ? StageId::Kernel
                     : options.stopAfter;
  ok = result.semanticStage->succeeded();
  for (StageId stage : kAllStages) {
    if (!ok || stageIndex(stage) > stageIndex(last))
      break;
    if (stage == StageId::Semantic || result.hasProduct(stage))
      continue;
    // The core cannot stop inside a stage: a newer version waits for the
    // stage boundary.
    if (cancelled.load())
      return false;
    onStage(stage);
    ok = runStageOn(stage, result, cacheOf(stage));
  }
  return true;
}

/// The stages a check runs after semantic.
static constexpr StageId kCheckedStages[] = {StageId::Contract, StageId::Tensor,
                                             StageId::Dispatch, StageId::Memory,
                                             StageId::Kernel};

std::shared_ptr<const CompileResult>
DocumentCompiler::check(const DocumentSnapshot &document, uint64_t generation,
                        const std::atomic<bool> &cancelled,
                        const StageCallback &onStage) {
  auto start = std::chrono::steady_clock::now();
  if (cancelled.load())
    return nullptr;
  onStage(StageId::Semantic);
  std::shared_ptr<CompileResult> result =
      std::const_pointer_cast<CompileResult>(frontend(document, generation));
  bool ok = false;
  if (!runLaterStages(*result, /*checkOnly=*/true, cancelled, onStage, ok))
    return nullptr;
  result->elapsed = secondsSince(start);
  result->isComplete =
      !ok || stageIndex(options.stopAfter) < stageIndex(StageId::Target);
  if (ok)
    trimCache(cache, *result, kCheckedStages);
  checkedProducts = cache.size();
  return result;
}

KernelRun DocumentCompiler::generateKernel(const CompileResult &base,
                                           size_t index,
                                           llvm::StringRef target) {
  KernelRun run;
  run.target = target.str();
  std::optional<StageId> from = base.lastProduct();
  llvm::SmallVector<mlir::ModuleOp> inputs =
      from ? base.kernels(*from) : llvm::SmallVector<mlir::ModuleOp>();
  if (index >= inputs.size()) {
    run.failed = true;
    return run;
  }
  run.kernel = kernelName(inputs[index]).str();
  const SourceMap &sourceMap = base.semanticStage->sourceMap();
  // The target stage for `target` alone; the stages before it for every
  // target, as a check runs them (a unit after the first of its kernel
  // finds them cached).
  StageOptions unitOptions = targetUnitOptions(options.stages, target);
  // The kernel's product at the stage before, as the next stage's input.
  SharedKernel previous;
  if (*from != StageId::Semantic)
    previous = (*base.products[stageIndex(*from)])[index];
  for (StageId stage : kAllStages) {
    if (stageIndex(stage) <= stageIndex(*from) ||
        stageIndex(stage) > stageIndex(options.stopAfter))
      continue;
    const StageOptions &stageOptions =
        stage == StageId::Target ? unitOptions : options.stages;
    StageKernels out =
        previous ? runStageOnKernels(stage, *base.context, {previous},
                                     stageOptions, &sourceMap, &cacheOf(stage))
                 : runStageOnKernels(stage, *base.context, {inputs[index]},
                                     stageOptions, &sourceMap, &cacheOf(stage));
    run.compiledAny |= out.record.status == StageStatus::Compiled;
    bool failed = out.record.status == StageStatus::Failed;
    run.records.push_back(std::move(out.record));
    if (failed) {
      run.failed = true;
      break;
    }
    previous = out.kernels.front();
  }
  checkedProducts = cache.size();
  targetProducts = targetCache.size();
  return run;
}

/// Shows in `result`'s records what the background units compiled: the
/// assembly found those kernels in the caches, as if reused.
static void markUnitsCompiled(std::array<StageRecord, kNumStages> &records,
                              llvm::ArrayRef<KernelRun> runs) {
  for (const KernelRun &run : runs)
    for (const StageRecord &unit : run.records) {
      StageRecord &record = records[stageIndex(unit.stage)];
      record.stats += unit.stats;
      record.seconds += unit.seconds;
      for (const KernelStageRecord &made : unit.kernels) {
        if (made.status != StageStatus::Compiled)
          continue;
        // A target unit's key is that of its target alone; it compiled
        // part of the kernel made from the same input.
        for (KernelStageRecord &k : record.kernels)
          if (k.kernel == made.kernel && k.inputHash == made.inputHash &&
              k.status == StageStatus::Reused)
            k.status = StageStatus::Compiled;
        if (record.status == StageStatus::Reused)
          record.status = StageStatus::Compiled;
      }
    }
}

std::shared_ptr<const CompileResult>
DocumentCompiler::assemble(const CompileResult &base,
                           llvm::ArrayRef<KernelRun> runs) {
  auto start = std::chrono::steady_clock::now();
  std::shared_ptr<CompileResult> result = base.copy(/*withProducts=*/true);
  const std::atomic<bool> never{false};
  bool ok = false;
  runLaterStages(*result, /*checkOnly=*/false, never, [](StageId) {}, ok);
  markUnitsCompiled(result->records, runs);
  result->elapsed += secondsSince(start);
  for (const KernelRun &run : runs)
    for (const StageRecord &unit : run.records)
      result->elapsed += unit.seconds;
  result->isComplete = true;
  if (ok) {
    trimCache(cache, *result, kCheckedStages);
    const StageId target[] = {StageId::Target};
    trimCache(targetCache, *result, target);
  }
  checkedProducts = cache.size();
  targetProducts = targetCache.size();
  return result;
}

void DocumentCompiler::trimCache(ProductCache &stageCache,
                                 const CompileResult &latest,
                                 llvm::ArrayRef<StageId> stages) {
  // Older versions' products stay until they outnumber the live ones: an
  // undo, or typing back what was there, reuses them. Counted first, as
  // this runs after every compile and seldom trims.
  size_t liveCount = 0;
  for (StageId stage : stages)
    if (const auto &made = latest.products[stageIndex(stage)])
      liveCount += made->size();
  if (stageCache.size() <= 2 * liveCount + 16)
    return;
  llvm::StringSet<> live;
  for (StageId stage : stages)
    for (mlir::ModuleOp kernel : latest.kernels(stage))
      live.insert(kernelKey(kernel));
  stageCache.retainOnly(live);
}
