//===- DocumentWorker.cpp - One open document and its thread --------------===//

#include "DocumentWorker.h"

#include "Diagnostics.h"

#include "accy/Pipeline/Product.h"

#include "llvm/ADT/StringSet.h"

using namespace accy;
using namespace accy::lsp;

WorkerHost::~WorkerHost() = default;

DocumentWorker::DocumentWorker(std::shared_ptr<const DocumentSnapshot> snapshot,
                               const CompileOptions &options,
                               llvm::ThreadPoolInterface *pool,
                               CompileSlot &slot, WorkerHost &host)
    : uri(snapshot->uri), includeDirs(options.includeDirs), slot(slot),
      host(host), compiler(options, pool), current(std::move(snapshot)),
      thread([this] { loop(); }) {}

DocumentWorker::~DocumentWorker() {
  stop();
  thread.join();
}

void DocumentWorker::update(std::shared_ptr<const DocumentSnapshot> snapshot,
                            bool immediate) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    current = std::move(snapshot);
    checkWanted = true;
    checkImmediate = immediate;
    wantedSince = std::chrono::steady_clock::now();
    ++edits;
    checkPending = true;
    if (runningCheck)
      runningCheck->store(true);
  }
  wake.notify_all();
  // A wait for the slot gives up for the newer version.
  slot.interrupt();
}

void DocumentWorker::recompile(bool immediate) {
  std::shared_ptr<const DocumentSnapshot> same;
  {
    std::lock_guard<std::mutex> lock(mutex);
    ++generation;
    same = current;
  }
  update(std::move(same), immediate);
}

void DocumentWorker::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopped = true;
    stopping = true;
    if (runningCheck)
      runningCheck->store(true);
  }
  wake.notify_all();
  compiled.notify_all();
  slot.interrupt();
}

void DocumentWorker::touch(uint64_t tick) {
  uint64_t seen = recency.load();
  while (seen < tick && !recency.compare_exchange_weak(seen, tick)) {
  }
}

bool DocumentWorker::isCurrent(const CompileResult &result) const {
  return !stopped && current->version == result.document().version &&
         generation == result.generation();
}

bool DocumentWorker::needsCompletion() const {
  return !plan && latest && !latest->complete() &&
         !latest->retainsProducts() && !checkWanted && isCurrent(*latest);
}

void DocumentWorker::loop() {
  std::unique_lock<std::mutex> lock(mutex);
  for (;;) {
    wake.wait(lock, [&] {
      return stopped || checkWanted || plan || needsCompletion();
    });
    if (stopped)
      break;
    if (!checkWanted) {
      lock.unlock();
      runBackground();
      lock.lock();
      continue;
    }
    // Debounce: wait until no newer edit has come for the whole delay,
    // counted from the newest edit, as clangd's deadline is.
    while (!checkImmediate && !stopped) {
      uint64_t before = edits;
      bool changed = wake.wait_until(lock, wantedSince + policy.next(), [&] {
        return stopped || edits != before;
      });
      if (!changed)
        break;
    }
    if (stopped)
      break;
    std::shared_ptr<const DocumentSnapshot> snapshot = current;
    uint64_t checkedGeneration = generation;
    bool immediate = checkImmediate;
    checkWanted = false;
    checkPending = false;
    auto flag = std::make_shared<std::atomic<bool>>(false);
    runningCheck = flag;
    lock.unlock();
    std::optional<std::chrono::duration<double>> took =
        runCheck(snapshot, checkedGeneration, *flag);
    lock.lock();
    runningCheck.reset();
    // Only edits teach the debounce: the first check of a document builds
    // every kernel, which no later edit does.
    if (took && !immediate)
      policy.record(*took);
  }
  done = true;
}

