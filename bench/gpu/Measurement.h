//===- Measurement.h - One benchmark case: how it ran and what it gave ----===//
#ifndef ACCY_BENCH_GPU_MEASUREMENT_H
#define ACCY_BENCH_GPU_MEASUREMENT_H

#include "Check.h"
#include "MemoryModel.h"
#include "Timing.h"

#include "accy/Runtime.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace bench {

class Cublas;

/// What every case needs to know.
struct Settings {
  /// Small shapes, for tests on the host or the stand-in driver.
  bool small = false;
  /// The memory model: shapes of a few MiB a tensor (rows of their full
  /// length), one call per case counted by the PTX emulator, no timing.
  bool model = false;
  uint64_t seed = 1;
  TimingPlan timing;
  /// cuBLAS for the `@` cases; null when it is unavailable.
  Cublas *cublas = nullptr;
  /// Rows of a large `@` checked against the host object (its loops are
  /// serial and naive: all rows of 4096^3 would take an hour).
  int64_t matmulCheckRows = 64;
};

struct Measurement {
  std::string kernel, shape;
  /// A launch, copy or allocation failed; nothing else is meaningful.
  accy::Status error;
  Timing timing;
  /// Bytes that must move: every input read once, every output written
  /// once. Zero for `@`, which is measured in FLOP/s.
  double bytes = 0;
  double flops = 0;
  /// The GPU result against the host object's on the same inputs.
  CheckResult hostCheck;
  /// Which part of the output was compared, e.g. "all" or "64 of 4096 rows".
  std::string hostCoverage;
  /// Wall time of the host reference, to see where a run's time goes.
  double hostSeconds = 0;
  /// --model: what the emulator counted for one call.
  ModelledTraffic traffic;

  /// `@` only: cuBLAS on the same buffers, and the GPU result against it.
  bool cublasRan = false;
  std::string cublasNote;
  Timing cublasTiming;
  CheckResult cublasCheck;

  bool passed() const {
    return error.ok() && hostCheck.ok() && (!cublasRan || cublasCheck.ok());
  }
};

/// The parts of a case that differ from kernel to kernel; measure() runs
/// them in order: timed launches, reading the result back, the host
/// reference, the comparison.
struct CaseSpec {
  std::function<accy::Status()> launch;
  std::function<accy::Status(std::vector<float> &got)> readResult;
  std::function<void(std::vector<float> &want)> reference;
  std::function<CheckResult(const std::vector<float> &got,
                            const std::vector<float> &want)>
      check;
};

/// Fills `m`'s timing, host check and error from `spec`.
void measure(const CaseSpec &spec, const Settings &settings, Measurement &m);

/// A measurement that failed before it ran (an allocation or an upload).
Measurement failedCase(std::string kernel, std::string shape,
                       accy::Status error);

} // namespace bench

#endif
