//===- DocumentWorker.h - One open document and its thread ------*- C++ -*-===//
//
// Like clangd's ASTWorker: a thread per open document that owns all of
// its state (the current version, the latest result, the frontend
// analysis, the compiler and its caches, the background code generation
// still to do, the counters) and runs its compiles. An edit is checked
// after a debounce counted from the edit; an edit that comes while a check
// runs cancels it (at the next stage boundary). After a check the worker
// generates code in units of one kernel for one target, each under the
// compile slot at background priority, and gives the slot back between
// units, so another document's check, or this document's next one, waits
// for one unit at most. Units whose kernel an edit changed are dropped; the others are
// kept. Diagnostics are published with no lock held.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LSP_DOCUMENTWORKER_H
#define ACCY_LSP_DOCUMENTWORKER_H

#include "Analysis.h"
#include "CompileSlot.h"
#include "Debounce.h"
#include "DocumentCompiler.h"
#include "ServerCallbacks.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace accy::lsp {

/// What a worker asks of the scheduler that owns it.
class WorkerHost {
public:
  virtual ~WorkerHost();
  /// After a check, holding the slot: the document is now the most
  /// recently compiled; documents beyond the retention bound release their
  /// products.
  virtual void checked(const std::string &uri) = 0;
  /// Whether the document is among those that keep their products.
  virtual bool retains(const std::string &uri) = 0;
  virtual PositionEncoding encoding() = 0;
  /// A number for a new compile, unique in the server.
  virtual uint64_t nextCompileId() = 0;
  virtual ServerCallbacks &callbacks() = 0;
};

class DocumentWorker {
public:
  using CancelFlag = std::shared_ptr<const std::atomic<bool>>;

  DocumentWorker(std::shared_ptr<const DocumentSnapshot> snapshot,
                 const CompileOptions &options,
                 llvm::ThreadPoolInterface *pool, CompileSlot &slot,
                 WorkerHost &host);
  /// Stops and waits for the thread.
  ~DocumentWorker();

  /// A new version: checked after the debounce (`immediate`: at once).
  void update(std::shared_ptr<const DocumentSnapshot> snapshot, bool immediate);
  /// The same version compiles anew (an imported file changed, or the
  /// products were released and a request needs them).
  void recompile(bool immediate);
  /// Cancels everything; waiting requests give up. Does not wait.
  void stop();
  bool finished() const { return done.load(); }
  /// Marks the document active at `tick` (an edit, a request): its
  /// background units go before those of documents less recently active.
  void touch(uint64_t tick);

  /// The result of the current version once checked (`complete`: once its
  /// code is generated too; `products`: holding its products, compiling
  /// the document again first if they were released). Null when the
  /// document closed or `cancelled` was set.
  std::shared_ptr<const CompileResult>
  waitForResult(bool complete, bool products, const CancelFlag &cancelled);
  /// The frontend analysis of the current version, built if needed.
  std::shared_ptr<const Analysis> analysis(PositionEncoding encoding);
  /// The latest result (perhaps of an older version), or null.
  std::shared_ptr<const CompileResult> latestResult();
  std::shared_ptr<const Analysis> cachedAnalysis();
  CompileCounters counters();
  std::chrono::milliseconds debounce();

  /// Called by whoever holds the slot: forgets the products (the next
  /// compile builds every kernel in a fresh context) and the background
  /// units, which need them.
  void releaseProducts();

private:
  /// Code generation still to do for one result.
  struct Plan {
    /// The result the units start from: a check's, or the frontend's
    /// alone when the products had been released.
    std::shared_ptr<const CompileResult> base;
    /// Units still to run: one kernel (its index in `base` and the key of
    /// its product there) for one target.
    struct Unit {
      size_t index;
      std::string key;
      std::string target;
    };
    std::deque<Unit> pending;
    std::vector<KernelUnit> runs;
    uint64_t compile = 0;
    bool reportedStart = false;
  };

  void loop();
  /// Runs one check; the time to its diagnostics, or nothing if cancelled.
  std::optional<std::chrono::duration<double>>
  runCheck(std::shared_ptr<const DocumentSnapshot> snapshot,
           uint64_t generation, const std::atomic<bool> &cancelled);
  /// Takes the slot at background priority and runs units until one
  /// compiles something, then the assembly once none is left.
  void runBackground();
  /// Plans code generation of `base` (its kernels not generated yet),
  /// keeping the units of the plan it replaces whose key is unchanged.
  /// Returns the replaced plan's compile if it ends unfinished. Holds mutex.
  std::optional<uint64_t> replan(std::shared_ptr<const CompileResult> base,
                                 uint64_t compile);
  /// Whether the current version's result still lacks code generation that
  /// no plan will do: its products were released. Holds mutex.
  bool needsCompletion() const;
  bool isCurrent(const CompileResult &result) const;
  void publish(const CompileResult &result);
  /// Lets requests see the latest result, once its diagnostics are out: a
  /// request answered after a compile finds them published.
  void announce();

  const std::string uri;
  const std::vector<std::string> includeDirs;
  CompileSlot &slot;
  WorkerHost &host;
  /// Used only while holding the slot.
  DocumentCompiler compiler;

  std::mutex mutex;
  std::condition_variable wake;
  std::condition_variable compiled;
  std::shared_ptr<const DocumentSnapshot> current;
  /// Bumped by recompile(): the same version compiles anew.
  uint64_t generation = 0;
  bool checkWanted = false;
  bool checkImmediate = false;
  std::chrono::steady_clock::time_point wantedSince;
  uint64_t edits = 0;
  std::shared_ptr<std::atomic<bool>> runningCheck;
  std::shared_ptr<const CompileResult> latest;
  bool announced = true;
  std::shared_ptr<const Analysis> analysisCache;
  std::optional<Plan> plan;
  CompileCounters counts;
  DebouncePolicy policy;
  bool stopped = false;

  /// Read by the slot while this worker waits for it.
  std::atomic<bool> checkPending{false};
  std::atomic<bool> stopping{false};
  /// Requests waiting for the complete result.
  std::atomic<unsigned> completeWaiters{0};
  std::atomic<uint64_t> recency{0};
  std::atomic<bool> done{false};
  std::thread thread; // Last: starts after every member above exists.
};

} // namespace accy::lsp

#endif // ACCY_LSP_DOCUMENTWORKER_H
