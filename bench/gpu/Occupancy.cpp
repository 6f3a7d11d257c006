//===- Occupancy.cpp - sm_90 occupancy and ptxas's register counts --------===//

#include "Occupancy.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <sstream>
#include <unistd.h>

using namespace bench;

namespace {
constexpr int kMaxWarps = 64, kMaxBlocks = 32, kMaxRegistersPerThread = 255;
constexpr int kRegisters = 65536, kRegisterUnit = 256;
constexpr int kSharedBytes = 228 * 1024, kSharedUnit = 128,
              kSharedReserved = 1024, kSharedPerBlock = 227 * 1024;

int roundUp(int value, int unit) { return (value + unit - 1) / unit * unit; }

bool executable(const std::string &path) {
  return !path.empty() && access(path.c_str(), X_OK) == 0;
}
} // namespace

double bench::sm90Occupancy(int threads, int registers, int sharedBytes) {
  if (threads <= 0 || threads > 1024 || registers > kMaxRegistersPerThread ||
      sharedBytes > kSharedPerBlock)
    return 0;
  int warps = (threads + 31) / 32;
  int blocks = std::min(kMaxBlocks, kMaxWarps / warps);
  int perWarp = roundUp(std::max(registers, 1) * 32, kRegisterUnit);
  blocks = std::min(blocks, kRegisters / perWarp / warps);
  if (sharedBytes > 0)
    blocks =
        std::min(blocks, kSharedBytes / roundUp(sharedBytes + kSharedReserved,
                                                kSharedUnit));
  return double(blocks * warps) / kMaxWarps;
}

std::string bench::findPtxas(const std::string &choice) {
  if (choice == "none")
    return "";
  if (choice != "auto")
    return choice;
  std::vector<std::string> candidates;
  if (const char *path = std::getenv("PATH")) {
    std::stringstream dirs(path);
    for (std::string dir; std::getline(dirs, dir, ':');)
      candidates.push_back(dir + "/ptxas");
  }
  if (const char *cuda = std::getenv("CUDA_HOME"))
    candidates.push_back(std::string(cuda) + "/bin/ptxas");
  candidates.push_back("/usr/local/cuda/bin/ptxas");
  for (const std::string &candidate : candidates)
    if (executable(candidate))
      return candidate;
  return "";
}

accy::Status bench::ptxasRegisters(const std::string &ptxas,
                                   const std::string &ptx,
                                   const std::string &arch,
                                   std::map<std::string, int> &out) {
  auto error = [&](const std::string &why) {
    return accy::Status(accy::ErrorCode::DriverError,
                        ptxas + " -arch=" + arch + " -v " + ptx + ": " + why);
  };
  if (!executable(ptxas))
    return error("not an executable");
  std::string command =
      "'" + ptxas + "' -arch=" + arch + " -v '" + ptx + "' -o /dev/null 2>&1";
  FILE *pipe = popen(command.c_str(), "r");
  if (!pipe)
    return error("cannot run it");
  std::string output;
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe))
    output.append(buffer, n);
  int status = pclose(pipe);
  if (status != 0)
    return error("exit status " + std::to_string(status) + ": " +
                 output.substr(0, 400));
  // "Compiling entry function 'K' for 'sm_90'" ... "Used N registers".
  static const std::regex entry("Compiling entry function '([^']+)'");
  static const std::regex used("Used ([0-9]+) registers");
  std::string current;
  std::stringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    std::smatch match;
    if (std::regex_search(line, match, entry))
      current = match[1];
    else if (!current.empty() && std::regex_search(line, match, used))
      out[current] = std::stoi(match[1]), current.clear();
  }
  if (out.empty())
    return error("no register counts in its output");
  return {};
}
