//===- CompileSlot.h - One compile at a time, checks first ------*- C++ -*-===//
//
// Every document's worker takes the slot for each piece of compiling it
// does: a check (semantic to kernel), or one unit of background code
// generation (one kernel through the stages it still lacks). One holder
// at a time: a check already uses every core (a stage's kernels compile in
// parallel on the shared pool), and two compiles at once would add their
// products to the peak memory. When the slot frees, a waiting check of any
// document goes before any background unit, and among waiters of one kind
// the most recently active document goes first; so a check waits at most
// for the one unit in flight. Background units also wait for the user to
// pause: none starts until no edit has come and no check has ended for a
// while, so while someone types a keystroke seldom finds a unit running;
// a document whose complete result a request waits for skips the pause.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LSP_COMPILESLOT_H
#define ACCY_LSP_COMPILESLOT_H

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <list>
#include <mutex>
#include <utility>

namespace accy::lsp {

class CompileSlot {
public:
  enum class Priority { Check = 0, Background = 1 };

  /// Held while a compile runs; frees the slot when destroyed.
  class Lease {
  public:
    Lease() = default;
    Lease(Lease &&other) noexcept : slot(std::exchange(other.slot, nullptr)) {}
    Lease &operator=(Lease &&other) noexcept;
    ~Lease();
    explicit operator bool() const { return slot != nullptr; }

  private:
    friend class CompileSlot;
    explicit Lease(CompileSlot *slot) : slot(slot) {}
    CompileSlot *slot = nullptr;
  };

  using Clock = std::chrono::steady_clock;
  /// `pause`: how long background units wait after the last edit or check.
  explicit CompileSlot(std::chrono::milliseconds pause) : pause(pause) {}

  /// Waits for the slot. `recency` is read while waiting (a larger value
  /// wins among waiters of one priority). A background waiter skips the
  /// pause while `awaited` holds (a request waits for its result). An empty
  /// lease when `abandon` holds first; both are looked at whenever
  /// interrupt() is called.
  Lease acquire(Priority priority, const std::atomic<uint64_t> &recency,
                const std::function<bool()> &abandon,
                const std::function<bool()> &awaited = [] { return false; });
  /// Wakes every waiter to look at its `abandon` again.
  void interrupt();
  /// An edit came or a check ended: background units wait for the pause.
  void userActive();
  /// Whether a check is waiting: background work that can stop early
  /// (between stages) may look at this.
  bool checkWaiting() const { return checksWaiting.load() > 0; }

private:
  struct Waiter {
    Priority priority;
    const std::atomic<uint64_t> *recency;
  };
  /// Whether `me` is the waiter the slot goes to next. Holds mutex.
  bool isNext(const Waiter &me) const;
  void release();

  std::mutex mutex;
  std::condition_variable freed;
  bool held = false;
  std::list<Waiter> waiters;
  const std::chrono::milliseconds pause;
  Clock::time_point backgroundNotBefore;
  std::atomic<unsigned> checksWaiting{0};
};

} // namespace accy::lsp

#endif // ACCY_LSP_COMPILESLOT_H
