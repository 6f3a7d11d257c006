//===- DocumentCompiler.cpp - One document through the seven stages -------===//

#include "DocumentCompiler.h"

#include "accy/Pipeline/Product.h"
#include "accy/Pipeline/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

#include <chrono>

using namespace accy;
using namespace accy::lsp;

mlir::ModuleOp CompileResult::product(StageId stage) const {
  if (stage == StageId::Semantic)
    return semanticStage->product(StageId::Semantic);
  const auto &p = products[stageIndex(stage)];
  return p ? p->get() : mlir::ModuleOp();
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
  return copy(/*withProducts=*/false);
}

DocumentCompiler::DocumentCompiler(CompileOptions options,
                                   llvm::ThreadPoolInterface *pool)
    : options(std::move(options)) {
  mlir::DialectRegistry registry;
  registerAccyDialects(registry);
  context = std::make_shared<mlir::MLIRContext>(
      registry, mlir::MLIRContext::Threading::DISABLED);
  // Kernels of one stage compile in parallel on the server's shared pool
  // rather than on a pool per document.
  if (pool)
    context->setThreadPool(*pool);
  context->printOpOnDiagnostic(false);
  context->printStackTraceOnDiagnostic(false);
}

DocumentCompiler::~DocumentCompiler() = default;

/// Runs `stage` on `input` with `cache` and keeps its product in `slot` and
/// its record in `record`; false when the stage failed.
static bool runStageInto(StageId stage, mlir::ModuleOp input,
                         const CompileOptions &options, ProductCache &cache,
                         const SourceMap &sourceMap,
                         std::shared_ptr<mlir::OwningOpRef<mlir::ModuleOp>> &slot,
                         StageRecord &record) {
  StageOutput out = runStage(stage, input, options.stages, &sourceMap, &cache);
  record = std::move(out.record);
  if (!out.product)
    return false;
  if (llvm::Error err = verifyChain(input, *out.product)) {
    record.failInternally(llvm::toString(std::move(err)));
    return false;
  }
  slot = std::make_shared<mlir::OwningOpRef<mlir::ModuleOp>>(
      std::move(out.product));
  return true;
}

static double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       start)
      .count();
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
  auto result = std::make_shared<CompileResult>();
  result->context = context;
  result->snapshot = document;
  result->compileGeneration = generation;

  onStage(StageId::Semantic);
  CompileOptions semanticOnly = options;
  semanticOnly.stopAfter = StageId::Semantic;
  Compiler frontend(*context, semanticOnly);
  result->semanticStage = std::make_shared<const Compilation>(
      frontend.compileBuffer(document.path, document.text));
  result->records[stageIndex(StageId::Semantic)] =
      result->semanticStage->record(StageId::Semantic);
  for (StageId stage : kAllStages)
    result->records[stageIndex(stage)].stage = stage;

  // The stages after semantic up to `kernel`, as Compiler::runStages runs
  // them, with a check for a newer version between stages.
  bool ok = result->semanticStage->succeeded();
  for (StageId stage : kCheckedStages) {
    if (!ok || stageIndex(stage) > stageIndex(options.stopAfter))
      break;
    if (cancelled.load())
      return nullptr;
    onStage(stage);
    ok = runStageInto(stage, result->product(*previousStage(stage)), options,
                      cache, result->semanticStage->sourceMap(),
                      result->products[stageIndex(stage)],
                      result->records[stageIndex(stage)]);
  }
  result->elapsed = secondsSince(start);
  result->isComplete =
      !ok || stageIndex(options.stopAfter) < stageIndex(StageId::Target);
  if (ok)
    trimCache(cache, *result, kCheckedStages);
  checkedProducts = cache.size();
  return result;
}

std::shared_ptr<const CompileResult>
DocumentCompiler::generate(const CompileResult &checked) {
  auto start = std::chrono::steady_clock::now();
  std::shared_ptr<CompileResult> result = checked.copy(/*withProducts=*/true);
  const StageId target[] = {StageId::Target};
  bool ok = runStageInto(StageId::Target, result->product(StageId::Kernel),
                         options, targetCache,
                         result->semanticStage->sourceMap(),
                         result->products[stageIndex(StageId::Target)],
                         result->records[stageIndex(StageId::Target)]);
  result->elapsed += secondsSince(start);
  result->isComplete = true;
  if (ok)
    trimCache(targetCache, *result, target);
  targetProducts = targetCache.size();
  return result;
}

void DocumentCompiler::trimCache(ProductCache &stageCache,
                                 const CompileResult &latest,
                                 llvm::ArrayRef<StageId> stages) {
  size_t live = 0;
  for (StageId stage : stages)
    if (latest.product(stage))
      live += kernelModules(latest.product(stage)).size();
  // Rebuilding costs a clone per product: do it only once the products of
  // older versions outnumber the live ones.
  if (stageCache.size() <= 2 * live + 16)
    return;
  ProductCache trimmed;
  for (StageId stage : stages) {
    if (!latest.product(stage))
      continue;
    for (mlir::ModuleOp kernel : kernelModules(latest.product(stage)))
      trimmed.store(kernelKey(kernel), kernel);
  }
  stageCache = std::move(trimmed);
}
