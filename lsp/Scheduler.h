//===- Scheduler.h - The open documents' workers ----------------*- C++ -*-===//
//
// Like clangd's TUScheduler: owns one DocumentWorker per open document
// (which holds that document's state and runs its compiles on its own
// thread), the compile slot they share (checks of any document before any
// background code generation), and the retention of products: only the
// documents checked most recently keep theirs, like clangd's retained ASTs.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LSP_SCHEDULER_H
#define ACCY_LSP_SCHEDULER_H

#include "CompileSlot.h"
#include "DocumentWorker.h"

#include "llvm/Support/ThreadPool.h"

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace accy::lsp {

class Scheduler : public WorkerHost {
public:
  /// `retainedDocuments`: how many documents keep their products (at
  /// least one). Kernels of one stage compile in parallel on `pool`, which
  /// must outlive every result. `encoding` is asked when diagnostics are
  /// made.
  Scheduler(CompileOptions options, unsigned retainedDocuments,
            llvm::ThreadPoolInterface &pool, ServerCallbacks &callbacks,
            std::function<PositionEncoding()> encoding);
  /// Stops every worker and waits for them.
  ~Scheduler();

  /// A document opened (checked at once) or changed (after the debounce).
  void update(std::shared_ptr<const DocumentSnapshot> snapshot,
              bool immediate);
  /// Cancels and forgets the document's work; its thread ends in the
  /// background.
  void remove(const std::string &uri);
  /// The document's worker, marked as just used (its background work goes
  /// first); null when it is not open.
  std::shared_ptr<DocumentWorker> worker(const std::string &uri);
  /// Every open document's worker.
  std::vector<std::shared_ptr<DocumentWorker>> workers();
  /// The compile slot at background priority, behind every check but
  /// before any document's code generation, for short work that is no
  /// document's (indexing the workspace); empty when `abandon` holds first.
  CompileSlot::Lease acquireIdle(const std::function<bool()> &abandon);
  /// Wakes waiters of acquireIdle to look at their `abandon` again.
  void interruptIdle() { slot.interrupt(); }

  // WorkerHost, for the workers.
  void checked(const std::string &uri) override;
  bool retains(const std::string &uri) override;
  PositionEncoding encoding() override { return encodingOf(); }
  uint64_t nextCompileId() override { return nextCompile++; }
  ServerCallbacks &callbacks() override { return serverCallbacks; }

private:
  void reapRetired();

  CompileOptions options;
  unsigned retainedDocuments;
  ServerCallbacks &serverCallbacks;
  std::function<PositionEncoding()> encodingOf;
  llvm::ThreadPoolInterface &compilePool;
  /// Background code generation waits this long after the last edit or
  /// check: a typist's keystrokes come every 300 ms or so.
  CompileSlot slot{std::chrono::milliseconds(500)};
  std::atomic<uint64_t> nextCompile{0};
  std::atomic<uint64_t> activity{0};

  std::mutex mutex;
  std::map<std::string, std::shared_ptr<DocumentWorker>> open;
  /// Removed workers still finishing a compile.
  std::vector<std::shared_ptr<DocumentWorker>> retired;
  /// Documents holding products, most recently checked first.
  std::vector<std::string> retainedOrder;
};

} // namespace accy::lsp

#endif // ACCY_LSP_SCHEDULER_H
