//===- Options.cpp - Parsing the driver's arguments ------------------------===//

#include "Options.h"

#include <cstdlib>
#include <cstring>

using namespace bench;

const char *bench::usage() {
  return "usage: accy-gpu-bench [options]\n"
         "Runs the kernels of bench/gpu/kernels.accy on the CUDA device and\n"
         "checks each against the host object on the same inputs.\n"
         "  --only=NAME[,NAME]  softmax, layer_norm, cross_entropy, cumsum,\n"
         "                      elementwise, matmul (default: all)\n"
         "  --small             small shapes (for tests; figures mean "
         "nothing)\n"
         "  --model             on the PTX emulator: each memory-bound case\n"
         "                      once at 4 MiB a tensor, DRAM bytes against\n"
         "                      the bytes that must move (no timing)\n"
         "  --json=FILE         with --model: the table as JSON\n"
         "  --ptx=FILE          with --model: the kernels' PTX, whose\n"
         "                      `ptxas -v` registers give the occupancy\n"
         "  --ptxas=auto|none|PATH  the ptxas for --ptx (auto: PATH,\n"
         "                      $CUDA_HOME/bin, /usr/local/cuda/bin)\n"
         "  --allow-host        run on any device the runtime selects\n"
         "                      (ACCY_DEVICE), the host included\n"
         "  --cublas=auto|none|PATH  cuBLAS for the `@` comparison\n"
         "  --peak=driver|datasheet  where the peak bandwidth comes from\n"
         "  --budget-ms=MS      device time per case's timed calls (400)\n"
         "  --check-rows=N      rows of a large `@` checked on the host (64)\n"
         "  --seed=N            input seed (1)\n"
         "exit: 0 all checks pass, 1 a tolerance check failed, 2 usage,\n"
         "      3 a runtime error, 4 no CUDA device\n";
}

namespace {
bool number(const std::string &text, double &out) {
  char *end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return !text.empty() && end && *end == '\0' && out >= 0;
}
} // namespace

bool bench::parseOptions(int argc, char **argv, Options &out,
                         std::string &error) {
  const std::set<std::string> names = {"softmax", "layer_norm",
                                       "cross_entropy", "cumsum",
                                       "elementwise", "matmul"};
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string key = arg.substr(0, arg.find('='));
    std::string value =
        arg.find('=') == std::string::npos ? "" : arg.substr(arg.find('=') + 1);
    double n = 0;
    if (arg == "--help" || arg == "-h") {
      out.help = true;
    } else if (arg == "--small") {
      out.small = true;
    } else if (arg == "--model") {
      out.model = true;
    } else if (key == "--json" && !value.empty()) {
      out.json = value;
    } else if (key == "--ptx" && !value.empty()) {
      out.ptx = value;
    } else if (key == "--ptxas" && !value.empty()) {
      out.ptxas = value;
    } else if (arg == "--allow-host") {
      out.allowHost = true;
    } else if (key == "--cublas" && !value.empty()) {
      out.cublas = value;
    } else if (key == "--peak" && (value == "driver" || value == "datasheet")) {
      out.peak = value == "driver" ? PeakSource::Driver : PeakSource::Datasheet;
    } else if (key == "--only" && !value.empty()) {
      for (size_t start = 0; start <= value.size();) {
        size_t comma = value.find(',', start);
        std::string name = value.substr(start, comma - start);
        if (!names.count(name)) {
          error = "unknown case '" + name +
                  "' (softmax, layer_norm, cross_entropy, cumsum, "
                  "elementwise, matmul)";
          return false;
        }
        out.only.insert(name);
        start = comma == std::string::npos ? value.size() + 1 : comma + 1;
      }
    } else if (key == "--budget-ms" && number(value, n) && n > 0) {
      out.budgetMs = n;
    } else if (key == "--check-rows" && number(value, n) && n >= 1) {
      out.matmulCheckRows = static_cast<int64_t>(n);
    } else if (key == "--seed" && number(value, n)) {
      out.seed = static_cast<uint64_t>(n);
    } else {
      error = "unknown or malformed argument '" + arg + "'";
      return false;
    }
  }
  if (!out.json.empty() && !out.model) {
    error = "--json writes the memory model's table: it needs --model";
    return false;
  }
  return true;
}
