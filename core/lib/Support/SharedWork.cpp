//===- SharedWork.cpp - Code generation shared by the compiling threads ---===//

#include "accy/Support/SharedWork.h"
#include "accy/Support/TimeTrace.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Threading.h"

#include <thread>

using namespace accy;

/// How many Busy scopes (and runAll calls) the calling thread is inside.
static thread_local unsigned busyDepth = 0;

/// The calling thread's innermost FirstOnThisThread.
static thread_local SharedWork::FirstOnThisThread *firstWork = nullptr;

SharedWork &SharedWork::get() {
  // Never destroyed: its helpers wait for tasks until the process ends.
  static SharedWork *work = new SharedWork();
  return *work;
}

SharedWork::SharedWork()
    : cores(std::max(1u, llvm::hardware_concurrency().compute_thread_count())) {
}

void SharedWork::countBusy(bool busier) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    busier ? ++busy : --busy;
  }
  if (!busier)
    wake.notify_all();
}

SharedWork::Busy::Busy() {
  if (busyDepth++ == 0)
    get().countBusy(true);
}

SharedWork::Busy::~Busy() {
  if (--busyDepth == 0)
    get().countBusy(false);
}

SharedWork::Idle::Idle() : wasBusy(busyDepth > 0) {
  if (wasBusy)
    get().countBusy(false);
}

SharedWork::Idle::~Idle() {
  if (wasBusy)
    get().countBusy(true);
}

SharedWork::FirstOnThisThread::FirstOnThisThread(
    llvm::function_ref<bool(size_t)> next)
    : next(next), outer(firstWork) {
  firstWork = this;
}

SharedWork::FirstOnThisThread::~FirstOnThisThread() { firstWork = outer; }

void SharedWork::startHelpers() {
  if (helpersStarted)
    return;
  helpersStarted = true;
  for (unsigned i = 1; i < cores; ++i)
    std::thread([this] { help(); }).detach();
}

bool SharedWork::runNext(std::unique_lock<std::mutex> &lock,
                         const size_t *batch) {
  // The largest first (the first queued of equals): the last tasks to run,
  // which may leave a core idle while they end, are then the smallest.
  auto it = queue.end();
  for (auto task = queue.begin(); task != queue.end(); ++task)
    if ((!batch || task->batch == batch) &&
        (it == queue.end() || task->size > it->size))
      it = task;
  if (it == queue.end())
    return false;
  std::function<void()> task = std::move(it->run);
  queue.erase(it);
  lock.unlock();
  task();
  lock.lock();
  return true;
}

void SharedWork::help() {
  std::unique_lock<std::mutex> lock(mutex);
  for (;;) {
    wake.wait(lock, [&] { return !queue.empty() && busy < cores; });
    ++busy;
    runNext(lock, nullptr);
    --busy;
    wake.notify_all();
  }
}

void SharedWork::runAll(llvm::ArrayRef<std::function<void()>> tasks,
                        llvm::ArrayRef<size_t> sizes) {
  assert((sizes.empty() || sizes.size() == tasks.size()) &&
         "a size for every task, or none");
  Busy busyHere;
  size_t left = tasks.size();
  std::unique_lock<std::mutex> lock(mutex);
  startHelpers();
  for (size_t i = 0; i < tasks.size(); ++i) {
    auto run = [this, &task = tasks[i], &left] {
      {
        // A helper records the task's spans where the process traces (a
        // kernel's thread records already), and hands them over before the
        // task counts as run: a trace written once the build is done has
        // them.
        TimeTraceThread traced;
        task();
      }
      {
        std::lock_guard<std::mutex> done(mutex);
        --left;
      }
      // The thread that queued it may be waiting (on any thread but its
      // own).
      wake.notify_all();
    };
    queue.push_back({&left, sizes.empty() ? 0 : sizes[i], std::move(run)});
  }
  wake.notify_all();
  while (left > 0) {
    if (firstWork) {
      size_t queued = 0;
      for (const Task &task : queue)
        if (task.batch == &left)
          queued += task.size;
      lock.unlock();
      bool ran = firstWork->next(queued);
      lock.lock();
      // Its last task may have ended meanwhile, its notice missed: waiting
      // now would be for good.
      if (ran || left == 0)
        continue;
    }
    if (!runNext(lock, &left)) {
      // The last of its tasks run elsewhere. Waiting is not busy: a helper
      // may take this core meanwhile, for another thread's tasks.
      --busy;
      wake.notify_all();
      wake.wait(lock);
      ++busy;
    }
  }
}
