//===- Debounce.cpp - The delay between an edit and its check -------------===//

#include "Debounce.h"

#include <algorithm>

using namespace accy::lsp;

DebouncePolicy::Duration DebouncePolicy::next() const {
  if (!any)
    return min;
  auto wanted = Duration(static_cast<int64_t>(averageMs));
  return std::clamp(wanted, min, max);
}

void DebouncePolicy::record(std::chrono::duration<double> compileTime) {
  double ms = compileTime.count() * 1e3;
  // An exponential average: recent compiles matter most.
  averageMs = any ? 0.7 * averageMs + 0.3 * ms : ms;
  any = true;
}
