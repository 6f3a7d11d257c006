//===- CompileSlot.cpp - One compile at a time, checks first --------------===//

#include "CompileSlot.h"

using namespace accy::lsp;

CompileSlot::Lease &CompileSlot::Lease::operator=(Lease &&other) noexcept {
  if (this != &other) {
    if (slot)
      slot->release();
    slot = std::exchange(other.slot, nullptr);
  }
  return *this;
}

CompileSlot::Lease::~Lease() {
  if (slot)
    slot->release();
}

bool CompileSlot::isNext(const Waiter &me) const {
  for (const Waiter &other : waiters) {
    if (&other == &me)
      continue;
    if (other.priority != me.priority) {
      if (other.priority < me.priority)
        return false;
      continue;
    }
    // Ties (the same document's two waits cannot happen) go to the other
    // only when it is strictly more recent.
    if (other.recency->load() > me.recency->load())
      return false;
  }
  return true;
}

CompileSlot::Lease CompileSlot::acquire(Priority priority,
                                        const std::atomic<uint64_t> &recency,
                                        const std::function<bool()> &abandon,
                                        const std::function<bool()> &awaited) {
  std::unique_lock<std::mutex> lock(mutex);
  auto me = waiters.insert(waiters.end(), Waiter{priority, &recency});
  if (priority == Priority::Check)
    ++checksWaiting;
  bool abandoned = false;
  for (;;) {
    if ((abandoned = abandon()))
      break;
    bool paused = priority == Priority::Background &&
                  Clock::now() < backgroundNotBefore && !awaited();
    if (!held && !paused && isNext(*me))
      break;
    if (paused)
      freed.wait_until(lock, backgroundNotBefore);
    else
      freed.wait(lock);
  }
  waiters.erase(me);
  if (priority == Priority::Check)
    --checksWaiting;
  if (abandoned) {
    // Another waiter may be next now that this one left.
    freed.notify_all();
    return Lease();
  }
  held = true;
  return Lease(this);
}

void CompileSlot::interrupt() {
  std::lock_guard<std::mutex> lock(mutex);
  freed.notify_all();
}

void CompileSlot::userActive() {
  std::lock_guard<std::mutex> lock(mutex);
  backgroundNotBefore = Clock::now() + pause;
}

void CompileSlot::release() {
  std::lock_guard<std::mutex> lock(mutex);
  held = false;
  freed.notify_all();
}
