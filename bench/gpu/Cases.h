//===- Cases.h - The benchmark's kernels, shapes and checks ---------------===//
#ifndef ACCY_BENCH_GPU_CASES_H
#define ACCY_BENCH_GPU_CASES_H

#include "Measurement.h"

#include <vector>

namespace bench {

// Memory-bound kernels, measured in bytes per second.
Measurement softmaxCase(const Settings &settings);
Measurement layerNormCase(const Settings &settings);
Measurement crossEntropyCase(const Settings &settings);
Measurement cumsumCase(const Settings &settings);
Measurement elementwiseChainCase(const Settings &settings);

/// `@` at each shape, in FLOP/s, against cuBLAS when it is there.
std::vector<Measurement> matmulCases(const Settings &settings);

} // namespace bench

#endif
