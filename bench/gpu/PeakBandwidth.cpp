//===- PeakBandwidth.cpp - Driver attributes or a datasheet table ----------===//

#include "PeakBandwidth.h"

#include <cstdio>

using namespace bench;

namespace {
struct Datasheet {
  const char *nameContains; // the first match wins: specific names first
  double terabytesPerSecond;
  const char *product;
};

// NVIDIA's datasheets (HBM peak, 1 TB = 1e12 bytes).
const Datasheet kDatasheets[] = {
    {"H200", 4.8, "H200 (SXM and NVL)"},
    {"H100 NVL", 3.9, "H100 NVL"},
    {"H100 PCIe", 2.0, "H100 PCIe"},
    {"H100", 3.35, "H100 SXM"},
    {"A100-SXM4-80GB", 2.039, "A100 80GB SXM"},
    {"A100 80GB PCIe", 1.935, "A100 80GB PCIe"},
    {"A100", 1.555, "A100 40GB"},
};
} // namespace

PeakBandwidth bench::datasheetBandwidth(const std::string &name) {
  for (const Datasheet &entry : kDatasheets)
    if (name.find(entry.nameContains) != std::string::npos)
      return {entry.terabytesPerSecond * 1e12,
              std::string("datasheet: ") + entry.product};
  return {0, "no datasheet figure for '" + name + "'"};
}

PeakBandwidth bench::peakBandwidth(const accy::DeviceProperties &device,
                                   PeakSource preferred) {
  PeakBandwidth datasheet = datasheetBandwidth(device.name);
  bool driverKnows = device.memoryClockKHz > 0 && device.memoryBusWidthBits > 0;
  if (preferred == PeakSource::Datasheet && datasheet.bytesPerSecond > 0)
    return datasheet;
  if (!driverKnows) {
    if (datasheet.bytesPerSecond > 0)
      datasheet.source += " (the driver reports no memory clock or bus width)";
    return datasheet;
  }
  char source[128];
  std::snprintf(source, sizeof source,
                "driver: %lld MHz memory clock x %d-bit bus x 2",
                static_cast<long long>(device.memoryClockKHz / 1000),
                device.memoryBusWidthBits);
  return {2.0 * double(device.memoryClockKHz) * 1e3 *
              double(device.memoryBusWidthBits) / 8.0,
          source};
}
