//===- CallerAndPool.h - Work on the calling thread and a pool --*- C++ -*-===//
#ifndef ACCY_LIB_PIPELINE_CALLERANDPOOL_H
#define ACCY_LIB_PIPELINE_CALLERANDPOOL_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/ThreadPool.h"

#include <algorithm>

namespace accy {

/// Runs `work` on the calling thread and, at once, on up to `workers - 1`
/// threads of `threads` (no more than it has), and returns when every run
/// has returned; `work` takes its jobs from a queue of its own. Not
/// mlir::parallelForEach: it queues a task per thread and waits, and a pool
/// thread that waits inside a job (a pass manager's or the serialize pass's
/// own parallelForEach) runs whatever task is queued next, so a second
/// kernel could start on the thread that is in the middle of the first
/// while another thread sat idle: half the builds of a two-kernel file ran
/// their kernels one after the other. Here all but one worker is queued at
/// once and the caller is the last, so no job waits in the queue behind a
/// busy thread.
inline void runOnCallerAndPool(llvm::ThreadPoolInterface &threads,
                               size_t workers,
                               llvm::function_ref<void()> work) {
  llvm::ThreadPoolTaskGroup helpers(threads);
  workers = std::min<size_t>(workers, threads.getMaxConcurrency());
  for (size_t i = 1; i < workers; ++i)
    helpers.async([work] { work(); });
  work();
  helpers.wait();
}

} // namespace accy

#endif // ACCY_LIB_PIPELINE_CALLERANDPOOL_H
