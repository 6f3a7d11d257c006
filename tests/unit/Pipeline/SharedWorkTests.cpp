//===- SharedWorkTests.cpp - Tasks the compiling threads share ------------===//
//
// The target stage's pieces of code generation run through SharedWork: every
// task runs once, the thread that queued them returns only when they have all
// run, threads that queue at once never wait on each other for good nor run
// each other's tasks, the helpers take a core only while one is idle, and
// work first on a thread (another kernel's stage) is offered before each of
// the thread's own tasks, which run the largest first.
//
//===----------------------------------------------------------------------===//

#include <catch2/catch.hpp>

#include "accy/Support/SharedWork.h"

#include "llvm/Support/Threading.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

using namespace accy;

namespace {
/// Tasks that record how often each ran and on which threads.
struct RecordingTasks {
  explicit RecordingTasks(size_t count, std::chrono::milliseconds each = {})
      : runs(count) {
    for (size_t i = 0; i < count; ++i)
      tasks.push_back([this, i, each] {
        std::this_thread::sleep_for(each);
        ++runs[i];
        std::lock_guard<std::mutex> lock(mutex);
        threads.insert(std::this_thread::get_id());
      });
  }
  bool eachRanOnce() const {
    for (const std::atomic<int> &count : runs)
      if (count != 1)
        return false;
    return true;
  }

  std::vector<std::function<void()>> tasks;
  std::vector<std::atomic<int>> runs;
  std::mutex mutex;
  std::set<std::thread::id> threads;
};

/// While it lives, every core but the caller's compiles (Busy): no helper
/// takes a task, and the caller runs them all.
class OtherCoresBusy {
public:
  OtherCoresBusy() {
    unsigned cores = llvm::hardware_concurrency().compute_thread_count();
    for (unsigned i = 1; i < cores; ++i)
      compiling.emplace_back([this] {
        SharedWork::Busy busy;
        std::unique_lock<std::mutex> lock(mutex);
        ++started;
        changed.notify_all();
        changed.wait(lock, [&] { return release; });
      });
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return started == compiling.size(); });
  }
  ~OtherCoresBusy() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      release = true;
    }
    changed.notify_all();
    for (std::thread &thread : compiling)
      thread.join();
  }

private:
  std::mutex mutex;
  std::condition_variable changed;
  size_t started = 0;
  bool release = false;
  std::vector<std::thread> compiling;
};
} // namespace

TEST_CASE("every task runs once before runAll returns", "[shared-work]") {
  RecordingTasks work(100);
  SharedWork::get().runAll(work.tasks);
  CHECK(work.eachRanOnce());
}

TEST_CASE("threads queueing at once all finish", "[shared-work]") {
  // Each thread's tasks may run on it or on a helper: none may wait for
  // good for tasks a helper took.
  std::vector<std::unique_ptr<RecordingTasks>> works;
  for (int t = 0; t < 6; ++t)
    works.push_back(
        std::make_unique<RecordingTasks>(20, std::chrono::milliseconds(t % 2)));
  std::vector<std::thread> threads;
  for (auto &work : works)
    threads.emplace_back([&work] {
      SharedWork::Busy busy;
      SharedWork::get().runAll(work->tasks);
    });
  for (std::thread &thread : threads)
    thread.join();
  for (auto &work : works)
    CHECK(work->eachRanOnce());
}

TEST_CASE("a thread runs no other thread's tasks", "[shared-work]") {
  // Another kernel's piece would hold the thread's own kernel back once its
  // own pieces are done: those are left to their thread and the helpers.
  std::vector<std::unique_ptr<RecordingTasks>> works;
  for (int t = 0; t < 2; ++t)
    works.push_back(
        std::make_unique<RecordingTasks>(20, std::chrono::milliseconds(1)));
  std::vector<std::thread::id> queuers(works.size());
  std::vector<std::thread> threads;
  for (size_t t = 0; t < works.size(); ++t)
    threads.emplace_back([&, t] {
      queuers[t] = std::this_thread::get_id();
      SharedWork::Busy busy;
      SharedWork::get().runAll(works[t]->tasks);
    });
  for (std::thread &thread : threads)
    thread.join();
  for (size_t t = 0; t < works.size(); ++t) {
    CHECK(works[t]->eachRanOnce());
    CHECK_FALSE(works[t]->threads.count(queuers[1 - t]));
  }
}

TEST_CASE("helpers take idle cores only", "[shared-work]") {
  unsigned cores = llvm::hardware_concurrency().compute_thread_count();
  if (cores < 2) {
    WARN("one core: no helper runs, nothing to check");
    return;
  }

  SECTION("an idle core runs some of the tasks") {
    RecordingTasks work(8, std::chrono::milliseconds(20));
    SharedWork::get().runAll(work.tasks);
    CHECK(work.eachRanOnce());
    CHECK(work.threads.size() > 1);
  }

  SECTION("with every other core busy, the caller runs them all") {
    RecordingTasks work(8, std::chrono::milliseconds(5));
    {
      OtherCoresBusy others;
      SharedWork::get().runAll(work.tasks);
    }
    CHECK(work.eachRanOnce());
    CHECK(work.threads ==
          std::set<std::thread::id>{std::this_thread::get_id()});
  }
}

TEST_CASE("work first on the thread is offered the tasks left, and tasks "
          "run largest first",
          "[shared-work]") {
  // The caller is the only thread free to run the tasks: every other core
  // compiles (Busy), so no helper takes one and the order is the caller's.
  OtherCoresBusy others;
  RecordingTasks work(3);
  std::vector<size_t> offered;
  size_t ownRunsBeforeFirstWork = 0;
  bool ranFirstWork = false;
  {
    // Takes the first offer (another kernel's stage), declines the rest.
    auto next = [&](size_t queued) {
      offered.push_back(queued);
      if (ranFirstWork)
        return false;
      ranFirstWork = true;
      for (const std::atomic<int> &runs : work.runs)
        ownRunsBeforeFirstWork += runs;
      return true;
    };
    SharedWork::FirstOnThisThread first(next);
    SharedWork::get().runAll(work.tasks, {5, 9, 7});
  }

  CHECK(work.eachRanOnce());
  CHECK(ownRunsBeforeFirstWork == 0);
  // Before each of its own tasks, which run the largest first: the first
  // work took the first offer, then 9, 7 and 5 were left, and 7 and 5,
  // and 5.
  CHECK(offered == std::vector<size_t>{21, 21, 12, 5});
}

TEST_CASE("tasks that end while work first on the thread runs are not waited "
          "for",
          "[shared-work]") {
  unsigned cores = llvm::hardware_concurrency().compute_thread_count();
  if (cores < 2) {
    WARN("one core: no helper runs the tasks, nothing to check");
    return;
  }
  // The offer takes long and declines; meanwhile a helper runs both tasks
  // and their notice goes out while the caller is in the offer. The caller
  // must see they are done, not wait for another notice.
  auto done = std::make_shared<std::promise<void>>();
  std::future<void> finished = done->get_future();
  std::thread([done] {
    RecordingTasks work(2, std::chrono::milliseconds(1));
    auto next = [](size_t) {
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      return false;
    };
    SharedWork::FirstOnThisThread first(next);
    SharedWork::get().runAll(work.tasks, {1, 1});
    done->set_value();
  }).detach(); // left behind, blocked, if the check below fails
  CHECK(finished.wait_for(std::chrono::seconds(20)) ==
        std::future_status::ready);
}
