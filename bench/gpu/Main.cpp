//===- Main.cpp - accy-gpu-bench: Accy's kernels on a GPU, checked ---------===//
//
// Runs each kernel of kernels.accy on the CUDA device through the generated
// launchers, checks the result against the host object's on the same
// inputs, and prints achieved bandwidth (memory-bound kernels) or TFLOP/s
// against cuBLAS (`@`). bench/gpu/run builds and runs it; see
// bench/gpu/README.md.
//
//===----------------------------------------------------------------------===//

#include "Cases.h"
#include "Cublas.h"
#include "HostCall.h"
#include "Occupancy.h"
#include "Options.h"
#include "PeakBandwidth.h"
#include "Report.h"

#include "accy/Runtime.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>

using namespace bench;

namespace {
enum ExitCode {
  kPassed = 0,
  kToleranceFailed = 1,
  kUsage = 2,
  kRuntimeError = 3,
  kNoCudaDevice = 4,
};

/// The device line, and whether the run may go on.
bool describeDevice(const Options &options) {
  accy::Runtime &runtime = accy::Runtime::instance();
  if (!runtime.status().ok()) {
    std::printf("no CUDA device: %s\n", runtime.status().message().c_str());
    return false;
  }
  if (runtime.device() != accy::DeviceKind::Cuda && !options.allowHost) {
    const char *env = std::getenv("ACCY_DEVICE");
    std::printf("no CUDA device: the runtime selected '%s' (ACCY_DEVICE=%s); "
                "--allow-host measures it anyway\n",
                runtime.deviceName().c_str(), env ? env : "");
    return false;
  }
  accy::DeviceProperties properties = runtime.properties();
  std::printf("device: %s", runtime.deviceName().c_str());
  if (properties.multiprocessors > 0)
    std::printf(", %d SMs", properties.multiprocessors);
  std::printf("; host references on %u threads\n", hostThreads());
  return true;
}

PeakBandwidth describePeak(const Options &options) {
  PeakBandwidth peak =
      peakBandwidth(accy::Runtime::instance().properties(), options.peak);
  if (peak.bytesPerSecond > 0)
    std::printf("peak bandwidth: %.2f TB/s (%s)\n", peak.bytesPerSecond / 1e12,
                peak.source.c_str());
  else
    std::printf("peak bandwidth: unknown (%s); no %% of peak\n",
                peak.source.c_str());
  return peak;
}

/// Loads cuBLAS on a CUDA device unless told not to; `note` says why not.
std::unique_ptr<Cublas> loadCublas(const Options &options, std::string &note) {
  std::unique_ptr<Cublas> cublas;
  if (options.cublas == "none")
    note = "--cublas=none";
  else if (accy::Runtime::instance().device() != accy::DeviceKind::Cuda)
    note = "not a CUDA device";
  else if (accy::Status s = Cublas::load(
               options.cublas == "auto" ? "" : options.cublas, cublas);
           !s.ok())
    note = s.message();
  std::printf("cuBLAS: %s\n",
              cublas ? cublas->description().c_str()
                     : ("unavailable (" + note + ")").c_str());
  return cublas;
}

/// --model: registers a thread of each kernel from ptxas when it and the
/// PTX are at hand (said which), else none (the PTX's declarations).
std::map<std::string, int> ptxasRegisterCounts(const Options &options) {
  std::map<std::string, int> registers;
  std::string ptxas = findPtxas(options.ptxas);
  if (ptxas.empty() || options.ptx.empty()) {
    std::printf("occupancy: registers as the PTX declares them (%s), an "
                "upper bound\n",
                ptxas.empty() ? "no ptxas" : "no --ptx");
    return registers;
  }
  if (accy::Status s = ptxasRegisters(ptxas, options.ptx, "sm_90", registers);
      !s.ok()) {
    std::printf("occupancy: registers as the PTX declares them (%s)\n",
                s.message().c_str());
    return {};
  }
  std::printf("occupancy: registers from %s -arch=sm_90 -v\n", ptxas.c_str());
  return registers;
}
} // namespace

int main(int argc, char **argv) {
  auto start = std::chrono::steady_clock::now();
  Options options;
  std::string error;
  if (!parseOptions(argc, argv, options, error)) {
    std::fprintf(stderr, "accy-gpu-bench: %s\n%s", error.c_str(), usage());
    return kUsage;
  }
  if (options.help) {
    std::printf("%s", usage());
    return kPassed;
  }
  // Without --allow-host, ask for CUDA: no silent fallback to the host.
  if (!options.allowHost)
    setenv("ACCY_DEVICE", "cuda", /*overwrite=*/0);
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  if (!describeDevice(options))
    return kNoCudaDevice;
  PeakBandwidth peak = describePeak(options);

  Settings settings;
  settings.small = options.small;
  settings.model = options.model;
  settings.seed = options.seed;
  settings.timing.budgetMs = options.budgetMs;
  settings.matmulCheckRows = options.matmulCheckRows;
  std::string cublasNote;
  std::unique_ptr<Cublas> cublas = loadCublas(options, cublasNote);
  settings.cublas = cublas.get();

  auto wanted = [&](const char *name) {
    return options.only.empty() || options.only.count(name);
  };
  struct Named {
    const char *name;
    Measurement (*run)(const Settings &);
  };
  const Named bandwidthCases[] = {{"softmax", softmaxCase},
                                  {"layer_norm", layerNormCase},
                                  {"cross_entropy", crossEntropyCase},
                                  {"cumsum", cumsumCase},
                                  {"elementwise", elementwiseChainCase}};
  std::vector<Measurement> bandwidth, matmul;
  auto timed = [](const char *name, auto run) {
    std::printf("running %s...", name);
    std::fflush(stdout);
    auto begin = std::chrono::steady_clock::now();
    auto results = run();
    double host = 0;
    for (const Measurement &m : results)
      host += m.hostSeconds;
    std::printf(" %.1f s (host reference %.1f s)\n",
                std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                              begin)
                    .count(),
                host);
    return results;
  };
  for (const Named &c : bandwidthCases)
    if (wanted(c.name))
      bandwidth.push_back(timed(c.name, [&] {
        return std::vector<Measurement>{c.run(settings)};
      })[0]);
  // `@` is compute-bound: the memory model has nothing to say of it.
  if (wanted("matmul") && !options.model)
    matmul = timed("matmul", [&] { return matmulCases(settings); });

  if (options.model) {
    std::map<std::string, int> registers = ptxasRegisterCounts(options);
    for (Measurement &m : bandwidth)
      if (m.error.ok())
        estimateOccupancy(m.traffic, registers);
    printModelTable(bandwidth);
  } else
    printBandwidthTable(bandwidth, peak);
  if (!options.json.empty() && !writeModelJson(bandwidth, options.json)) {
    std::printf("cannot write %s\n", options.json.c_str());
    return kRuntimeError;
  }
  printMatmulTable(matmul);
  std::vector<Measurement> all = bandwidth;
  all.insert(all.end(), matmul.begin(), matmul.end());
  printVerdict(all);
  std::printf("total: %.1f s\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                            start)
                  .count());

  bool failed = false, errors = false;
  for (const Measurement &m : all) {
    errors |= !m.error.ok();
    failed |= m.error.ok() && !m.passed();
  }
  return failed ? kToleranceFailed : errors ? kRuntimeError : kPassed;
}
