//===- Timing.h - Device time of repeated launches ------------------------===//
//
// Warm-up launches first (the first one also JIT-compiles the module's PTX),
// then launches with an event recorded between each two, so each call's
// device time is known on its own; the median of them is the figure. The
// number of timed calls adapts to the kernel so a case takes about the
// time budget.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_BENCH_GPU_TIMING_H
#define ACCY_BENCH_GPU_TIMING_H

#include "accy/Runtime.h"

#include <functional>

namespace bench {

struct TimingPlan {
  int warmup = 3;
  int minRuns = 5;
  int maxRuns = 200;
  /// Timed calls stop at about this much device time (after minRuns).
  double budgetMs = 400;
};

struct Timing {
  double medianMs = 0;
  double minMs = 0;
  int runs = 0;
};

/// Times `launch` (one complete kernel call, all its GPU launches).
accy::Status timeLaunches(const std::function<accy::Status()> &launch,
                          const TimingPlan &plan, Timing &out);

} // namespace bench

#endif
