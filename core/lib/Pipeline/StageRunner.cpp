//===- StageRunner.cpp - Runs one stage over a product --------------------===//

#include "accy/Pipeline/StageRunner.h"

#include "FailureCapture.h"
#include "StageInstrumentation.h"

#include "accy/Pipeline/Hashing.h"
#include "accy/Pipeline/Product.h"
#include "accy/Pipeline/ProductCache.h"
#include "accy/Pipeline/SourceMap.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Threading.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CrashRecoveryContext.h"

#include <chrono>
#include <memory>
#include <mutex>

using namespace accy;
using namespace mlir;

std::string StageOptions::canonicalText(StageId stage) const {
  if (!stageTakesTargets(stage))
    return "";
  return "targets=" + llvm::join(targets, ",");
}


/// The plan a dispatch, memory or kernel product's fingerprint summarises:
/// the kernel module's attribute holding that stage's plan.
static llvm::StringRef planAttrName(StageId stage) {
  switch (stage) {
  case StageId::Dispatch:
    return kDispatchesAttr;
  case StageId::Memory:
    return kMemoryAttr;
  case StageId::Kernel:
    return kKernelsAttr;
  default:
    return {};
  }
}

/// The text a kernel product's fingerprint summarises: the stage's plan
/// where it has one, else the product itself. Keys are left out: a
/// fingerprint describes what was made, not how it is named.
static std::string fingerprintText(StageId stage, ModuleOp kernel) {
  if (llvm::StringRef name = planAttrName(stage); !name.empty())
    if (Attribute plan = kernel->getAttr(name)) {
      std::string text;
      llvm::raw_string_ostream(text) << plan;
      return text;
    }
  OwningOpRef<ModuleOp> copy = kernel.clone();
  (*copy)->removeAttr(kKeyAttr);
  (*copy)->removeAttr(kInputKeyAttr);
  return productBytes(*copy);
}

namespace {
/// Runs a stage pipeline on standalone kernel modules, collecting the
/// statistics and failures of every run.
class PipelineRun {
public:
  PipelineRun(MLIRContext *context, StageId stage, const StageOptions &options)
      : stage(stage), pm(context, ModuleOp::getOperationName()),
        instrumentation(new StageInstrumentation(options.collectPassTimings)),
        verifyEachPass(options.verifyEachPass) {
    pm.addInstrumentation(std::unique_ptr<PassInstrumentation>(instrumentation));
    pm.enableVerifier(verifyEachPass);
    buildStagePipeline(stage, pm, options);
  }

  /// Runs the pipeline on `kernel`; failures are appended to `failures`.
  LogicalResult run(ModuleOp kernel, const SourceMap *sourceMap,
                    std::vector<FailureRecord> &failures) {
    llvm::StringRef pipeline = stagePipelineName(stage);
    FailureCapture capture(kernel.getContext());
    LogicalResult result = failure();
    // A crash inside a pass becomes an internal failure of this kernel, not
    // of the process that runs the compiler (the language server).
    llvm::CrashRecoveryContext crashContext;
    bool returned = crashContext.RunSafely([&] { result = pm.run(kernel); });
    // Without verification after each pass, the stage's product is
    // verified once; a failure then names no single pass.
    bool verified = verifyEachPass || !returned || failed(result) ||
                    succeeded(mlir::verify(kernel));
    if (returned && succeeded(result) && verified && !capture.hasErrors())
      return success();
    llvm::StringRef pass = !returned ? instrumentation->runningPass()
                           : !verified ? llvm::StringRef()
                                       : instrumentation->failedPass();
    for (FailureRecord &r :
         capture.records(pipeline, pass, returned ? kernel : ModuleOp(),
                         sourceMap, !returned))
      failures.push_back(std::move(r));
    return failure();
  }

  const StageInstrumentation &stats() const { return *instrumentation; }

  /// Loads the dialects the pipeline may create. A context cannot load
  /// dialects while threads use it, so this runs before they start.
  void loadDependentDialects(MLIRContext *context) {
    DialectRegistry registry;
    pm.getDependentDialects(registry);
    context->appendDialectRegistry(registry);
    for (llvm::StringRef name : registry.getDialectNames())
      context->getOrLoadDialect(name);
  }

private:
  StageId stage;
  PassManager pm;
  StageInstrumentation *instrumentation; // owned by pm
  bool verifyEachPass;
};
} // namespace

namespace {
/// Pipeline runs for the threads that compile kernels: each thread takes an
/// idle run (a pass manager is not reentrant) or makes a new one.
class PipelinePool {
public:
  PipelinePool(MLIRContext *context, StageId stage, const StageOptions &options)
      : context(context), stage(stage), options(options) {}

  PipelineRun *acquire() {
    std::lock_guard<std::mutex> lock(mutex);
    if (idle.empty()) {
      all.push_back(std::make_unique<PipelineRun>(context, stage, options));
      return all.back().get();
    }
    PipelineRun *run = idle.back();
    idle.pop_back();
    return run;
  }
  void release(PipelineRun *run) {
    std::lock_guard<std::mutex> lock(mutex);
    idle.push_back(run);
  }

