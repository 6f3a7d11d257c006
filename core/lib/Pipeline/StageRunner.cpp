//===- StageRunner.cpp - Runs one stage over a product --------------------===//
//
// A stage run over the kernels of a product: each kernel's key, the
// products the cache or the store already hold, the others compiled on the
// context's threads (PipelinePool.h, under FaultContainment.h's guard), and
// the stage's record and product in input order.
//
//===----------------------------------------------------------------------===//

#include "accy/Pipeline/StageRunner.h"

#include "PipelinePool.h"
#include "RemotePrefetch.h"

#include "accy/Pipeline/Hashing.h"
#include "accy/Pipeline/KernelStore.h"
#include "accy/Pipeline/Product.h"
#include "accy/Pipeline/ProductCache.h"
#include "accy/Pipeline/SourceMap.h"
#include "accy/Stages/Dispatch/Plan.h"
#include "accy/Support/CallerAndPool.h"
#include "accy/Support/CrashContainment.h"
#include "accy/Support/SharedWork.h"
#include "accy/Support/TimeTrace.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/TimeProfiler.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <memory>

using namespace accy;
using namespace mlir;

std::string StageOptions::canonicalText(StageId stage) const {
  return canonicalTargetSet(stage, targets);
}

/// The plan a memory or kernel product's fingerprint summarises: the kernel
/// module's attribute holding that stage's plan.
static llvm::StringRef planAttrName(StageId stage) {
  switch (stage) {
  case StageId::Memory:
    return choir::kMemoryPlanAttrName;
  case StageId::Kernel:
    return choir::kKernelSummaryAttrName;
  default:
    return {};
  }
}

/// The text a kernel product's fingerprint summarises: the stage's plan
/// where it has one (the dispatch stage's: every root's plan, in program
/// order), else the product itself. Keys are left out: a fingerprint
/// describes what was made, not how it is named.
static std::string fingerprintText(StageId stage, ModuleOp kernel) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (stage == StageId::Dispatch) {
    // The plan is the root's own or, in a choir.dispatch region, the
    // region's: getPlan reads either.
    kernel.walk([&](Operation *op) {
      if (getDispatchRoot(op) != op)
        return;
      if (choir::PlanAttr plan = getPlan(op))
        os << getDispatchId(op) << ' ' << plan << '\n';
    });
    return text;
  }
  if (llvm::StringRef name = planAttrName(stage); !name.empty())
    if (Attribute plan = kernel->getAttr(name)) {
      os << plan;
      return text;
    }
  if (!kernel->hasAttr(kKeyAttr) && !kernel->hasAttr(kInputKeyAttr))
    return productBytes(kernel);
  OwningOpRef<ModuleOp> copy = kernel.clone();
  (*copy)->removeAttr(kKeyAttr);
  (*copy)->removeAttr(kInputKeyAttr);
  return productBytes(*copy);
}

uint64_t accy::kernelFingerprint(StageId stage, ModuleOp kernel) {
  return fingerprintOf(fingerprintText(stage, kernel));
}

namespace {
/// A kernel a stage run starts from, and the content hash of its bytes
/// when that is known without serializing it.
struct KernelInput {
  ModuleOp module;
  std::string contentHash;
  bool verified = false; // KernelProduct::verified
};

/// One kernel of a stage run.
struct KernelJob {
  ModuleOp input;
  bool inputVerified = false;
  KernelStageRecord record;
  SharedKernel reused;        // from the cache or the store, by key
  std::optional<uint64_t> storedFingerprint; // when the store served it
  bool fromRemote = false;    // the store had it from a remote cache
  SharedKernel made;           // compiled by this run
  std::vector<FailureRecord> failures;
};
} // namespace

void accy::loadStageDialects(StageId stage, MLIRContext &context,
                             const StageOptions &options) {
  PipelineRun(&context, stage, options).loadDependentDialects(&context);
}

