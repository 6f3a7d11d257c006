//===- Check.cpp - Element-wise comparison with a tolerance ----------------===//

#include "Check.h"

#include <cmath>
#include <cstdio>

using namespace bench;

void CheckResult::merge(const CheckResult &other) {
  if (firstFailure < 0 && other.firstFailure >= 0) {
    firstFailure = other.firstFailure;
    firstGot = other.firstGot;
    firstWant = other.firstWant;
  }
  checked += other.checked;
  failed += other.failed;
  maxAbsError = std::fmax(maxAbsError, other.maxAbsError);
  worstRatio = std::fmax(worstRatio, other.worstRatio);
}

std::string CheckResult::summary() const {
  char text[256];
  if (checked == 0)
    return "FAIL: nothing was compared";
  if (ok()) {
    std::snprintf(text, sizeof text, "ok (max |err| %.2e, %.2f of tolerance)",
                  maxAbsError, worstRatio);
    return text;
  }
  std::snprintf(text, sizeof text,
                "FAIL: %lld of %lld elements outside the tolerance; first at "
                "%lld: got %.9g, want %.9g",
                static_cast<long long>(failed),
                static_cast<long long>(checked),
                static_cast<long long>(firstFailure), firstGot, firstWant);
  return text;
}

CheckResult bench::compare(const float *got, const float *want, int64_t n,
                           Tolerance tolerance,
                           const std::function<double(int64_t)> &scale,
                           int64_t indexBase) {
  CheckResult result;
  result.checked = n;
  for (int64_t i = 0; i < n; ++i) {
    double error = std::fabs(double(got[i]) - double(want[i]));
    double size = scale ? scale(i) : std::fabs(double(want[i]));
    double allowed = tolerance.relative * size + tolerance.absolute;
    // NaN compares false: a NaN on either side fails.
    bool pass = error <= allowed;
    if (pass) {
      result.maxAbsError = std::fmax(result.maxAbsError, error);
      result.worstRatio = std::fmax(result.worstRatio,
                                    allowed > 0 ? error / allowed : 0);
      continue;
    }
    if (result.failed++ == 0) {
      result.firstFailure = indexBase + i;
      result.firstGot = got[i];
      result.firstWant = want[i];
    }
    result.worstRatio = INFINITY;
    if (!std::isnan(error))
      result.maxAbsError = std::fmax(result.maxAbsError, error);
  }
  return result;
}
