//===- Timing.cpp - Warm-up, events between launches, the median ----------===//

#include "Timing.h"

#include <algorithm>
#include <cmath>
#include <vector>

using namespace bench;

namespace {
/// Device time of `count` consecutive calls, one entry per call.
accy::Status timeCalls(const std::function<accy::Status()> &launch, int count,
                       std::vector<double> &times) {
  std::vector<accy::Event> events(static_cast<size_t>(count) + 1);
  for (const accy::Event &event : events)
    if (!event.status().ok())
      return event.status();
  if (accy::Status s = events[0].record(); !s.ok())
    return s;
  for (int i = 0; i < count; ++i) {
    if (accy::Status s = launch(); !s.ok())
      return s;
    if (accy::Status s = events[i + 1].record(); !s.ok())
      return s;
  }
  times.clear();
  for (int i = 0; i < count; ++i) {
    float ms = 0;
    if (accy::Status s = events[i + 1].elapsedSince(events[i], &ms); !s.ok())
      return s;
    times.push_back(ms);
  }
  return {};
}
} // namespace

accy::Status bench::timeLaunches(const std::function<accy::Status()> &launch,
                                 const TimingPlan &plan, Timing &out) {
  for (int i = 0; i < plan.warmup; ++i)
    if (accy::Status s = launch(); !s.ok())
      return s;
  if (accy::Status s = accy::Runtime::instance().synchronize(); !s.ok())
    return s;
  // One call to size the run, then the timed calls.
  std::vector<double> times;
  if (accy::Status s = timeCalls(launch, 1, times); !s.ok())
    return s;
  double first = std::max(times[0], 1e-3);
  int runs = static_cast<int>(std::clamp(std::ceil(plan.budgetMs / first),
                                         double(plan.minRuns),
                                         double(plan.maxRuns)));
  if (accy::Status s = timeCalls(launch, runs, times); !s.ok())
    return s;
  std::sort(times.begin(), times.end());
  size_t n = times.size();
  out.runs = static_cast<int>(n);
  out.minMs = times.front();
  out.medianMs = n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
  return {};
}
