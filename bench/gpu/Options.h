//===- Options.h - The driver's command line ------------------------------===//
#ifndef ACCY_BENCH_GPU_OPTIONS_H
#define ACCY_BENCH_GPU_OPTIONS_H

#include "PeakBandwidth.h"

#include <cstdint>
#include <set>
#include <string>

namespace bench {

struct Options {
  bool small = false;
  /// The memory model on the PTX emulator (MemoryModel.h).
  bool model = false;
  /// Where --model writes its table as JSON ("" = nowhere).
  std::string json;
  /// --model: the kernels' PTX, for ptxas's register counts, and the
  /// ptxas to run ("auto", "none" or a path; Occupancy.h).
  std::string ptx;
  std::string ptxas = "auto";
  /// Measure on whatever device the runtime selects, the host included
  /// (for tests); otherwise anything but a CUDA device is "no CUDA device".
  bool allowHost = false;
  /// "auto", "none", or a path to libcublas.
  std::string cublas = "auto";
  PeakSource peak = PeakSource::Driver;
  /// Case names to run (softmax, layer_norm, cross_entropy, cumsum,
  /// elementwise, matmul); empty runs all.
  std::set<std::string> only;
  uint64_t seed = 1;
  double budgetMs = 400;
  int64_t matmulCheckRows = 64;
  bool help = false;
};

/// Parses argv into `out`; false with `error` set on a bad argument.
bool parseOptions(int argc, char **argv, Options &out, std::string &error);

/// The --help text.
const char *usage();

} // namespace bench

#endif
