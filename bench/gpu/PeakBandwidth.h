//===- PeakBandwidth.h - The device's peak memory bandwidth ---------------===//
//
// From the driver (memory clock x bus width x 2, double data rate) when it
// reports both, else from a table of datasheet figures by device name; the
// result says which, so the printed percentage can be read for what it is.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_BENCH_GPU_PEAKBANDWIDTH_H
#define ACCY_BENCH_GPU_PEAKBANDWIDTH_H

#include "accy/Runtime.h"

#include <string>

namespace bench {

struct PeakBandwidth {
  /// Bytes per second; 0 when unknown.
  double bytesPerSecond = 0;
  /// Where the figure came from, e.g. "driver: 3201 MHz x 6144-bit bus x 2".
  std::string source;
};

enum class PeakSource { Driver, Datasheet };

/// The driver's figure, or the datasheet's when asked for it or when the
/// driver's is missing.
PeakBandwidth peakBandwidth(const accy::DeviceProperties &device,
                            PeakSource preferred);

/// The datasheet figure for a device name, 0 when the table lacks it.
PeakBandwidth datasheetBandwidth(const std::string &name);

} // namespace bench

#endif
