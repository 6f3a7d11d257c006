//===- StageRunner.cpp - Runs one stage over a product --------------------===//

#include "accy/Pipeline/StageRunner.h"

#include "FailureCapture.h"
#include "RemotePrefetch.h"
#include "StageInstrumentation.h"

#include "accy/Pipeline/Hashing.h"
#include "accy/Pipeline/KernelStore.h"
#include "accy/Pipeline/Product.h"
#include "accy/Pipeline/ProductCache.h"
#include "accy/Pipeline/SourceMap.h"
#include "accy/Support/CrashContainment.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Threading.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>

using namespace accy;
using namespace mlir;

std::string StageOptions::canonicalText(StageId stage) const {
  return canonicalTargetSet(stage, targets);
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

//===----------------------------------------------------------------------===//
// Fault containment
//===----------------------------------------------------------------------===//

namespace {
/// Lets the fault injection hook make a pass fail as if it had called
/// signalPassFailure.
struct PassFailureAccess : mlir::Pass {
  static void signalFailure(const mlir::Pass &pass) {
    (const_cast<mlir::Pass &>(pass).*&PassFailureAccess::signalPassFailure)();
  }
};

/// A crash that a thread other than the kernel's own recovered from, for
/// that kernel's run to report.
struct NestedCrash {
  std::atomic<bool> crashed{false};
  std::mutex mutex;
  std::string pass;
  std::string description;
};

/// The kernels a stage run is compiling, by their (detached) module.
class RunningKernels {
public:
  void add(Operation *root, NestedCrash *crash) {
    std::lock_guard<std::mutex> lock(mutex);
    kernels[root] = crash;
  }
  void remove(Operation *root) {
    std::lock_guard<std::mutex> lock(mutex);
    kernels.erase(root);
  }
  NestedCrash *find(Operation *root) {
    std::lock_guard<std::mutex> lock(mutex);
    return kernels.lookup(root);
  }

private:
  std::mutex mutex;
  llvm::DenseMap<Operation *, NestedCrash *> kernels;
};

/// The kernels every stage run in the process is compiling (stage runs on
/// one context may overlap: accy-lsp's code generation beside the next
/// edit's check).
static RunningKernels &runningKernels() {
  static RunningKernels kernels;
  return kernels;
}

/// Wraps every pass execution on a context that runs stages (an MLIR action
/// handler, installed by the first stage run on the context and kept for
/// its lifetime, so that overlapping stage runs never install or remove it
/// under each other; only when crash recovery is enabled or the test hook
/// is set). Passes of kernels no stage run is compiling run as they would
/// without it.
///
/// A pass on the kernel module runs on the kernel's own thread, inside the
/// recovery context of that kernel's run (PipelineRun::run). A pass of a
/// nested pass manager (over functions, GPU modules) may run on any thread
/// of the pool when the context is multithreaded, as a task of a parallel
/// loop: it gets a recovery context of its own, and its crash is recorded
/// for the kernel's run, which stops at its next pass and reports it.
class PassExecutionGuard {
public:
  /// Installs the handler on `context` unless it has one (ours, from an
  /// earlier stage run: the first stage run of a context overlaps no other).
  static void install(MLIRContext *context) {
    if (!injectedFault() && !crashRecoveryEnabled())
      return;
    if (!context->hasActionHandler())
      context->registerActionHandler(handle);
  }

private:
  static void handle(llvm::function_ref<void()> transform,
                     const tracing::Action &action) {
    auto *exec = dyn_cast<PassExecutionAction>(&action);
    if (!exec)
      return transform();
    Operation *root = exec->getOp();
    while (Operation *parent = root->getParentOp())
      root = parent;
    const std::optional<InjectedFault> &fault = injectedFault();
    auto body = [&] {
      if (fault)
        return inject(*fault, *exec, root, transform);
      transform();
    };
    NestedCrash *crash = runningKernels().find(root);
    if (!crash || !crashRecoveryEnabled())
      return body();
    llvm::CrashRecoveryContext *own = llvm::CrashRecoveryContext::GetCurrent();
    if (own && exec->getOp() == root) {
      // A pass on the kernel module itself, on the kernel's own thread,
      // inside its run's recovery context: a crash here unwinds to that run
      // through pass manager frames only. A crash a nested pass recovered
      // from ends the run here, before this pass works on the IR it left.
      if (crash->crashed.load())
        own->HandleExit(1);
      return body();
    }
    // A pass of a nested pass manager (on a function, a GPU module, ...),
    // maybe on another thread of the pool, maybe as one of several tasks
    // of a parallel loop: unwinding past that loop would leave its other
    // tasks running on a stack that is gone, so the crash is recovered
    // here, and the loop ends normally.
    if (crash->crashed.load())
      return; // no more passes on IR a crash left inconsistent
    std::optional<std::string> description = runRecoveringCrash(body);
    if (!description)
      return;
    std::lock_guard<std::mutex> lock(crash->mutex);
    if (crash->crashed.load())
      return;
    crash->pass = exec->getPass().getArgument().str();
    crash->description = std::move(*description);
    crash->crashed.store(true);
  }

  /// Runs the pass (`transform`) with the fault where it applies.
  static void inject(const InjectedFault &fault,
                     const PassExecutionAction &exec, Operation *root,
                     llvm::function_ref<void()> transform) {
    auto module = dyn_cast<ModuleOp>(root);
    llvm::StringRef kernel = module && module->hasAttr(kKernelAttr)
                                 ? kernelName(module)
                                 : llvm::StringRef();
    if (!fault.appliesTo(exec.getPass().getArgument(), kernel))
      return transform();
    switch (fault.mode) {
    case InjectedFault::Fail:
      exec.getOp()->emitError() << fault.failureMessage();
      PassFailureAccess::signalFailure(exec.getPass());
      return transform();
    case InjectedFault::Invalid:
      return breakIR(exec, root, transform);
    case InjectedFault::Crash:
    case InjectedFault::Abort:
    case InjectedFault::Fatal:
      fault.raise();
    }
  }

  /// Runs the pass, then leaves what a pass that breaks the IR would: at
  /// the start of the kernel module, an unrealized_conversion_cast without
  /// operands or results, which its verifier rejects, on the module's
  /// location (the kernel's name). As with --verify-each, the IR is verified
  /// after the pass and the pass fails: the verifier failure names this
  /// pass, and no later pass works on the broken IR. Only a pass on the
  /// kernel module is broken: it runs on the kernel's own thread, where the
  /// verifier's errors reach the kernel's FailureCapture (the cast, not
  /// isolated from above, is verified on that thread too). A pass of a
  /// nested pass manager may run on any thread of the pool, where they
  /// would reach another kernel's, so it runs as without the fault.
  static void breakIR(const PassExecutionAction &exec, Operation *root,
                      llvm::function_ref<void()> transform) {
    auto module = dyn_cast<ModuleOp>(root);
    if (!module || exec.getOp() != root)
      return transform();
    // The pass manager reads a pass's failure as the pass returns.
    PassFailureAccess::signalFailure(exec.getPass());
    transform();
    auto builder = OpBuilder::atBlockBegin(module.getBody());
    builder.create<UnrealizedConversionCastOp>(module.getLoc(), TypeRange(),
                                               ValueRange());
    // Reports what does not verify, as the pass manager's verifier would;
    // the pass has failed already.
    (void)mlir::verify(module);
  }
};
} // namespace

namespace {
/// Runs a stage pipeline on standalone kernel modules, collecting the
/// statistics and failures of every run.
class PipelineRun {
public:
  PipelineRun(MLIRContext *context, StageId stage, const StageOptions &options)
      : stage(stage), pm(context, ModuleOp::getOperationName()),
        instrumentation(new StageInstrumentation(
            options.countModifyingPasses, options.collectPassTimings)),
        verifyEachPass(options.verifyEachPass) {
    pm.addInstrumentation(std::unique_ptr<PassInstrumentation>(instrumentation));
    pm.enableVerifier(verifyEachPass);
    buildStagePipeline(stage, pm, options);
  }

  /// Runs the pipeline on `kernel`; failures are appended to `failures`.
  /// After a crash (a signal or a fatal error inside a pass, recovered by
  /// LLVM's crash recovery where the process enabled it) `crashed()` holds:
  /// `kernel` and this run's pass manager may be left inconsistent and must
  /// not be used (nor destroyed) again.
  LogicalResult run(ModuleOp kernel, bool inputVerified,
                    const SourceMap *sourceMap,
                    std::vector<FailureRecord> &failures,
                    RunningKernels &running) {
    llvm::StringRef pipeline = stagePipelineName(stage);
    std::string name = kernelName(kernel).str();
    FailureCapture capture(kernel.getContext());
    // Stage files and store entries are read without verification (their
    // producer verified them, and a checksum vouches for their bytes): a
    // kernel is verified here, before a pass works on it, and only kernels
    // that are compiled pay for it. One that the previous stage made in
    // this process was verified as that stage's product.
    if (!inputVerified && failed(mlir::verify(kernel))) {
      for (FailureRecord &r :
           capture.records(pipeline, "", name, kernel, sourceMap))
        failures.push_back(std::move(r));
      return failure();
    }
    LogicalResult result = failure();
    NestedCrash nested;
    running.add(kernel, &nested);
    // A crash inside a pass becomes an internal failure of this kernel, not
    // of the process that runs the compiler (the language server).
    llvm::CrashRecoveryContext crashContext;
    bool returned = crashContext.RunSafely([&] { result = pm.run(kernel); });
    running.remove(kernel);
    if (!returned || nested.crashed.load()) {
      crashed_ = true;
      std::string pass, crash;
      if (nested.crashed.load()) {
        std::lock_guard<std::mutex> lock(nested.mutex);
        pass = nested.pass;
        crash = nested.description;
      } else {
        pass = instrumentation->runningPass().str();
        crash = crashDescription(crashContext.RetCode);
      }
      for (FailureRecord &r : capture.records(pipeline, pass, name, ModuleOp(),
                                              sourceMap, crash))
        failures.push_back(std::move(r));
      return failure();
    }
    // Without verification after each pass, the stage's product is
    // verified once; a failure then names no single pass.
    bool verified = verifyEachPass || failed(result) ||
                    succeeded(mlir::verify(kernel));
    if (succeeded(result) && verified && !capture.hasErrors())
      return success();
    llvm::StringRef pass = !verified ? llvm::StringRef()
                                     : instrumentation->failedPass();
    for (FailureRecord &r :
         capture.records(pipeline, pass, name, kernel, sourceMap))
      failures.push_back(std::move(r));
    return failure();
  }

  bool crashed() const { return crashed_; }

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
  bool crashed_ = false;
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
    // A run that crashed is not used again (its pass manager may hold a
    // lock or half-updated state the crash skipped over).
    if (!run->crashed())
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

  /// Runs that crashed are leaked, not destroyed: destroying them could
  /// crash again, outside any recovery.
  ~PipelinePool() {
    for (auto &run : all)
      if (run->crashed())
        (void)run.release();
  }

private:
  MLIRContext *context;
  StageId stage;
  const StageOptions &options;
  std::mutex mutex;
  std::vector<std::unique_ptr<PipelineRun>> all;
  std::vector<PipelineRun *> idle;
};

/// A kernel a stage run starts from, and the content hash of its bytes
/// when that is known without serializing it.
struct KernelInput {
  ModuleOp module;
  llvm::StringRef contentHash;
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

/// Runs `fn` on every job, on the calling thread and on the pool's other
/// threads. Not mlir::parallelForEach: it queues a task per thread and
/// waits, and a pool thread that waits inside a job (a pass manager's or
/// the serialize pass's own parallelForEach) runs whatever task is queued
/// next, so a second kernel could start on the thread that is in the middle
/// of the first while another thread sat idle: half the builds of a
/// two-kernel file ran their kernels one after the other. Here all but one
/// worker is queued at once and the caller is the last, so no kernel waits
/// in the queue behind a busy thread.
template <typename Job, typename Fn>
static void forEachOnCallerAndPool(llvm::ThreadPoolInterface &threads,
                                   llvm::ArrayRef<Job> jobs, Fn &&fn) {
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < jobs.size(); i = next++)
      fn(jobs[i]);
  };
  llvm::ThreadPoolTaskGroup helpers(threads);
  size_t workers = std::min<size_t>(jobs.size(), threads.getMaxConcurrency());
  for (size_t i = 1; i < workers; ++i)
    helpers.async(work);
  work();
  helpers.wait();
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
                               : input.contentHash.str();
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
  PassExecutionGuard::install(&context);
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
    forEachOnCallerAndPool(context.getThreadPool(),
                           llvm::ArrayRef<KernelJob *>(toCompile), compile);
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
