//===- SharedWork.cpp - Code generation shared by the compiling threads ---===//

#include "accy/Support/SharedWork.h"
#include "accy/Support/TimeTrace.h"

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

void SharedWork::runNext(std::unique_lock<std::mutex> &lock) {
  std::function<void()> task = std::move(queue.front());
  queue.pop_front();
  lock.unlock();
  {
    // A helper records the task's spans where the process traces; the
    // thread of a kernel records already.
    TimeTraceThread traced;
    task();
  }
  lock.lock();
}

void SharedWork::help() {
  std::unique_lock<std::mutex> lock(mutex);
  for (;;) {
    wake.wait(lock, [&] { return !queue.empty() && busy < cores; });
    ++busy;
    runNext(lock);
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
    queue.push_back([this, &task, &left] {
      task();
      {
        std::lock_guard<std::mutex> done(mutex);
        --left;
      }
      // The thread that queued it may be waiting (on any thread but its own).
      wake.notify_all();
    });
  wake.notify_all();
  while (left > 0) {
    if (queue.empty()) {
      // Waiting is not busy: a helper may take this core meanwhile.
      --busy;
      wake.notify_all();
      wake.wait(lock);
      ++busy;
      continue;
    }
    runNext(lock);
  }
}
