//===- DocumentCompiler.cpp - One document through the seven stages -------===//

#include "DocumentCompiler.h"

#include "accy/Pipeline/Product.h"
#include "accy/Pipeline/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

#include <chrono>

using namespace accy;
using namespace accy::lsp;

std::shared_ptr<const CompileResult> CompileResult::withoutProducts() const {
  auto copy = std::make_shared<CompileResult>(*this);
  // Nothing of the copy lives in the context any more: the context goes
  // with the last result that holds products in it.
  copy->compiled =
      std::make_shared<const Compilation>(compiled->withoutProducts());
  copy->context = nullptr;
  return copy;
}

DocumentCompiler::DocumentCompiler(CompileOptions options,
                                   llvm::ThreadPoolInterface *pool)
    : options(std::move(options)), pool(pool) {
  releaseProducts();
}

DocumentCompiler::~DocumentCompiler() = default;

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
  // A fresh context and engine: the old context, with everything it
  // uniqued while this document compiled (types, attributes, the PTX and
  // objects of every compile), goes with the last result that uses it.
  compiler.reset();
  context = makeContext();
  compiler = std::make_unique<Compiler>(*context, options);
  cached = 0;
}

static double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       start)
      .count();
}

std::shared_ptr<CompileResult>
DocumentCompiler::resultOf(const DocumentSnapshot &document,
                           uint64_t generation, Compilation compilation) const {
  auto result = std::make_shared<CompileResult>();
  result->context = context;
  result->snapshot = document;
  result->compileGeneration = generation;
  result->isComplete = !compilation.succeeded() ||
                       compilation.lastStage() == options.stopAfter;
  result->compiled = std::make_shared<const Compilation>(std::move(compilation));
  return result;
}

std::shared_ptr<const CompileResult>
DocumentCompiler::frontend(const DocumentSnapshot &document,
                           uint64_t generation) {
  auto start = std::chrono::steady_clock::now();
  RunControl control;
  control.stopAfter = StageId::Semantic;
  std::shared_ptr<CompileResult> result = resultOf(
      document, generation,
      compiler->compileBuffer(document.path, document.text, control));
  result->elapsed = secondsSince(start);
  return result;
}

/// The stages a check runs after semantic, whose products share one cache.
static constexpr StageId kCheckedStages[] = {StageId::Contract, StageId::Tensor,
                                             StageId::Dispatch, StageId::Memory,
                                             StageId::Kernel};

namespace {
/// Tells the worker which stage starts, for its progress report.
class StageStarts : public CompileObserver {
public:
  explicit StageStarts(const DocumentCompiler::StageCallback &onStage)
      : onStage(onStage) {}
  void stageStarted(StageId stage) override { onStage(stage); }

private:
  const DocumentCompiler::StageCallback &onStage;
};
} // namespace

std::shared_ptr<const CompileResult>
DocumentCompiler::check(const DocumentSnapshot &document, uint64_t generation,
                        const std::atomic<bool> &cancelled,
                        const StageCallback &onStage) {
  auto start = std::chrono::steady_clock::now();
  if (cancelled.load())
    return nullptr;
  StageStarts observer(onStage);
  RunControl control;
  control.stopAfter = StageId::Kernel;
  control.cancelled = &cancelled;
  control.observer = &observer;
  Compilation checked =
      compiler->compileBuffer(document.path, document.text, control);
  if (checked.cancelled())
    return nullptr;
  std::shared_ptr<CompileResult> result =
      resultOf(document, generation, std::move(checked));
  result->elapsed = secondsSince(start);
  if (result->compilation().succeeded())
    trimCache(*result, kCheckedStages);
  return result;
}

KernelUnit DocumentCompiler::generateKernel(const CompileResult &base,
                                            size_t index,
                                            llvm::StringRef target) {
  KernelUnit unit = compiler->compileKernel(base.compilation(), index, target);
  cached = compiler->cachedProducts();
  return unit;
}

std::shared_ptr<const CompileResult>
DocumentCompiler::assemble(const CompileResult &base,
                           llvm::ArrayRef<KernelUnit> units) {
  auto start = std::chrono::steady_clock::now();
  Compilation complete = base.compilation();
  compiler->resume(complete);
  Compiler::creditUnits(complete, units);
  std::shared_ptr<CompileResult> result =
      resultOf(base.document(), base.generation(), std::move(complete));
  result->elapsed = base.seconds() + secondsSince(start);
  for (const KernelUnit &unit : units)
    for (const StageRecord &ran : unit.records)
      result->elapsed += ran.seconds;
  result->isComplete = true;
  if (result->compilation().succeeded()) {
    trimCache(*result, kCheckedStages);
    trimCache(*result, {StageId::Target});
  }
  return result;
}

void DocumentCompiler::trimCache(const CompileResult &latest,
                                 llvm::ArrayRef<StageId> stages) {
  // Older versions' products stay until they outnumber the live ones: an
  // undo, or typing back what was there, reuses them. Counted first, as
  // this runs after every compile and seldom trims.
  ProductCache &cache = compiler->cache(stages.front());
  size_t liveCount = 0;
  for (StageId stage : stages)
    liveCount += latest.compilation().kernelProducts(stage).size();
  if (cache.size() > 2 * liveCount + 16) {
    llvm::StringSet<> live;
    for (StageId stage : stages)
      for (mlir::ModuleOp kernel : latest.kernels(stage))
        live.insert(kernelKey(kernel));
    cache.retainOnly(live);
  }
  cached = compiler->cachedProducts();
}
