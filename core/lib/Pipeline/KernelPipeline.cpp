//===- KernelPipeline.cpp - A file's kernels through the stages at once ---===//
//
// Stage by stage, a file of three kernels on two cores leaves a core idle
// for the last kernel of every stage. Pipelined, each kernel goes on to its
// next stage as soon as its product of the stage before is made: a worker
// takes the kernel whose next stage comes first (every kernel's checks
// before any code generation, as accy-lsp orders its work), and a worker
// finding every kernel taken leaves its core to the others' code
// generation (SharedWork). Each step is compileKernel's: one kernel's
// stage run, its products into the caches.
//
//===----------------------------------------------------------------------===//

#include "accy/Pipeline/Compiler.h"
#include "accy/Pipeline/Product.h"
#include "accy/Support/CallerAndPool.h"
#include "accy/Support/SharedWork.h"
#include "accy/Support/TimeTrace.h"

#include "FaultContainment.h"

#include <limits>
#include <mutex>

using namespace accy;

namespace {
/// Where one kernel stands.
struct KernelProgress {
  size_t nextStage = 0;   // index into the stages to run
  SharedKernel previous;  // its product of the stage before, once made
  size_t previousOps = 0; // the ops in it: what is left of the kernel
  bool running = false;
  bool finished = false; // every stage ran, or one failed

  void setPrevious(SharedKernel product) {
    previous = std::move(product);
    previousOps = 0;
    previous->module.get()->walk([&](mlir::Operation *) { ++previousOps; });
  }
  /// What is left of it, as FirstOnThisThread compares it with the LLVM
  /// instructions of a thread's queued pieces: the instructions its pieces
  /// will have for one target, about two per op of its last product (1.65
  /// on the examples' row kernels, and the lowering besides). Before its
  /// first stage nothing is known; the front stages come first anyway.
  size_t size() const {
    return previous ? 2 * previousOps : std::numeric_limits<size_t>::max();
  }
};
} // namespace

std::vector<KernelUnit> Compiler::runKernelsAhead(const Compilation &c,
                                                  StageId last) {
  std::vector<StageId> stages;
  for (StageId stage : kAllStages)
    if (stageIndex(stage) > stageIndex(*c.lastStage()) &&
        stageIndex(stage) <= stageIndex(last))
      stages.push_back(stage);
  // What the stage runs set up on the context, before threads use it: the
  // dialects their pipelines create and the pass guard.
  for (StageId stage : stages)
    loadStageDialects(stage, context, options.stages);
  installPassExecutionGuard(&context);

  llvm::SmallVector<mlir::ModuleOp> inputs = c.kernels(*c.lastStage());
  size_t count = inputs.size();
  std::vector<KernelUnit> units(count);
  for (size_t i = 0; i < count; ++i)
    units[i].kernel = kernelName(inputs[i]).str();
  std::vector<KernelProgress> progress(count);
  if (*c.lastStage() != StageId::Semantic)
    for (size_t i = 0; i < count; ++i)
      progress[i].setPrevious(c.kernelProducts(*c.lastStage())[i]);
  std::mutex mutex;

  // The kernel not taken whose next stage comes first, in file order;
  // with `largerThan`, only if its size() is larger.
  auto take = [&](std::optional<size_t> largerThan) -> std::optional<size_t> {
    std::optional<size_t> best;
    for (size_t i = 0; i < count; ++i)
      if (!progress[i].running && !progress[i].finished &&
          (!best || progress[i].nextStage < progress[*best].nextStage))
        best = i;
    if (!best || (largerThan && progress[*best].size() <= *largerThan))
      return std::nullopt;
    progress[*best].running = true;
    return best;
  };
  // Runs the next stage of the kernel take() gives; false when it gives
  // none.
  auto runNextStage = [&](std::optional<size_t> largerThan) {
    std::unique_lock<std::mutex> lock(mutex);
    std::optional<size_t> index = take(largerThan);
    if (!index)
      return false;
    KernelProgress &kernel = progress[*index];
    StageId stage = stages[kernel.nextStage];
    SharedKernel previous = kernel.previous;
    lock.unlock();
    StageKernels out =
        runKernelStage(c, *index, stage, previous, options.stages);
    lock.lock();
    KernelUnit &unit = units[*index];
    unit.compiledAny |= out.record.status == StageStatus::Compiled;
    bool made = !out.kernels.empty();
    unit.records.push_back(std::move(out.record));
    kernel.running = false;
    if (!made || ++kernel.nextStage == stages.size())
      kernel.finished = true;
    else
      kernel.setPrevious(std::move(out.kernels.front()));
    unit.failed |= !made;
    return true;
  };
  auto work = [&] {
    // Each kernel's stage spans, on whichever thread runs it.
    TimeTraceThread traced;
    // With every worker in a kernel's code generation, the next kernel's
    // target stage waited for one, then lowered alone while the other
    // cores idled (softmax.accy: 5 ms of its ~55). A worker about to run a
    // piece of its kernel runs that stage first (nested, on this thread)
    // when the kernel weighs more than the pieces it has queued: it would
    // otherwise be what the build waits for at its end.
    auto larger = [&](size_t queued) { return runNextStage(queued); };
    SharedWork::FirstOnThisThread first(larger);
    while (runNextStage(std::nullopt)) {
    }
  };
  runOnCallerAndPool(context.getThreadPool(), count, work);
  return units;
}
