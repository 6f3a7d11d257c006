//===- Report.cpp - Printing measurements as tables ------------------------===//

#include "Report.h"

#include "accy/Runtime.h"

#include <cstdio>
#include <fstream>

using namespace bench;

namespace {
constexpr double kBandwidthTarget = 0.80; // elementwise and softmax
constexpr double kCublasTarget = 0.50;    // `@` against cuBLAS
constexpr double kHalfCublasTarget = 0.70; // f16/bf16 `@`, tensor cores
/// An H200's HBM3e bandwidth (datasheet), for the model's time estimate.
constexpr double kH200BytesPerSecond = 4.8e12;

std::string checkText(const Measurement &m) {
  return "host (" + m.hostCoverage + "): " + m.hostCheck.summary();
}

std::string errorText(const accy::Status &error) {
  return std::string("ERROR [") + accy::errorCodeName(error.code()) + "] " +
         error.message();
}

std::string targetText(double achieved, double target) {
  char text[48];
  std::snprintf(text, sizeof text, ">= %.0f%%: %s", target * 100,
                achieved >= target ? "met" : "MISSED");
  return text;
}
} // namespace

void bench::printBandwidthTable(const std::vector<Measurement> &results,
                                const PeakBandwidth &peak) {
  if (results.empty())
    return;
  std::printf("\n%-14s %-12s %10s %10s %5s %9s %7s %-13s %s\n", "kernel",
              "shape", "median ms", "min ms", "runs", "GB/s", "% peak",
              "target", "check");
  for (const Measurement &m : results) {
    if (!m.error.ok()) {
      std::printf("%-14s %-12s %s\n", m.kernel.c_str(), m.shape.c_str(),
                  errorText(m.error).c_str());
      continue;
    }
    double gbPerSecond = m.bytes / (m.timing.medianMs * 1e-3) / 1e9;
    double fraction = peak.bytesPerSecond > 0
                          ? gbPerSecond * 1e9 / peak.bytesPerSecond
                          : 0;
    char percent[16] = "n/a";
    if (peak.bytesPerSecond > 0)
      std::snprintf(percent, sizeof percent, "%.1f%%", fraction * 100);
    bool hasTarget = m.kernel == "softmax" || m.kernel == "elementwise";
    std::string target = hasTarget && peak.bytesPerSecond > 0
                             ? targetText(fraction, kBandwidthTarget)
                             : "-";
    std::printf("%-14s %-12s %10.4f %10.4f %5d %9.1f %7s %-13s %s\n",
                m.kernel.c_str(), m.shape.c_str(), m.timing.medianMs,
                m.timing.minMs, m.timing.runs, gbPerSecond, percent,
                target.c_str(), checkText(m).c_str());
  }
  std::printf("(bytes that must move: every input read once, every output "
              "written once; GB = 1e9 bytes)\n");
}

void bench::printModelTable(const std::vector<Measurement> &results) {
  if (results.empty())
    return;
  std::printf("\n%-14s %-12s %8s %9s %9s %10s %8s %8s %9s %-15s %10s %7s "
              "%s\n",
              "kernel", "shape", "launches", "ideal MB", "DRAM MB",
              "DRAM/ideal", "L2/ideal", "sectors", "conflicts", "occupancy",
              "H200 us", "% ideal", "check");
  for (const Measurement &m : results) {
    if (!m.error.ok()) {
      std::printf("%-14s %-12s %s\n", m.kernel.c_str(), m.shape.c_str(),
                  errorText(m.error).c_str());
      continue;
    }
    const ModelledTraffic &t = m.traffic;
    double dram = double(t.dramBytes());
    char occupancy[32];
    std::snprintf(occupancy, sizeof occupancy, "%.0f%% %s", t.occupancy * 100,
                  t.occupancySource.c_str());
    std::printf("%-14s %-12s %8zu %9.2f %9.2f %9.2fx %7.2fx %7.1f%% %9.2f "
                "%-15s %10.2f %6.1f%% %s\n",
                m.kernel.c_str(), m.shape.c_str(), t.launches.size(),
                m.bytes / 1e6, dram / 1e6, dram / m.bytes, t.l2Bytes / m.bytes,
                t.sectorEfficiency() * 100, t.bankConflictRate(), occupancy,
                dram / kH200BytesPerSecond * 1e6, m.bytes / dram * 100,
                checkText(m).c_str());
  }
  std::printf(
      "(the PTX emulator's counters for one call: DRAM bytes through "
      "its 50 MiB L2, cold when the call starts; L2: the sector bytes "
      "the blocks' L1 sent to the L2 (a row read again after the L1 "
      "lost it counts twice); sectors: bytes used of the sectors "
      "requests touched; "
      "conflicts: shared wavefronts beyond the ideal per request; occupancy: "
      "the lowest of the launches on sm_90; "
      "H200 us: DRAM bytes at 4.8 TB/s, %% ideal: the bytes that "
      "must move over DRAM bytes)\n");
}

