//===- Options.h - accyc's command line -------------------------*- C++ -*-===//
#ifndef ACCY_DRIVER_OPTIONS_H
#define ACCY_DRIVER_OPTIONS_H

#include "accy/Pipeline/Stage.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace accy {
class KernelStore;
} // namespace accy

namespace accy::driver {

enum class Command {
  Build,
  Stage,
  Check,
  Show,
  Cache,
  Version,
  ListPasses,
  Help
};
/// `accyc cache ACTION`.
enum class CacheAction { Stats, Trim, Clear };
enum class DiagnosticsFormat { Text, Json };

struct Options {
  Command command = Command::Help;
  std::vector<std::string> inputs;
  std::optional<StageId> stage; // `accyc stage STAGE ...`
  std::string output;
  std::string depfile;
  /// The depfile's target, as gcc's -MT names it (default: the output).
  std::string depfileTarget;
  /// `accyc stage --record F`: the stage's record as JSON.
  std::string recordFile;
  /// `build` and `stage target`: C++ namespace of the generated launch
  /// functions.
  std::string cppNamespace;
  std::vector<std::string> includeDirs;
  std::vector<std::string> targets = {"host", "sm_90"};
  std::optional<StageId> compileTo, compileFrom;
  bool timing = false, stats = false, fingerprints = false;
  /// `--time-trace FILE`: a Chrome trace of where the time went.
  std::string timeTraceFile;
  bool snippets = true;
  bool verifyEach = false;
  DiagnosticsFormat format = DiagnosticsFormat::Text;
  /// The kernel store: `--cache-dir DIR` (over the environment's) or
  /// `--no-cache` (none).
  std::string cacheDir;
  bool noCache = false;
  /// `--remote-cache SPEC`, over `$ACCY_REMOTE_CACHE` (empty: none).
  std::optional<std::string> remoteCache;
  std::optional<CacheAction> cacheAction;
  /// The store main opened from the above, for every compile; null: none.
  KernelStore *store = nullptr;
};

/// Parses argv; a usage error names the argument and what was expected.
llvm::Expected<Options> parseOptions(int argc, char **argv);

/// The text `accyc --help` prints.
const char *usageText();

} // namespace accy::driver

#endif // ACCY_DRIVER_OPTIONS_H