/// The product a kernel's run made: its keys set, and its fingerprint
/// (into `record`), content hash and store entry made on the thread that
/// compiled it, from one serialization of its bytes (and one more without
/// keys where the stage has no plan to fingerprint).
static SharedKernel finishProduct(StageId stage, OwningOpRef<ModuleOp> made,
                                  ModuleOp input, KernelStageRecord &record,
                                  KernelStore *store) {
  // The input's keys came along with the clone.
  (*made)->removeAttr(kKeyAttr);
  (*made)->removeAttr(kInputKeyAttr);
  record.fingerprint = kernelFingerprint(stage, *made);
  Builder b(made->getContext());
  (*made)->setAttr(kKeyAttr, b.getStringAttr(record.key));
  (*made)->setAttr(kInputKeyAttr, b.getStringAttr(kernelKey(input)));
  std::string bytes = productBytes(*made);
  std::string hash = contentHash(bytes);
  auto product =
      std::make_shared<const KernelProduct>(std::move(made), std::move(hash),
                                            /*verified=*/true);
  if (store)
    store->save(stage, record.key, *product, record.fingerprint, bytes);
  return product;
}

static StageKernels runOnKernels(StageId stage, MLIRContext &context,
                                 llvm::ArrayRef<KernelInput> inputs,
                                 const StageOptions &options,
                                 const SourceMap *sourceMap,
                                 ProductCache *cache,
                                 const RunControl &control) {
  auto start = std::chrono::steady_clock::now();
  llvm::TimeTraceScope stageScope("stage", stageName(stage));
  StageKernels out;
  StageRecord &record = out.record;
  record.stage = stage;

  // Keys first, and the products the cache already holds.
  std::string stageOptions = options.canonicalText(stage);
  // An injected fault changes what a run makes without changing its keys.
  KernelStore *store = isStoredStage(stage) && !injectedFault()
                           ? options.store
                           : nullptr;
  std::vector<KernelJob> jobs;
  std::vector<KernelJob *> toCompile;
  for (const KernelInput &input : inputs) {
    KernelJob &job = jobs.emplace_back();
    job.input = input.module;
    job.inputVerified = input.verified;
    job.record.kernel = kernelName(input.module).str();
    job.record.inputHash = input.contentHash.empty()
                               ? contentHash(productBytes(input.module))
                               : input.contentHash;
    job.record.key = computeProductKey(
        {stage, options.buildId, stageOptions, job.record.inputHash});
    job.reused = cache ? cache->lookup(job.record.key) : nullptr;
    if (!job.reused && store)
      if (auto loaded = store->load(stage, job.record.key, context)) {
        job.reused = std::move(loaded->kernel);
        job.storedFingerprint = loaded->fingerprint;
        job.fromRemote = loaded->fromRemote;
        job.record.fromStore = true;
      }
    job.record.status =
        job.reused ? StageStatus::Reused : StageStatus::Compiled;
  }
  for (KernelJob &job : jobs)
    if (!job.reused)
      toCompile.push_back(&job);

  installFatalErrorHandler();
  installPassExecutionGuard(&context);
  RunningKernels &running = runningKernels();

  // Then every other kernel, on several threads when the context has them:
  // kernels are independent, and each job writes only its own slot.
  PipelinePool pool(&context, stage, options);
  auto compile = [&](KernelJob *job) {
    // Cancelled: the kernels not started yet stay as they are.
    if (control.isCancelled()) {
      job->record.status = StageStatus::NotRun;
      return;
    }
    // Counted among the threads at work while it compiles, so the shared
    // code generation helpers take only idle cores.
    SharedWork::Busy busy;
    TimeTraceThread traced;
    llvm::TimeTraceScope scope(stageName(stage), job->record.kernel);
    PipelineRun *run = pool.acquire();
    OwningOpRef<ModuleOp> made = job->input.clone();
    if (failed(run->run(*made, job->inputVerified, sourceMap, job->failures,
                        running))) {
      // IR a crash left behind may be inconsistent: leaked, not erased.
      if (run->crashed())
        (void)made.release();
      job->record.status = StageStatus::Failed;
    } else {
      job->made = finishProduct(stage, std::move(made), job->input,
                                job->record, store);
    }
    pool.release(run);
  };
  if (context.isMultithreadingEnabled() && toCompile.size() > 1) {
    PipelineRun *first = pool.acquire();
    first->loadDependentDialects(&context);
    pool.release(first);
    forEachOnCallerAndPool(context.getThreadPool(), toCompile.size(),
                           [&](size_t i) { compile(toCompile[i]); });
  } else
    llvm::for_each(toCompile, compile);
  pool.collect(record);

  // The kernels, in input order.
  std::string stageKeyText, stageFingerprintText;
  bool cancelled = false;
  for (KernelJob &job : jobs) {
    cancelled |= job.record.status == StageStatus::NotRun;
    record.failures.insert(record.failures.end(), job.failures.begin(),
                           job.failures.end());
    if (job.reused) {
      // A compiled kernel has its fingerprint from finishProduct.
      std::optional<uint64_t> known =
          job.storedFingerprint ? job.storedFingerprint
          : cache               ? cache->fingerprint(job.record.key)
                                : std::nullopt;
      job.record.fingerprint =
          known ? *known : kernelFingerprint(stage, job.reused->module.get());
    }
    if (job.reused || job.made) {
      SharedKernel kernel =
          job.reused ? std::move(job.reused) : std::move(job.made);
      if (cache && (job.record.status == StageStatus::Compiled ||
                    job.record.fromStore))
        cache->store(job.record.key, kernel, job.record.fingerprint);
      if (store && job.fromRemote && options.prefetchFollowingStages)
        prefetchFollowing(*store, stage, *kernel, options, context);
      stageKeyText += job.record.key;
      stageFingerprintText += job.record.kernel + ":" +
                              fingerprintHex(job.record.fingerprint) + ";";
      out.kernels.push_back(std::move(kernel));
    }
    if (control.observer)
      control.observer->kernelDone(stage, job.record);
    record.kernels.push_back(std::move(job.record));
  }

  record.key = contentHash(stageKeyText);
  record.fingerprint = fingerprintOf(stageFingerprintText);
  record.seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  if (!record.failures.empty() || cancelled) {
    record.status = cancelled ? StageStatus::NotRun : StageStatus::Failed;
    out.kernels.clear(); // no partial product
  } else {
    record.status = !toCompile.empty() || jobs.empty() ? StageStatus::Compiled
                                                       : StageStatus::Reused;
  }
  if (control.observer)
    control.observer->stageDone(record);
  return out;
}

StageKernels accy::runStageOnKernels(StageId stage, MLIRContext &context,
                                     llvm::ArrayRef<ModuleOp> inputs,
                                     const StageOptions &options,
                                     const SourceMap *sourceMap,
                                     ProductCache *cache,
                                     const RunControl &control) {
  std::vector<KernelInput> known;
  for (ModuleOp kernel : inputs)
    // The hash its producer recorded, where the cache has it.
    known.push_back(
        {kernel, cache ? cache->contentHash(kernelKey(kernel)) : ""});
  return runOnKernels(stage, context, known, options, sourceMap, cache,
                      control);
}

StageKernels accy::runStageOnKernels(StageId stage, MLIRContext &context,
                                     llvm::ArrayRef<SharedKernel> inputs,
                                     const StageOptions &options,
                                     const SourceMap *sourceMap,
                                     ProductCache *cache,
                                     const RunControl &control) {
  std::vector<KernelInput> known;
  for (const SharedKernel &kernel : inputs)
    known.push_back(
        {kernel->module.get(), kernel->contentHash, kernel->verified});
  return runOnKernels(stage, context, known, options, sourceMap, cache,
                      control);
}