bool bench::writeModelJson(const std::vector<Measurement> &results,
                           const std::string &path) {
  std::ofstream out(path);
  out << "{\"kernels\": [";
  bool first = true;
  for (const Measurement &m : results) {
    if (!m.error.ok())
      continue;
    const ModelledTraffic &t = m.traffic;
    out << (first ? "" : ", ") << "{\"name\": \"" << m.kernel
        << "\", \"shape\": \"" << m.shape
        << "\", \"launches\": " << t.launches.size()
        << ", \"ideal_bytes\": " << uint64_t(m.bytes)
        << ", \"dram_bytes\": " << t.dramBytes()
        << ", \"dram_read_bytes\": " << t.dramReadBytes
        << ", \"dram_write_bytes\": " << t.dramWriteBytes
        << ", \"l2_bytes\": " << t.l2Bytes
        << ", \"sector_efficiency\": " << t.sectorEfficiency()
        << ", \"bank_conflicts\": " << t.bankConflictRate()
        << ", \"occupancy\": " << t.occupancy << ", \"occupancy_registers\": \""
        << t.occupancySource << "\""
        << ", \"h200_us\": " << t.dramBytes() / kH200BytesPerSecond * 1e6
        << ", \"check\": \"" << (m.passed() ? "ok" : "failed") << "\"}";
    first = false;
  }
  out << "]}\n";
  out.close();
  return bool(out);
}

void bench::printMatmulTable(const std::vector<Measurement> &results) {
  if (results.empty())
    return;
  std::printf("\n%-52s %10s %8s %10s %8s %8s %s\n", "@, inputs and shape",
              "Accy ms", "TFLOP/s", "cuBLAS ms", "TFLOP/s", "ratio", "target");
  for (const Measurement &m : results) {
    if (!m.error.ok()) {
      std::printf("%-52s %s\n", m.shape.c_str(), errorText(m.error).c_str());
      continue;
    }
    double accy = m.flops / (m.timing.medianMs * 1e-3) / 1e12;
    if (!m.cublasRan) {
      std::printf("%-52s %10.4f %8.2f %10s %8s %8s %s\n", m.shape.c_str(),
                  m.timing.medianMs, accy, "-", "-", "-", "-");
    } else {
      double cublas = m.flops / (m.cublasTiming.medianMs * 1e-3) / 1e12;
      double ratio = accy / cublas;
      std::printf("%-52s %10.4f %8.2f %10.4f %8.2f %7.1f%% %s\n",
                  m.shape.c_str(), m.timing.medianMs, accy,
                  m.cublasTiming.medianMs, cublas, ratio * 100,
                  targetText(ratio, m.kernel == "matmul" ? kCublasTarget
                                                         : kHalfCublasTarget)
                      .c_str());
    }
    std::printf("    check: %s; cuBLAS (all): %s\n", checkText(m).c_str(),
                m.cublasRan ? m.cublasCheck.summary().c_str()
                            : ("not run: " + m.cublasNote).c_str());
  }
}

void bench::printVerdict(const std::vector<Measurement> &results) {
  int failed = 0, errors = 0;
  for (const Measurement &m : results) {
    if (!m.error.ok())
      ++errors;
    else if (!m.passed())
      ++failed;
  }
  std::printf("\n");
  if (errors)
    std::printf("%d case(s) did not run (ERROR above)\n", errors);
  if (failed)
    std::printf("FAIL: %d of %zu case(s) outside the tolerance\n", failed,
                results.size());
  if (!errors && !failed)
    std::printf("PASS: all %zu case(s) within the tolerance of the host "
                "results\n",
                results.size());
}
