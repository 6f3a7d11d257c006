//===- Scheduler.cpp - One worker per document, debounced -----------------===//

#include "Scheduler.h"

#include <algorithm>
#include <optional>

using namespace accy::lsp;

DebouncePolicy::Duration DebouncePolicy::next() const {
  if (!any)
    return min;
  auto wanted = Duration(static_cast<int64_t>(averageMs));
  return std::clamp(wanted, min, max);
}

void DebouncePolicy::record(std::chrono::duration<double> compileTime) {
  double ms = compileTime.count() * 1e3;
  // An exponential average: recent compiles matter most.
  averageMs = any ? 0.7 * averageMs + 0.3 * ms : ms;
  any = true;
}

class Scheduler::Worker {
public:
  Worker() : thread([this] { loop(); }) {}
  ~Worker() {
    stop();
    thread.join();
  }

  void schedule(Job job, bool immediate) {
    std::lock_guard<std::mutex> lock(mutex);
    pending = std::move(job);
    pendingImmediate = immediate;
    pendingSince = std::chrono::steady_clock::now();
    ++generation;
    if (running)
      running->store(true);
    wake.notify_all();
  }

  void stop() {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
    pending.reset();
    if (running)
      running->store(true);
    wake.notify_all();
  }

  bool finished() const { return done.load(); }

  std::chrono::milliseconds debounce() {
    std::lock_guard<std::mutex> lock(mutex);
    return policy.next();
  }

private:
  void loop() {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      wake.wait(lock, [&] { return stopping || pending; });
      if (stopping)
        break;
      // Debounce: wait until no newer edit has come for the whole delay,
      // counted from the newest edit, as clangd's deadline is.
      while (!pendingImmediate && !stopping) {
        auto before = generation;
        bool changed =
            wake.wait_until(lock, pendingSince + policy.next(), [&] {
              return stopping || generation != before;
            });
        if (!changed)
          break;
      }
      if (stopping)
        break;
      Job job = std::move(*pending);
      bool immediate = pendingImmediate;
      pending.reset();
      auto flag = std::make_shared<std::atomic<bool>>(false);
      running = flag;
      lock.unlock();
      std::optional<std::chrono::duration<double>> took = job(*flag);
      lock.lock();
      running.reset();
      // Only edits teach the debounce: the first compile of a document
      // builds every kernel, which no later edit does.
      if (took && !immediate)
        policy.record(*took);
    }
    done = true;
  }

  std::mutex mutex;
  std::condition_variable wake;
  std::optional<Job> pending;
  bool pendingImmediate = false;
  std::chrono::steady_clock::time_point pendingSince;
  uint64_t generation = 0;
  bool stopping = false;
  std::shared_ptr<std::atomic<bool>> running;
  DebouncePolicy policy;
  std::atomic<bool> done{false};
  std::thread thread; // Last: starts after every member above exists.

  friend class Scheduler;
};

Scheduler::Scheduler() = default;

Scheduler::~Scheduler() {
  std::lock_guard<std::mutex> lock(mutex);
  for (auto &entry : workers)
    entry.second->stop();
  workers.clear();
  retired.clear();
}

void Scheduler::schedule(const std::string &key, Job job, bool immediate) {
  std::lock_guard<std::mutex> lock(mutex);
  reapRetired();
  std::unique_ptr<Worker> &worker = workers[key];
  if (!worker)
    worker = std::make_unique<Worker>();
  worker->schedule(std::move(job), immediate);
}

void Scheduler::remove(const std::string &key) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = workers.find(key);
  if (it == workers.end())
    return;
  it->second->stop();
  retired.push_back(std::move(it->second));
  workers.erase(it);
  reapRetired();
}

std::chrono::milliseconds Scheduler::debounceOf(const std::string &key) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = workers.find(key);
  return it == workers.end() ? DebouncePolicy().next() : it->second->debounce();
}

void Scheduler::reapRetired() {
  // Joining a finished worker does not block the I/O thread.
  retired.erase(std::remove_if(retired.begin(), retired.end(),
                               [](const std::unique_ptr<Worker> &w) {
                                 return w->finished();
                               }),
                retired.end());
}