  /// The statistics and per-pass timings of every run, summed.
  void collect(StageRecord &record) const {
    llvm::StringMap<size_t> index;
    for (const auto &run : all) {
      record.stats += run->stats().statistics();
      for (const PassTiming &t : run->stats().timings()) {
        auto [it, inserted] = index.try_emplace(t.pass, record.passTimings.size());
        if (inserted) {
          record.passTimings.push_back(t);
          continue;
        }
        PassTiming &sum = record.passTimings[it->second];
        sum.seconds += t.seconds;
        sum.runs += t.runs;
        sum.opsBefore += t.opsBefore;
        sum.opsAfter += t.opsAfter;
        sum.heapGrowthBytes += t.heapGrowthBytes;
        sum.analysisSeconds += t.analysisSeconds;
        sum.analysisCount += t.analysisCount;
      }
    }
  }

private:
  MLIRContext *context;
  StageId stage;
  const StageOptions &options;
  std::mutex mutex;
  std::vector<std::unique_ptr<PipelineRun>> all;
  std::vector<PipelineRun *> idle;
};

/// One kernel of a stage run.
struct KernelJob {
  ModuleOp input;
  KernelStageRecord record;
  OwningOpRef<ModuleOp> made;
  std::vector<FailureRecord> failures;
};
} // namespace

StageOutput accy::runStage(StageId stage, ModuleOp input,
                           const StageOptions &options,
                           const SourceMap *sourceMap, ProductCache *cache) {
  auto start = std::chrono::steady_clock::now();
  MLIRContext *context = input.getContext();
  StageOutput out;
  StageRecord &record = out.record;
  record.stage = stage;

  if (llvm::Error err = verifyProduct(input, *previousStage(stage))) {
    record.failInternally(llvm::toString(std::move(err)));
    return out;
  }

  // Keys first, and the products the cache already holds.
  std::string stageOptions = options.canonicalText(stage);
  std::vector<KernelJob> jobs;
  std::vector<KernelJob *> toCompile;
  for (ModuleOp kernel : kernelModules(input)) {
    KernelJob &job = jobs.emplace_back();
    job.input = kernel;
    job.record.kernel = kernelName(kernel).str();
    // The hash its producer recorded, where the cache has it.
    llvm::StringRef known = cache ? cache->contentHash(kernelKey(kernel)) : "";
    job.record.inputHash =
        known.empty() ? contentHash(productBytes(kernel)) : known.str();
    job.record.key = computeProductKey(
        {stage, options.buildId, stageOptions, job.record.inputHash});
    job.made = cache ? cache->lookup(job.record.key) : nullptr;
    job.record.status = job.made ? StageStatus::Reused : StageStatus::Compiled;
  }
  for (KernelJob &job : jobs)
    if (!job.made)
      toCompile.push_back(&job);

  // Then every other kernel, on several threads when the context has them:
  // kernels are independent, and each job writes only its own slot.
  PipelinePool pool(context, stage, options);
  auto compile = [&](KernelJob *job) {
    PipelineRun *run = pool.acquire();
    job->made = job->input.clone();
    if (failed(run->run(*job->made, sourceMap, job->failures))) {
      job->made = nullptr;
      job->record.status = StageStatus::Failed;
    } else {
      Builder b(context);
      (*job->made)->setAttr(kKeyAttr, b.getStringAttr(job->record.key));
      (*job->made)->setAttr(kInputKeyAttr,
                            b.getStringAttr(kernelKey(job->input)));
    }
    pool.release(run);
  };
  if (context->isMultithreadingEnabled() && toCompile.size() > 1) {
    PipelineRun *first = pool.acquire();
    first->loadDependentDialects(context);
    pool.release(first);
    parallelForEach(context, toCompile, compile);
  } else
    llvm::for_each(toCompile, compile);
  pool.collect(record);

  // The product, in kernel order.
  OwningOpRef<ModuleOp> product = createProduct(*context, stage);
  std::string stageKeyText, stageFingerprintText;
  for (KernelJob &job : jobs) {
    record.failures.insert(record.failures.end(), job.failures.begin(),
                           job.failures.end());
    if (job.made) {
      std::optional<uint64_t> known =
          cache ? cache->fingerprint(job.record.key) : std::nullopt;
      job.record.fingerprint =
          known ? *known : fingerprintOf(fingerprintText(stage, *job.made));
      if (cache && job.record.status == StageStatus::Compiled)
        cache->store(job.record.key, *job.made, job.record.fingerprint);
      stageKeyText += job.record.key;
      stageFingerprintText += job.record.kernel + ":" +
                              fingerprintHex(job.record.fingerprint) + ";";
      product->getBody()->push_back(job.made.release());
    }
    record.kernels.push_back(std::move(job.record));
  }

  record.key = contentHash(stageKeyText);
  record.fingerprint = fingerprintOf(stageFingerprintText);
  record.seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  if (!record.failures.empty()) {
    record.status = StageStatus::Failed;
    return out; // no partial product
  }
  record.status = !toCompile.empty() || jobs.empty() ? StageStatus::Compiled
                                                     : StageStatus::Reused;
  out.product = std::move(product);
  return out;
}
