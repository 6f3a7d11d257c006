//===- Report.h - The tables bench/gpu/run prints -------------------------===//
#ifndef ACCY_BENCH_GPU_REPORT_H
#define ACCY_BENCH_GPU_REPORT_H

#include "Measurement.h"
#include "PeakBandwidth.h"

#include <vector>

namespace bench {

/// Kernel, shape, time, GB/s, % of peak, the target where the issue sets
/// one (elementwise and softmax: 80% of peak) and the check.
void printBandwidthTable(const std::vector<Measurement> &results,
                         const PeakBandwidth &peak);

/// --model: per case, the emulator's DRAM bytes against the bytes that
/// must move, sector efficiency, bank conflicts, and the bandwidth-bound
/// time on an H200 (4.8 TB/s) as a share of the ideal's.
void printModelTable(const std::vector<Measurement> &results);

/// The same as {"kernels": [{"name", "shape", "ideal_bytes", ...}]} in
/// `path`; false when it cannot be written.
bool writeModelJson(const std::vector<Measurement> &results,
                    const std::string &path);

/// Accy's `@` and cuBLAS's SGEMM per shape: time, TFLOP/s, the ratio
/// against the 50% target, and both checks.
void printMatmulTable(const std::vector<Measurement> &results);

/// The closing lines: failed checks and errors, or that all passed.
void printVerdict(const std::vector<Measurement> &results);

} // namespace bench

#endif
