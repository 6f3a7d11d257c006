//===- SharedWork.cpp - Code generation shared by the compiling threads ---===//

#include "accy/Support/SharedWork.h"
#include "accy/Support/TimeTrace.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Threading.h"

#include <thread>

using namespace accy;

/// How many Busy scopes (and runAll calls) the calling thread is inside.
static thread_local unsigned busyDepth = 0;

SharedWork &SharedWork::get() {
  // Never destroyed: its helpers wait for tasks until the process ends.
  static SharedWork *work = new SharedWork();
  return *work;
}

SharedWork::SharedWork()
    : cores(std::max(1u, llvm::hardware_concurrency().compute_thread_count())) {
}

SharedWork::Busy::Busy() {
  if (busyDepth++ > 0)
    return;
  SharedWork &work = get();
  std::lock_guard<std::mutex> lock(work.mutex);
  ++work.busy;
}

SharedWork::Busy::~Busy() {
  if (--busyDepth > 0)
    return;
  SharedWork &work = get();
  {
    std::lock_guard<std::mutex> lock(work.mutex);
    --work.busy;
  }
  work.wake.notify_all();
}

void SharedWork::startHelpers() {
  if (helpersStarted)
    return;
  helpersStarted = true;
  for (unsigned i = 1; i < cores; ++i)
    std::thread([this] { help(); }).detach();
}

bool SharedWork::runNext(std::unique_lock<std::mutex> &lock,
                         const size_t *batch) {
  auto it = llvm::find_if(
      queue, [&](const Task &task) { return !batch || task.batch == batch; });
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

void SharedWork::runAll(llvm::ArrayRef<std::function<void()>> tasks) {
  Busy busyHere;
  size_t left = tasks.size();
  std::unique_lock<std::mutex> lock(mutex);
  startHelpers();
  for (const std::function<void()> &task : tasks)
    queue.push_back({&left, [this, &task, &left] {
                       {
                         // A helper records the task's spans where the
                         // process traces (a kernel's thread records
                         // already), and hands them over before the task
                         // counts as run: a trace written once the build
                         // is done has them.
                         TimeTraceThread traced;
                         task();
                       }
                       {
                         std::lock_guard<std::mutex> done(mutex);
                         --left;
                       }
                       // The thread that queued it may be waiting (on any
                       // thread but its own).
                       wake.notify_all();
                     }});
  wake.notify_all();
  while (left > 0) {
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
