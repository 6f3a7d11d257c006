//===- Check.h - GPU results against the host's, within a tolerance -------===//
//
// An element passes when |got - want| <= relative * scale + absolute, where
// scale is |want| unless the kernel gives a better measure of the size of
// the terms that were summed (cumsum: the sum of the absolute values so far;
// `@`: a bound on sum_k |a_ik * b_kj|). Why each kernel's numbers are what
// they are: bench/gpu/README.md, "Tolerances".
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_BENCH_GPU_CHECK_H
#define ACCY_BENCH_GPU_CHECK_H

#include <cstdint>
#include <functional>
#include <string>

namespace bench {

struct Tolerance {
  double relative = 0;
  double absolute = 0;
};

struct CheckResult {
  int64_t checked = 0;
  int64_t failed = 0;
  double maxAbsError = 0;
  /// The largest |got - want| / (allowed error): at most 1 when all pass.
  double worstRatio = 0;
  /// The first failing element, -1 when none failed.
  int64_t firstFailure = -1;
  float firstGot = 0, firstWant = 0;

  bool ok() const { return failed == 0 && checked > 0; }
  /// Accumulates another part of the same output.
  void merge(const CheckResult &other);
  /// "ok (max |err| 1.2e-07, 0.03 of tolerance)" or "FAIL: 12 of 1024 ...".
  std::string summary() const;
};

/// Compares got[i] with want[i] for i in [0, n); `scale(i)` defaults to
/// |want[i]|; a failing element is reported as indexBase + i.
CheckResult compare(const float *got, const float *want, int64_t n,
                    Tolerance tolerance,
                    const std::function<double(int64_t)> &scale = {},
                    int64_t indexBase = 0);

} // namespace bench

#endif
