//===- Scheduler.h - One worker per document, debounced ---------*- C++ -*-===//
//
// Like clangd's TUScheduler: every open document has a worker thread that
// runs its compiles, so compiles never run on the I/O thread. Edits are
// debounced (the delay adapts to how long the document's compiles take,
// between 50 and 500 ms); an edit that arrives while a compile runs sets
// that compile's cancellation flag, and only the newest version is built.
// The scheduler knows nothing of compiling: it runs the job it is given.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LSP_SCHEDULER_H
#define ACCY_LSP_SCHEDULER_H

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace accy::lsp {

/// The delay between an edit and its compile: the recent compile
/// time, clamped to [min, max].
class DebouncePolicy {
public:
  using Duration = std::chrono::milliseconds;
  Duration min{50}, max{500};
  Duration next() const;
  void record(std::chrono::duration<double> compileTime);

private:
  double averageMs = 0;
  bool any = false;
};

class Scheduler {
public:
  /// Builds one version; must return soon after `cancelled` is set.
  using Job = std::function<void(const std::atomic<bool> &cancelled)>;

  Scheduler();
  ~Scheduler();

  /// Schedules `job` for `key` (a document), replacing a pending one and
  /// cancelling a running one. `immediate` skips the debounce (a newly
  /// opened document).
  void schedule(const std::string &key, Job job, bool immediate);
  /// Cancels and forgets the document's work; its thread ends in the
  /// background.
  void remove(const std::string &key);
  /// The debounce the document's next edit will get.
  std::chrono::milliseconds debounceOf(const std::string &key);

private:
  class Worker;
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<Worker>> workers;
  /// Removed workers still finishing a compile.
  std::vector<std::unique_ptr<Worker>> retired;
  void reapRetired();
};

} // namespace accy::lsp

#endif // ACCY_LSP_SCHEDULER_H