std::optional<std::chrono::duration<double>>
DocumentWorker::runCheck(std::shared_ptr<const DocumentSnapshot> snapshot,
                         uint64_t checkedGeneration,
                         const std::atomic<bool> &cancelled) {
  CompileSlot::Lease lease =
      slot.acquire(CompileSlot::Priority::Check, recency,
                   [&] { return stopping.load() || cancelled.load(); });
  if (!lease)
    return std::nullopt;
  ServerCallbacks &callbacks = host.callbacks();
  uint64_t compile = host.nextCompileId();
  {
    std::lock_guard<std::mutex> lock(mutex);
    ++counts.started;
  }
  auto start = std::chrono::steady_clock::now();
  callbacks.compileStarted(uri, snapshot->version, compile);
  std::shared_ptr<const CompileResult> checked =
      compiler.check(*snapshot, checkedGeneration, cancelled, [&](StageId stage) {
        callbacks.stageStarted(compile, stage);
      });
  if (!checked) {
    lease = CompileSlot::Lease();
    callbacks.compileEnded(compile, /*cancelled=*/true);
    std::lock_guard<std::mutex> lock(mutex);
    ++counts.cancelled;
    return std::nullopt;
  }
  // Other documents release their products before anyone hears of this
  // check, so what the client asks next sees the state after it.
  host.checked(uri);
  std::shared_ptr<const CompileResult> replaced;
  std::optional<uint64_t> unfinished;
  bool publishing;
  {
    std::lock_guard<std::mutex> lock(mutex);
    ++counts.finished;
    counts.cachedProducts = compiler.cachedProducts();
    replaced = std::exchange(latest, checked);
    unfinished = replan(checked->complete() ? nullptr : checked, compile);
    // Never publish for a version the client has already replaced.
    publishing = !cancelled.load() && isCurrent(*checked);
    announced = false;
  }
  lease = CompileSlot::Lease();
  if (unfinished)
    callbacks.compileEnded(*unfinished, /*cancelled=*/true);
  if (checked->complete())
    callbacks.compileEnded(compile, /*cancelled=*/false);
  std::chrono::duration<double> toDiagnostics =
      std::chrono::steady_clock::now() - start;
  if (publishing)
    publish(*checked);
  announce();
  replaced.reset(); // the older version's products, once the diagnostics are out
  return toDiagnostics;
}

std::optional<uint64_t>
DocumentWorker::replan(std::shared_ptr<const CompileResult> base,
                       uint64_t compile) {
  std::optional<Plan> next;
  llvm::StringSet<> keys;
  if (base) {
    next.emplace();
    next->base = base;
    next->compile = compile;
    if (std::optional<StageId> from = base->compilation().lastStage()) {
      llvm::SmallVector<mlir::ModuleOp> kernels = base->kernels(*from);
      for (size_t i = 0; i < kernels.size(); ++i) {
        std::string key = kernelKey(kernels[i]).str();
        keys.insert(key);
        for (const std::string &target :
             compiler.compileOptions().stages.targets)
          next->pending.push_back({i, key, target});
      }
    }
  }
  std::optional<uint64_t> unfinished;
  if (plan) {
    for (const Plan::Unit &unit : plan->pending)
      ++(keys.count(unit.key) ? counts.unitsKept : counts.unitsDropped);
    if (plan->compile != compile)
      unfinished = plan->compile;
  }
  plan = std::move(next);
  wake.notify_all();
  return unfinished;
}

void DocumentWorker::runBackground() {
  CompileSlot::Lease lease =
      slot.acquire(
          CompileSlot::Priority::Background, recency,
          [&] { return stopping.load() || checkPending.load(); },
          [&] { return completeWaiters.load() > 0; });
  if (!lease)
    return;
  ServerCallbacks &callbacks = host.callbacks();
  std::shared_ptr<const DocumentSnapshot> snapshot;
  uint64_t baseGeneration;
  bool fromFrontend;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (checkWanted || stopped || (!plan && !needsCompletion()))
      return;
    snapshot = current;
    baseGeneration = generation;
    fromFrontend = !plan;
  }
  if (fromFrontend) {
    // The products were released: the units start from the frontend's
    // result, in the compiler's fresh context.
    std::shared_ptr<const CompileResult> base =
        compiler.frontend(*snapshot, baseGeneration);
    uint64_t compile = host.nextCompileId();
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (!needsCompletion() || !isCurrent(*base))
        return;
      replan(base, compile);
    }
    callbacks.compileStarted(uri, snapshot->version, compile);
  }
  for (;;) {
    std::shared_ptr<const CompileResult> base;
    size_t index = 0;
    std::string target;
    uint64_t compile = 0;
    bool reportStart = false, assemble = false;
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (!plan || checkWanted || stopped)
        return;
      base = plan->base;
      compile = plan->compile;
      reportStart = !plan->reportedStart;
      plan->reportedStart = true;
      assemble = plan->pending.empty();
      if (!assemble) {
        index = plan->pending.front().index;
        target = plan->pending.front().target;
      }
    }
    if (reportStart)
      callbacks.stageStarted(compile, StageId::Target);
    if (assemble) {
      // Cheap (every kernel is in the caches), but not cheap enough to
      // keep a check waiting for it.
      if (slot.checkWaiting())
        return;
      std::vector<KernelUnit> runs;
      {
        std::lock_guard<std::mutex> lock(mutex);
        runs = std::move(plan->runs);
      }
      std::shared_ptr<const CompileResult> complete =
          compiler.assemble(*base, runs);
      // A document completed in the background after its products were
      // released holds them no longer than that.
      if (!host.retains(uri)) {
        complete = complete->withoutProducts();
        compiler.releaseProducts();
      }
      std::shared_ptr<const CompileResult> replaced;
      bool publishing;
      {
        std::lock_guard<std::mutex> lock(mutex);
        plan.reset();
        counts.cachedProducts = compiler.cachedProducts();
        replaced = std::exchange(latest, complete);
        // The target stage adds diagnostics only when it fails.
        publishing = isCurrent(*complete) &&
                     !complete->record(StageId::Target).failures.empty();
        announced = false;
      }
      lease = CompileSlot::Lease();
      callbacks.compileEnded(compile, /*cancelled=*/false);
      if (publishing)
        publish(*complete);
      announce();
      return;
    }
    KernelUnit run = compiler.generateKernel(*base, index, target);
    bool compiledAny = run.compiledAny;
    {
      std::lock_guard<std::mutex> lock(mutex);
      // Nothing replans while this worker holds the slot.
      plan->pending.pop_front();
      plan->runs.push_back(std::move(run));
      if (compiledAny)
        ++counts.unitsRun;
      counts.cachedProducts = compiler.cachedProducts();
    }
    // One unit compiled: the slot goes back, to a waiting check or to
    // the most recently active document's units.
    if (compiledAny)
      return;
  }
}

