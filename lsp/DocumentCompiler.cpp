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

std::shared_ptr<const CompileResult>
DocumentCompiler::compile(const DocumentSnapshot &document, uint64_t generation,
                          const std::atomic<bool> &cancelled,
                          const StageCallback &onStage,
                          const CheckedCallback &onChecked) {
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

  // The stages after semantic, as Compiler::runStages runs them, with a
  // check for a newer version between stages.
  bool ok = result->semanticStage->succeeded();
  for (StageId stage : kAllStages) {
    if (stage == StageId::Semantic || !ok ||
        stageIndex(stage) > stageIndex(options.stopAfter))
      continue;
    if (cancelled.load())
      return nullptr;
    if (stage == StageId::Target)
      onChecked(checkedPart(*result, start));
    onStage(stage);
    mlir::ModuleOp input = result->product(*previousStage(stage));
    StageOutput out =
        runStage(stage, input, options.stages,
                 &result->semanticStage->sourceMap(), &cache);
    StageRecord &record = result->records[stageIndex(stage)];
    record = std::move(out.record);
    if (!out.product) {
      ok = false;
      continue;
    }
    if (llvm::Error err = verifyChain(input, *out.product)) {
      record.failInternally(llvm::toString(std::move(err)));
      ok = false;
      continue;
    }
    result->products[stageIndex(stage)] =
        std::make_shared<mlir::OwningOpRef<mlir::ModuleOp>>(
            std::move(out.product));
  }
  result->elapsed = std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - start)
                        .count();
  if (ok)
    trimCache(*result);
  return result;
}

std::shared_ptr<const CompileResult> DocumentCompiler::checkedPart(
    const CompileResult &result,
    std::chrono::steady_clock::time_point start) {
  std::shared_ptr<CompileResult> checked = result.copy(/*withProducts=*/true);
  checked->elapsed = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - start)
                         .count();
  checked->isComplete = false;
  return checked;
}

void DocumentCompiler::trimCache(const CompileResult &latest) {
  size_t live = 0;
  for (StageId stage : kAllStages)
    if (stage != StageId::Semantic && latest.product(stage))
      live += kernelModules(latest.product(stage)).size();
  // Rebuilding costs a clone per product: do it only once the products of
  // older versions outnumber the live ones.
  if (cache.size() <= 2 * live + 16)
    return;
  ProductCache trimmed;
  for (StageId stage : kAllStages) {
    if (stage == StageId::Semantic || !latest.product(stage))
      continue;
    for (mlir::ModuleOp kernel : kernelModules(latest.product(stage)))
      trimmed.store(kernelKey(kernel), kernel);
  }
  cache = std::move(trimmed);
}
