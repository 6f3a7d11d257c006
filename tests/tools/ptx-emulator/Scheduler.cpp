//===- Scheduler.cpp - Runs a grid of PTX threads -------------------------===//
//
// Per block: every thread runs until it stops; warp by warp, a shuffle
// whose participants have all arrived is completed at once and its lanes
// run on; when every live thread of the block waits at the barrier, all of
// them are released. Blocks are independent (no inter-block
// synchronisation exists in what Accy emits), so workers take block
// indices from a shared counter.
//
//===----------------------------------------------------------------------===//
#include "Scheduler.h"
#include "Interpreter.h"
#include "Profile.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

using namespace ptxemu;

namespace {

constexpr uint32_t kWarpSize = 32;

class BlockRunner {
public:
  BlockRunner(const Entry &entry, const LaunchConfig &config,
              const uint8_t *params, LaunchProfile *profile)
      : entry(entry), config(config), profile(profile) {
    numThreads = config.block[0] * config.block[1] * config.block[2];
    regs.resize(size_t(numThreads) * entry.numSlots);
    threads.resize(numThreads);
    sharedBytes = uint64_t(entry.staticShared) + config.dynamicShared;
    shared.resize(sharedBytes + 16);
    env.entry = &entry;
    env.params = params;
    env.shared = shared.data();
    env.sharedBytes = sharedBytes;
    env.error = &error;
    if (profile)
      traces.resize(numThreads);
  }

  bool run(uint64_t blockIndex, uint32_t bx, uint32_t by, uint32_t bz) {
    std::fill(shared.begin(), shared.end(), 0);
    const uint32_t *b = config.block;
    uint32_t numWarps = (numThreads + kWarpSize - 1) / kWarpSize;
    for (uint32_t t = 0; t < numThreads; ++t) {
      uint64_t *r = &regs[size_t(t) * entry.numSlots];
      std::memset(r, 0, sizeof(uint64_t) * entry.constBase);
      std::copy(entry.constants.begin(), entry.constants.end(),
                r + entry.constBase);
      r[kTidX] = t % b[0];
      r[kTidY] = t / b[0] % b[1];
      r[kTidZ] = t / (b[0] * b[1]);
      r[kNtidX] = b[0];
      r[kNtidY] = b[1];
      r[kNtidZ] = b[2];
      r[kCtaidX] = bx;
      r[kCtaidY] = by;
      r[kCtaidZ] = bz;
      r[kNctaidX] = config.grid[0];
      r[kNctaidY] = config.grid[1];
      r[kNctaidZ] = config.grid[2];
      r[kLaneId] = t % kWarpSize;
      r[kWarpId] = t / kWarpSize;
      r[kNwarpId] = numWarps;
      r[kSharedWindow] = reinterpret_cast<uint64_t>(shared.data());
      threads[t] = ThreadState{r, 0, ThreadState::Runnable};
      if (profile) {
        traces[t].reset(entry.code.size());
        threads[t].trace = &traces[t];
      }
    }
    uint32_t live = numThreads, atBarrier = 0;
    while (live > 0) {
      bool progress = false;
      for (uint32_t w = 0; w < numWarps; ++w) {
        uint32_t first = w * kWarpSize;
        uint32_t last = std::min(first + kWarpSize, numThreads);
        for (bool again = true; again;) {
          for (uint32_t t = first; t < last; ++t) {
            if (threads[t].status != ThreadState::Runnable)
              continue;
            progress = true;
            switch (runThread(env, threads[t])) {
            case Stop::Fault:
              return false;
            case Stop::Exit:
              --live;
              break;
            case Stop::Barrier:
              ++atBarrier;
              break;
            case Stop::Shuffle:
              break;
            }
          }
          again = completeShuffle(first, last);
          progress |= again;
        }
      }
      if (atBarrier > 0 && atBarrier == live) {
        for (ThreadState &t : threads)
          if (t.status == ThreadState::AtBarrier)
            t.status = ThreadState::Runnable;
        atBarrier = 0;
        progress = true;
      }
      if (!progress && live > 0) {
        error = deadlockMessage(bx, by, bz);
        return false;
      }
    }
    if (profile)
      profile->addBlock(blockIndex, traces, entry);
    return true;
  }

  std::string error;

private:
  const Entry &entry;
  const LaunchConfig &config;
  LaunchProfile *profile;
  std::vector<ThreadTrace> traces; // when profiled
  uint32_t numThreads = 0;
  uint64_t sharedBytes = 0;
  std::vector<uint64_t> regs;
  std::vector<ThreadState> threads;
  std::vector<uint8_t> shared;
  BlockEnv env;