void DocumentWorker::publish(const CompileResult &result) {
  if (stopping.load())
    return;
  host.callbacks().publishDiagnostics(uri, result.document().version,
                                      collectDiagnostics(result, host.encoding()));
}

void DocumentWorker::announce() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    announced = true;
  }
  compiled.notify_all();
}

void DocumentWorker::releaseProducts() {
  compiler.releaseProducts();
  std::shared_ptr<const CompileResult> replaced;
  std::optional<uint64_t> unfinished;
  {
    std::lock_guard<std::mutex> lock(mutex);
    counts.cachedProducts = 0;
    if (latest)
      replaced = std::exchange(latest, latest->withoutProducts());
    if (plan) {
      counts.unitsDropped += plan->pending.size();
      unfinished = plan->compile;
      plan.reset();
    }
  }
  wake.notify_all();
  compiled.notify_all();
  if (unfinished)
    host.callbacks().compileEnded(*unfinished, /*cancelled=*/true);
}

std::shared_ptr<const CompileResult>
DocumentWorker::waitForResult(bool complete, bool products,
                              const CancelFlag &cancelled) {
  std::unique_lock<std::mutex> lock(mutex);
  for (;;) {
    int64_t version = current->version;
    uint64_t wantedGeneration = generation;
    auto ofCurrent = [&] {
      return latest && announced && latest->document().version >= version &&
             latest->generation() >= wantedGeneration;
    };
    // Released products are compiled again at once, whether or not the
    // code was generated yet.
    auto released = [&] {
      return products && ofCurrent() && !latest->retainsProducts();
    };
    auto ready = [&] {
      return stopped || (cancelled && cancelled->load()) || released() ||
             (ofCurrent() && (!complete || latest->complete()));
    };
    // Code generation this request waits for need not wait for a pause.
    bool counted = complete && !ready();
    if (counted) {
      ++completeWaiters;
      slot.interrupt();
    }
    // Cancellation is a flag, not a notification: look at it now and then.
    while (!compiled.wait_for(lock, std::chrono::milliseconds(20), ready)) {
    }
    if (counted)
      --completeWaiters;
    if (stopped || (cancelled && cancelled->load()))
      return nullptr;
    if (!released())
      return latest;
    lock.unlock();
    recompile(/*immediate=*/true);
    lock.lock();
  }
}

std::shared_ptr<const Analysis>
DocumentWorker::analysis(PositionEncoding encoding) {
  std::shared_ptr<const DocumentSnapshot> snapshot;
  uint64_t analysedGeneration;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (analysisCache &&
        analysisCache->document().version == current->version &&
        analysisCache->generation() == generation &&
        analysisCache->encoding() == encoding)
      return analysisCache;
    snapshot = current;
    analysedGeneration = generation;
  }
  std::shared_ptr<const Analysis> fresh =
      Analysis::build(*snapshot, includeDirs, encoding, analysedGeneration);
  std::lock_guard<std::mutex> lock(mutex);
  if (!analysisCache ||
      analysisCache->document().version <= snapshot->version)
    analysisCache = fresh;
  return fresh;
}

std::shared_ptr<const CompileResult> DocumentWorker::latestResult() {
  std::lock_guard<std::mutex> lock(mutex);
  return latest;
}

std::shared_ptr<const Analysis> DocumentWorker::cachedAnalysis() {
  std::lock_guard<std::mutex> lock(mutex);
  return analysisCache;
}

CompileCounters DocumentWorker::counters() {
  std::lock_guard<std::mutex> lock(mutex);
  return counts;
}

std::chrono::milliseconds DocumentWorker::debounce() {
  std::lock_guard<std::mutex> lock(mutex);
  return policy.next();
}
