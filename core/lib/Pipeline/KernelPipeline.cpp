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
#include "accy/Support/TimeTrace.h"

#include "FaultContainment.h"

#include <mutex>

using namespace accy;

namespace {
/// Where one kernel stands.
struct KernelProgress {
  size_t nextStage = 0;  // index into the stages to run
  SharedKernel previous; // its product of the stage before, once made
  bool running = false;
  bool finished = false; // every stage ran, or one failed
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
      progress[i].previous = c.kernelProducts(*c.lastStage())[i];
  std::mutex mutex;

  // The kernel not taken whose next stage comes first, in file order.
  auto take = [&]() -> std::optional<size_t> {
    std::optional<size_t> best;
    for (size_t i = 0; i < count; ++i)
      if (!progress[i].running && !progress[i].finished &&
          (!best || progress[i].nextStage < progress[*best].nextStage))
        best = i;
    if (best)
      progress[*best].running = true;
    return best;
  };
  auto work = [&] {
    // Each kernel's stage spans, on whichever thread runs it.
    TimeTraceThread traced;
    std::unique_lock<std::mutex> lock(mutex);
    while (std::optional<size_t> index = take()) {
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
        kernel.previous = std::move(out.kernels.front());
      unit.failed |= !made;
    }
  };
  runOnCallerAndPool(context.getThreadPool(), count, work);
  return units;
}