  /// Completes the shuffle of the warp [first, last) when every lane its
  /// member masks name has arrived (lanes that exited or do not exist are
  /// not waited for).
  bool completeShuffle(uint32_t first, uint32_t last) {
    for (uint32_t t = first; t < last; ++t)
      if (threads[t].status == ThreadState::AtShuffle &&
          isWholeWarp(entry.code[threads[t].pc].op))
        return completeWholeWarp(first, last);
    uint32_t waiting = 0, members = 0;
    for (uint32_t t = first; t < last; ++t) {
      const ThreadState &th = threads[t];
      if (th.status != ThreadState::AtShuffle)
        continue;
      waiting |= 1u << (t - first);
      members |= static_cast<uint32_t>(th.regs[entry.code[th.pc].src[3]]);
    }
    if (!waiting)
      return false;
    for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
      if (!(members >> lane & 1) || (waiting >> lane & 1))
        continue;
      uint32_t t = first + lane;
      if (t < last && threads[t].status != ThreadState::Exited)
        return false; // a member has not arrived yet
    }
    uint32_t values[kWarpSize] = {};
    for (uint32_t lane = 0; lane < kWarpSize; ++lane)
      if (waiting >> lane & 1) {
        const ThreadState &th = threads[first + lane];
        values[lane] =
            static_cast<uint32_t>(th.regs[entry.code[th.pc].src[0]]);
      }
    for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
      if (!(waiting >> lane & 1))
        continue;
      ThreadState &th = threads[first + lane];
      const Inst &I = entry.code[th.pc];
      bool inRange = false;
      uint32_t v = shuffleResult(I.shfl, lane,
                                 static_cast<uint32_t>(th.regs[I.src[1]]),
                                 static_cast<uint32_t>(th.regs[I.src[2]]),
                                 values, waiting, inRange);
      th.regs[I.dst[0]] = v;
      if (I.numDst == 2)
        th.regs[I.dst[1]] = inRange;
      ++th.pc;
      th.status = ThreadState::Runnable;
    }
    return true;
  }

  static bool isWholeWarp(Op op) { return op == Op::Mma || op == Op::Ldmatrix; }

  /// Completes the mma.sync or ldmatrix of the warp [first, last) when all
  /// 32 lanes have arrived at it (`.aligned` instructions: a warp with
  /// fewer, or with lanes that exited, never completes them).
  bool completeWholeWarp(uint32_t first, uint32_t last) {
    if (last - first != kWarpSize)
      return false;
    const Inst &I = entry.code[threads[first].pc];
    uint64_t *regs[kWarpSize];
    const uint8_t *rows[kWarpSize];
    for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
      ThreadState &th = threads[first + lane];
      if (th.status != ThreadState::AtShuffle || th.pc != threads[first].pc)
        return false;
      regs[lane] = th.regs;
      rows[lane] = th.matrixRow;
    }
    if (I.op == Op::Mma)
      mmaSync(I, regs);
    else
      loadMatrices(I, rows, regs);
    for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
      ThreadState &th = threads[first + lane];
      ++th.pc;
      th.status = ThreadState::Runnable;
    }
    return true;
  }

  std::string deadlockMessage(uint32_t bx, uint32_t by, uint32_t bz) {
    std::map<std::string, uint32_t> where;
    for (const ThreadState &t : threads) {
      if (t.status == ThreadState::Exited)
        continue;
      const Inst &I = entry.code[t.status == ThreadState::AtBarrier
                                     ? t.pc - 1
                                     : t.pc];
      std::string what = t.status == ThreadState::AtBarrier ? "bar.sync"
                         : I.op == Op::Mma                  ? "mma.sync"
                         : I.op == Op::Ldmatrix             ? "ldmatrix"
                                                            : "shfl.sync";
      ++where[what + " at line " + std::to_string(I.line)];
    }
    std::string message = "deadlock in block " + std::to_string(bx) + "," +
                          std::to_string(by) + "," + std::to_string(bz) +
                          " of " + entry.name + ":";
    for (const auto &[what, count] : where)
      message += " " + std::to_string(count) + " thread(s) wait at " + what + ";";
    return message + " the others exited";
  }
};

unsigned workerCount(uint64_t blocks) {
  unsigned n = std::max(1u, std::thread::hardware_concurrency());
  if (const char *env = std::getenv("ACCY_PTX_EMULATOR_THREADS"))
    n = std::max(1, std::atoi(env));
  return static_cast<unsigned>(std::min<uint64_t>(n, blocks));
}

} // namespace

bool ptxemu::runGrid(const Entry &entry, const LaunchConfig &config,
                     const uint8_t *params, std::string &error,
                     LaunchProfile *profile) {
  uint64_t threadsPerBlock =
      uint64_t(config.block[0]) * config.block[1] * config.block[2];
  uint64_t blocks = uint64_t(config.grid[0]) * config.grid[1] * config.grid[2];
  if (threadsPerBlock == 0 || threadsPerBlock > 1024 || blocks == 0) {
    error = "invalid launch configuration of " + entry.name + " (block of " +
            std::to_string(threadsPerBlock) + " threads, " +
            std::to_string(blocks) + " blocks)";
    return false;
  }
  if (entry.maxThreads[0]) {
    uint64_t limit = uint64_t(entry.maxThreads[0]) *
                     std::max(1u, entry.maxThreads[1]) *
                     std::max(1u, entry.maxThreads[2]);
    if (threadsPerBlock > limit) {
      error = "a block of " + std::to_string(threadsPerBlock) +
              " threads exceeds the .maxntid of " + entry.name + " (" +
              std::to_string(limit) + ")";
      return false;
    }
  }
  std::atomic<uint64_t> nextBlock{0};
  std::atomic<bool> failed{false};
  std::mutex errorMutex;
  auto work = [&] {
    BlockRunner runner(entry, config, params, profile);
    while (!failed) {
      uint64_t b = nextBlock++;
      if (b >= blocks)
        return;
      uint32_t bx = static_cast<uint32_t>(b % config.grid[0]);
      uint32_t by = static_cast<uint32_t>(b / config.grid[0] % config.grid[1]);
      uint32_t bz = static_cast<uint32_t>(b / (uint64_t(config.grid[0]) *
                                               config.grid[1]));
      if (!runner.run(b, bx, by, bz)) {
        std::lock_guard<std::mutex> lock(errorMutex);
        if (!failed.exchange(true))
          error = runner.error;
        return;
      }
    }
  };
  unsigned workers = workerCount(blocks);
  if (workers <= 1) {
    work();
  } else {
    std::vector<std::thread> pool;
    for (unsigned i = 0; i < workers; ++i)
      pool.emplace_back(work);
    for (std::thread &t : pool)
      t.join();
  }
  return !failed;
}
