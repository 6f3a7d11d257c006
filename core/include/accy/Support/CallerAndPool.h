//===- CallerAndPool.h - Work on the calling thread and a pool --*- C++ -*-===//
#ifndef ACCY_SUPPORT_CALLERANDPOOL_H
#define ACCY_SUPPORT_CALLERANDPOOL_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/ThreadPool.h"

#include <algorithm>
#include <atomic>

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

/// Runs `fn(i)` for every i in [0, count), on the calling thread and the
/// pool's other threads (runOnCallerAndPool), each taking the next i not
/// taken: lowest first, so put the longest jobs first. The caller starts at
/// once; a pool thread woken from idle may take a millisecond and more to
/// run here (a virtual machine's idle core), where mlir::parallelFor would
/// leave the caller waiting for it.
inline void forEachOnCallerAndPool(llvm::ThreadPoolInterface &threads,
                                   size_t count,
                                   llvm::function_ref<void(size_t)> fn) {
  std::atomic<size_t> next{0};
  runOnCallerAndPool(threads, count, [&] {
    for (size_t i = next++; i < count; i = next++)
      fn(i);
  });
}

} // namespace accy

#endif // ACCY_SUPPORT_CALLERANDPOOL_H
