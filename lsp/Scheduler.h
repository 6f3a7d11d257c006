//===- Scheduler.h - One worker per document, debounced ---------*- C++ -*-===//
//
// Like clangd's TUScheduler: every open document has a worker thread that
// runs its compiles, so compiles never run on the I/O thread. Edits are
// debounced: a compile starts once no newer edit has come for the delay,
// counted from the edit (so the delay overlaps a compile still running),
// and the delay adapts to how long the document's compiles take to reach
// their diagnostics, between 50 and 500 ms. An edit that arrives while a
// compile runs sets that compile's cancellation flag, and only the newest
// version is built. The scheduler knows nothing of compiling: it runs the
// job it is given.
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
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace accy::lsp {

/// The delay between an edit and its compile: the recent time from a
/// compile's start to its diagnostics, clamped to [min, max].
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
  /// Builds one version; must return soon after `cancelled` is set. Returns
  /// how long the compile took to reach its diagnostics, which the debounce
  /// learns from, or nothing when it was cancelled first.
  using Job = std::function<std::optional<std::chrono::duration<double>>(
      const std::atomic<bool> &cancelled)>;

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
