//===- MemoryModel.cpp - Reading the emulator's counters ------------------===//

#include "MemoryModel.h"
#include "Occupancy.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <unistd.h>

using namespace bench;

namespace {

/// The number after `"key": ` in a line the emulator wrote (its format is
/// flat numbers and one nested object, so a search is enough), or -1.
double field(const std::string &line, const std::string &key) {
  size_t at = line.find("\"" + key + "\": ");
  if (at == std::string::npos)
    return -1;
  return std::strtod(line.c_str() + at + key.size() + 4, nullptr);
}

std::string stringField(const std::string &line, const std::string &key) {
  size_t at = line.find("\"" + key + "\": \"");
  if (at == std::string::npos)
    return "";
  size_t begin = at + key.size() + 5;
  return line.substr(begin, line.find('"', begin) - begin);
}

/// The threads of `"block": [x, y, z]`, or -1.
int blockThreads(const std::string &line) {
  size_t at = line.find("\"block\": [");
  if (at == std::string::npos)
    return -1;
  const char *p = line.c_str() + at + 10;
  long threads = 1;
  for (int i = 0; i < 3; ++i) {
    char *end = nullptr;
    threads *= std::strtol(p, &end, 10);
    if (end == p)
      return -1;
    p = end + 1; // past the comma or bracket
  }
  return int(threads);
}

accy::Status modelError(const std::string &message) {
  return accy::Status(accy::ErrorCode::DriverError, "model: " + message);
}

} // namespace

double ModelledTraffic::sectorEfficiency() const {
  return sectorBytes ? double(bytesRequested) / double(sectorBytes) : 1.0;
}

double ModelledTraffic::bankConflictRate() const {
  return sharedRequests
             ? double(sharedWavefronts - sharedIdealWavefronts) / sharedRequests
             : 0.0;
}

void bench::estimateOccupancy(ModelledTraffic &t,
                              const std::map<std::string, int> &ptxas) {
  bool declared = false;
  for (const ModelledLaunch &launch : t.launches) {
    auto found = ptxas.find(launch.kernel);
    declared |= found == ptxas.end();
    // NVVM declares virtual registers, often more than the 255 a thread
    // may have; ptxas would allocate at most that many (spilling the
    // rest), so the declared count gives a lower bound on occupancy.
    int registers = found != ptxas.end() ? found->second
                                         : std::min(launch.ptxRegisters, 255);
    double occupancy =
        sm90Occupancy(launch.threads, registers, launch.sharedBytes);
    if (t.occupancy < 0 || occupancy < t.occupancy)
      t.occupancy = occupancy;
  }
  t.occupancySource = declared ? "at least, PTX" : "ptxas";
}

accy::Status bench::countLaunches(const std::function<accy::Status()> &launch,
                                  ModelledTraffic &out) {
  const char *tmp = std::getenv("TMPDIR");
  std::string path =
      std::string(tmp && *tmp ? tmp : "/tmp") + "/accy-gpu-bench-XXXXXX";
  int fd = mkstemp(path.data());
  if (fd < 0)
    return modelError("cannot create a file for the counters in " +
                      path.substr(0, path.rfind('/')));
  close(fd);
  setenv("ACCY_PTX_EMULATOR_PROFILE", path.c_str(), /*overwrite=*/1);
  accy::Status status = launch();
  if (status.ok())
    status = accy::Runtime::instance().synchronize();
  unsetenv("ACCY_PTX_EMULATOR_PROFILE");
  std::ifstream in(path);
  std::string line;
  out = ModelledTraffic();
  while (status.ok() && std::getline(in, line)) {
    double read = field(line, "dram_read_bytes");
    double written = field(line, "dram_write_bytes");
    double loads = field(line, "global_load_sectors");
    double stores = field(line, "global_store_sectors");
    double requested = field(line, "global_bytes_requested");
    double l1Hits = field(line, "l1_hit_sectors");
    double atomics = field(line, "global_atomic_sectors");
    double shared = field(line, "shared_requests");
    double wavefronts = field(line, "shared_wavefronts");
    double ideal = field(line, "shared_ideal_wavefronts");
    ModelledLaunch launch{stringField(line, "kernel"), blockThreads(line),
                          int(field(line, "ptx_registers")),
                          int(field(line, "shared_bytes"))};
    if (read < 0 || written < 0 || loads < 0 || stores < 0 || requested < 0 ||
        l1Hits < 0 || atomics < 0 || shared < 0 || wavefronts < ideal ||
        ideal < 0 || launch.kernel.empty() || launch.threads <= 0 ||
        launch.ptxRegisters < 0 || launch.sharedBytes < 0) {
      status = modelError("a line of " + path +
                          " is not the emulator's: " + line.substr(0, 80));
      break;
    }
    out.launches.push_back(launch);
    out.dramReadBytes += uint64_t(read);
    out.dramWriteBytes += uint64_t(written);
    out.sectorBytes += 32 * uint64_t(loads + stores);
    out.l2Bytes += 32 * uint64_t(loads + stores + atomics - l1Hits);
    out.bytesRequested += uint64_t(requested);
    out.sharedRequests += uint64_t(shared);
    out.sharedWavefronts += uint64_t(wavefronts);
    out.sharedIdealWavefronts += uint64_t(ideal);
  }
  in.close();
  std::remove(path.c_str());
  if (status.ok() && out.launches.empty())
    status = modelError("the device counted nothing: --model needs the PTX "
                        "emulator (ACCY_DEVICE=cuda, its libcuda.so.1 first "
                        "on LD_LIBRARY_PATH; bench/gpu/run --emulated)");
  return status;
}
