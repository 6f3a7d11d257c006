//===- SharedWork.h - Code generation the threads share -------*- C++ -*-===//
#ifndef ACCY_SUPPORT_SHAREDWORK_H
#define ACCY_SUPPORT_SHAREDWORK_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>

namespace accy {

/// The process's queue of small independent tasks (the code generation of
/// one piece of a kernel; docs/internals.md, "Pieces shared by the kernels'
/// threads"), and the threads that run them on cores no compiling thread
/// uses.
///
/// A thread that queues tasks runs its own queued tasks until they are
/// done, and waits while the last of them run elsewhere; it runs no other
/// thread's tasks, which would hold its own kernel back once its tasks are
/// done. The helper threads (one fewer than the machine's cores) take any
/// task, but only while fewer threads than cores are busy: a thread is busy
/// while it compiles (`Busy`) or runs a task, and not while it waits. So
/// the last kernel of a file, or a file of one kernel, has its pieces on
/// every core, no core idles while a task waits, and no more threads run
/// than there are cores. Helpers wait for nothing but tasks and cores, so
/// no thread pool's work ever waits on them.
class SharedWork {
public:
  static SharedWork &get();

  /// Marks the calling thread busy for its lifetime (nested scopes count
  /// once): a thread that compiles kernels.
  class Busy {
  public:
    Busy();
    ~Busy();
    Busy(const Busy &) = delete;
    Busy &operator=(const Busy &) = delete;
  };

  /// Marks the calling thread, busy, not busy for its lifetime: a thread
  /// that waits for work another thread runs, whose core a helper may take
  /// meanwhile.
  class Idle {
  public:
    Idle();
    ~Idle();
    Idle(const Idle &) = delete;
    Idle &operator=(const Idle &) = delete;

  private:
    bool wasBusy;
  };

  /// While it lives, runAll on the calling thread offers `next` to run
  /// other work first, before each of its own tasks: `next(queued)` gets
  /// the sizes of those still queued added up (0 when none is: the last
  /// ones run elsewhere), runs work it judges larger and returns true, or
  /// returns false. Nested runAll calls inside it offer it too.
  /// The kernel pipeline runs another kernel's target stage there
  /// (docs/internals.md, "Kernels pipelined through the stages"). `next`
  /// is referred to, not copied: it must outlive the scope.
  class FirstOnThisThread {
  public:
    explicit FirstOnThisThread(llvm::function_ref<bool(size_t)> next);
    ~FirstOnThisThread();
    FirstOnThisThread(const FirstOnThisThread &) = delete;
    FirstOnThisThread &operator=(const FirstOnThisThread &) = delete;

  private:
    friend class SharedWork;
    llvm::function_ref<bool(size_t)> next;
    FirstOnThisThread *outer;
  };

  /// Queues `tasks` and runs queued tasks on the calling thread until every
  /// one of `tasks` has run (some perhaps on other threads). A task must not
  /// wait for other tasks. `sizes`, one per task or none, are what
  /// FirstOnThisThread compares (code generation: LLVM instructions).
  void runAll(llvm::ArrayRef<std::function<void()>> tasks,
              llvm::ArrayRef<size_t> sizes = {});

private:
  SharedWork();
  /// One thread more (`busier`) or fewer busy.
  void countBusy(bool busier);
  void startHelpers();
  void help();
  /// A queued task, and the count of its runAll's tasks not yet run, which
  /// names that call.
  struct Task {
    const size_t *batch;
    size_t size;
    std::function<void()> run;
  };
  /// Takes the queue's largest task of `batch` (of any batch when null) and
  /// runs it with `lock` released; false when there is none.
  bool runNext(std::unique_lock<std::mutex> &lock, const size_t *batch);

  std::mutex mutex;
  std::condition_variable wake;
  std::deque<Task> queue;
  unsigned cores;
  unsigned busy = 0;
  bool helpersStarted = false;
};

} // namespace accy

#endif // ACCY_SUPPORT_SHAREDWORK_H
