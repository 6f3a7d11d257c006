//===- Scheduler.cpp - The open documents' workers ------------------------===//

#include "Scheduler.h"

#include <algorithm>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

using namespace accy;
using namespace accy::lsp;

Scheduler::Scheduler(CompileOptions options, unsigned retainedDocuments,
                     llvm::ThreadPoolInterface &pool,
                     ServerCallbacks &callbacks,
                     std::function<PositionEncoding()> encoding)
    : options(std::move(options)),
      retainedDocuments(std::max(1u, retainedDocuments)),
      serverCallbacks(callbacks), encodingOf(std::move(encoding)),
      compilePool(pool) {}

Scheduler::~Scheduler() {
  std::vector<std::shared_ptr<DocumentWorker>> all;
  {
    std::lock_guard<std::mutex> lock(mutex);
    for (auto &entry : open)
      all.push_back(std::move(entry.second));
    open.clear();
    all.insert(all.end(), retired.begin(), retired.end());
    retired.clear();
  }
  for (const auto &worker : all)
    worker->stop();
  all.clear(); // joins each worker
}

void Scheduler::update(std::shared_ptr<const DocumentSnapshot> snapshot,
                       bool immediate) {
  std::shared_ptr<DocumentWorker> worker;
  {
    std::lock_guard<std::mutex> lock(mutex);
    reapRetired();
    std::shared_ptr<DocumentWorker> &slotOf = open[snapshot->uri];
    if (!slotOf)
      slotOf = std::make_shared<DocumentWorker>(snapshot, options, &compilePool,
                                                slot, *this);
    worker = slotOf;
  }
  worker->touch(++activity);
  if (!immediate)
    slot.userActive();
  worker->update(std::move(snapshot), immediate);
}

void Scheduler::remove(const std::string &uri) {
  std::shared_ptr<DocumentWorker> worker;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = open.find(uri);
    if (it == open.end())
      return;
    worker = std::move(it->second);
    open.erase(it);
    retainedOrder.erase(
        std::remove(retainedOrder.begin(), retainedOrder.end(), uri),
        retainedOrder.end());
    retired.push_back(worker);
    reapRetired();
  }
  worker->stop();
}

std::shared_ptr<DocumentWorker> Scheduler::worker(const std::string &uri) {
  std::shared_ptr<DocumentWorker> worker;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = open.find(uri);
    if (it == open.end())
      return nullptr;
    worker = it->second;
  }
  // A request on a document: the editor shows it.
  worker->touch(++activity);
  return worker;
}

std::vector<std::shared_ptr<DocumentWorker>> Scheduler::workers() {
  std::lock_guard<std::mutex> lock(mutex);
  std::vector<std::shared_ptr<DocumentWorker>> all;
  for (const auto &entry : open)
    all.push_back(entry.second);
  return all;
}

CompileSlot::Lease
Scheduler::acquireIdle(const std::function<bool()> &abandon) {
  // This work comes in batches of a few milliseconds, so unlike a unit of
  // code generation (which may take seconds) it need not wait for the user
  // to pause, and it goes before those units: a check waits at most for
  // one batch, and code generation is delayed by a fraction of a second.
  static const std::atomic<uint64_t> first{UINT64_MAX};
  return slot.acquire(CompileSlot::Priority::Background, first, abandon,
                      [] { return true; });
}

void Scheduler::checked(const std::string &uri) {
  // Its diagnostics are about to show: the next keystroke may come soon.
  slot.userActive();
  std::vector<std::shared_ptr<DocumentWorker>> released;
  {
    std::lock_guard<std::mutex> lock(mutex);
    retainedOrder.erase(
        std::remove(retainedOrder.begin(), retainedOrder.end(), uri),
        retainedOrder.end());
    retainedOrder.insert(retainedOrder.begin(), uri);
    while (retainedOrder.size() > retainedDocuments) {
      auto it = open.find(retainedOrder.back());
      if (it != open.end())
        released.push_back(it->second);
      retainedOrder.pop_back();
    }
  }
  // The caller holds the slot, so no compile of theirs runs.
  for (const std::shared_ptr<DocumentWorker> &worker : released)
    worker->releaseProducts();
#if defined(__GLIBC__)
  // Hand the released products' pages back, so the next compile does not
  // grow the process from a higher base.
  if (!released.empty())
    malloc_trim(0);
#endif
}

bool Scheduler::retains(const std::string &uri) {
  std::lock_guard<std::mutex> lock(mutex);
  return std::find(retainedOrder.begin(), retainedOrder.end(), uri) !=
         retainedOrder.end();
}

void Scheduler::reapRetired() {
  // Dropping a finished worker joins a thread that has ended: the I/O
  // thread does not block.
  retired.erase(std::remove_if(retired.begin(), retired.end(),
                               [](const std::shared_ptr<DocumentWorker> &w) {
                                 return w->finished();
                               }),
                retired.end());
}
