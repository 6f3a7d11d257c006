//===- Scheduler.h - Runs a grid of PTX threads ---------------------------===//
//
// A launch is grid x block threads. Each block's threads are interpreter
// contexts scheduled cooperatively on one OS thread: a thread runs until
// it reaches bar.sync (then waits for every thread of its block that has
// not exited), shfl.sync (then waits for every lane of its warp named by
// the member masks, and all of them get their results together) or exits.
// A state where no thread can run and no barrier or shuffle can complete
// is a deadlock and fails the launch instead of hanging. Blocks are spread
// over a few OS threads (ACCY_PTX_EMULATOR_THREADS, default: the cores).
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_PTX_EMULATOR_SCHEDULER_H
#define ACCY_PTX_EMULATOR_SCHEDULER_H

#include "Program.h"

#include <string>

namespace ptxemu {

struct LaunchConfig {
  uint32_t grid[3] = {1, 1, 1};
  uint32_t block[3] = {1, 1, 1};
  uint32_t dynamicShared = 0;
};

class LaunchProfile;

/// Runs `entry` with the packed parameter buffer `params`; false with
/// `error` set when a thread faulted or the block deadlocked. With a
/// `profile`, every block's warps are counted into it (Profile.h).
bool runGrid(const Entry &entry, const LaunchConfig &config,
             const uint8_t *params, std::string &error,
             LaunchProfile *profile = nullptr);

} // namespace ptxemu

#endif
