//===- Options.cpp - accyc's command line ---------------------------------===//

#include "Options.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <functional>

using namespace accy;
using namespace accy::driver;

const char *accy::driver::usageText() {
  return R"(usage: accyc COMMAND [options]

commands:
  build FILE.accy... [-o DIR]     run every stage in one process, reusing
                                  products by key; writes stage files,
                                  PTX/HSACO/host objects, NAME.accy.h/.cpp
                                  (launch functions, in namespace NS with
                                  --namespace NS) and NAME.stamps.json
  stage STAGE INPUT -o OUTPUT     run one stage (semantic takes FILE.accy,
        [--depfile F]             the others the previous stage's file;
        [--depfile-target T]      semantic writes a depfile for target T,
        [--namespace NS]          default OUTPUT; target also writes
        [--record F]              NAME.accy.h/.cpp, launch functions in
                                  namespace NS; F gets the stage's record
                                  as JSON: status, time, kernels compiled,
                                  stored and reused)
  check FILE.accy                 print diagnostics only
  show FILE                       print a stage file (or FILE.accy compiled
                                  to --compile-to) as MLIR text
  cache stats|trim|clear          the kernel store: hits, misses, entries
                                  and size per stage; trim it to its limit;
                                  empty it

options:
  -I DIR                          add an import search path
  --target LIST                   targets, e.g. host,sm_80,sm_90,gfx90a,gfx942
                                  (default: host,sm_90)
  --compile-to=STAGE              stop after STAGE
  --compile-from=STAGE            the input is a product of STAGE
  --timing                        per-stage table: time, pass runs,
                                  fingerprint, product key
  --stats                         pass statistics (with --timing: per pass)
  --time-trace FILE               write a Chrome trace (as clang's
                                  -ftime-trace) of every stage, kernel, MLIR
                                  pass, code generation piece and LLVM pass
  --fingerprints                  per-kernel fingerprints and keys
  --diagnostics-format=text|json  how diagnostics are printed
  --no-snippet                    no source line under text diagnostics
  --verify-each                   verify the IR after every pass (slower;
                                  names the pass that broke it)
  --cache-dir DIR                 the kernel store's directory (default:
                                  $ACCY_CACHE_DIR, $XDG_CACHE_HOME/accy or
                                  ~/.cache/accy; size $ACCY_CACHE_SIZE, 2G)
  --remote-cache 'URL[|ATTR]...'  remote caches asked on a kernel store miss
                                  and written through (default:
                                  $ACCY_REMOTE_CACHE; '' for none)
  --no-cache                      neither read nor write the kernel store
                                  (also $ACCY_CACHE_DISABLE=1)
  --list-passes                   list the stages and their passes
  --version                       print the version and build id

exit codes: 0 ok, 1 diagnostics reported, 2 usage, 3 internal error
)";
}

static llvm::Error usage(const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), what);
}

static llvm::Expected<StageId> stageArg(llvm::StringRef flag,
                                        llvm::StringRef value) {
  if (auto stage = parseStageName(value))
    return *stage;
  return usage(flag + ": unknown stage '" + value +
               "' (expected semantic, contract, tensor, dispatch, memory, "
               "kernel or target)");
}

llvm::Expected<Options> accy::driver::parseOptions(int argc, char **argv) {
  Options opts;
  std::vector<llvm::StringRef> args(argv + 1, argv + argc);
  if (args.empty())
    return opts; // help

  size_t i = 0;
  llvm::StringRef first = args[0];
  std::optional<Command> command =
      llvm::StringSwitch<std::optional<Command>>(first)
          .Case("build", Command::Build)
          .Case("stage", Command::Stage)
          .Case("check", Command::Check)
          .Case("show", Command::Show)
          .Case("cache", Command::Cache)
          .Cases("--version", "version", Command::Version)
          .Case("--list-passes", Command::ListPasses)
          .Cases("--help", "-h", "help", Command::Help)
          .Default(std::nullopt);
  if (!command)
    return usage("unknown command '" + first +
                 "' (expected build, stage, check, show or cache; see --help)");
  opts.command = *command;
  ++i;

  if (opts.command == Command::Stage) {
    if (i >= args.size())
      return usage("stage: expected a stage name");
    auto stage = stageArg("stage", args[i++]);
    if (!stage)
      return stage.takeError();
    opts.stage = *stage;
  }

  if (opts.command == Command::Cache) {
    llvm::StringRef action = i < args.size() ? args[i++] : "";
    opts.cacheAction = llvm::StringSwitch<std::optional<CacheAction>>(action)
                           .Case("stats", CacheAction::Stats)
                           .Case("trim", CacheAction::Trim)
                           .Case("clear", CacheAction::Clear)
                           .Default(std::nullopt);
    if (!opts.cacheAction)
      return usage("cache: expected stats, trim or clear, got '" + action +
                   "'");
  }

  // Flags that take a value, as `--flag=value`, `--flag value` or, for the
  // short ones, `-Ivalue`.
  using Handler = std::function<llvm::Error(llvm::StringRef)>;
  const std::pair<llvm::StringRef, Handler> valueFlags[] = {
      // clang-format off: a table, one flag a line
      {"-o", [&](llvm::StringRef v) { opts.output = v.str(); return llvm::Error::success(); }},
      {"-I", [&](llvm::StringRef v) { opts.includeDirs.push_back(v.str()); return llvm::Error::success(); }},
      {"--depfile", [&](llvm::StringRef v) { opts.depfile = v.str(); return llvm::Error::success(); }},
      {"--depfile-target", [&](llvm::StringRef v) { opts.depfileTarget = v.str(); return llvm::Error::success(); }},
      {"--record", [&](llvm::StringRef v) { opts.recordFile = v.str(); return llvm::Error::success(); }},
      {"--namespace", [&](llvm::StringRef v) { opts.cppNamespace = v.str(); return llvm::Error::success(); }},
      {"--cache-dir", [&](llvm::StringRef v) { opts.cacheDir = v.str(); return llvm::Error::success(); }},
      {"--remote-cache", [&](llvm::StringRef v) { opts.remoteCache = v.str(); return llvm::Error::success(); }},
      {"--time-trace", [&](llvm::StringRef v) { opts.timeTraceFile = v.str(); return llvm::Error::success(); }},
      // clang-format on
      {"--target",
       [&](llvm::StringRef v) -> llvm::Error {
         opts.targets.clear();
         llvm::SmallVector<llvm::StringRef> parts;
         v.split(parts, ',', -1, /*KeepEmpty=*/false);
         for (llvm::StringRef p : parts)
           opts.targets.push_back(p.trim().str());
         if (opts.targets.empty())
           return usage("--target needs at least one target");
         return llvm::Error::success();
       }},
      {"--compile-to",
       [&](llvm::StringRef v) -> llvm::Error {
         auto stage = stageArg("--compile-to", v);
         if (!stage)
           return stage.takeError();
         opts.compileTo = *stage;
         return llvm::Error::success();
       }},
      {"--compile-from",
       [&](llvm::StringRef v) -> llvm::Error {
         auto stage = stageArg("--compile-from", v);
         if (!stage)
           return stage.takeError();
         opts.compileFrom = *stage;
         return llvm::Error::success();
       }},
      {"--diagnostics-format",
       [&](llvm::StringRef v) -> llvm::Error {
         if (v == "text")
           opts.format = DiagnosticsFormat::Text;
         else if (v == "json")
           opts.format = DiagnosticsFormat::Json;
         else
           return usage("--diagnostics-format: expected text or json, got '" +
                        v + "'");
         return llvm::Error::success();
       }},
  };
  const std::pair<llvm::StringRef, bool *> switches[] = {
      {"--timing", &opts.timing},
      {"--stats", &opts.stats},
      {"--fingerprints", &opts.fingerprints},
      {"--verify-each", &opts.verifyEach},
      {"--no-cache", &opts.noCache},
  };

  for (; i < args.size(); ++i) {
    llvm::StringRef arg = args[i];
    bool handled = false;
    for (const auto &[flag, handler] : valueFlags) {
      std::optional<llvm::StringRef> v;
      if (arg == flag) {
        if (i + 1 >= args.size())
          return usage(flag + " needs a value");
        v = args[++i];
      } else if (arg.starts_with(flag) && arg.size() > flag.size()) {
        llvm::StringRef rest = arg.drop_front(flag.size());
        bool isShort = !flag.starts_with("--");
        if (rest.consume_front("=") || isShort)
          v = rest;
      }
      if (!v)
        continue;
      if (llvm::Error err = handler(*v))
        return std::move(err);
      handled = true;
      break;
    }
    for (const auto &[flag, target] : switches)
      if (!handled && arg == flag) {
        *target = true;
        handled = true;
      }
    if (handled)
      continue;
    if (arg == "--no-snippet")
      opts.snippets = false;
    else if (arg.starts_with("-") && arg != "-")
      return usage("unknown option '" + arg + "' (see --help)");
    else
      opts.inputs.push_back(arg.str());
  }

  // build takes several sources (each builds on its own, in one process);
  // the other commands take exactly one input.
  if (opts.command == Command::Build && opts.inputs.empty())
    return usage("build: expected at least one input file");
  bool oneInput = opts.command == Command::Stage ||
                  opts.command == Command::Check ||
                  opts.command == Command::Show;
  if (oneInput && opts.inputs.size() != 1)
    return usage(llvm::Twine(first) + ": expected exactly one input file, got " +
                 llvm::Twine(opts.inputs.size()));
  if (opts.command == Command::Cache && !opts.inputs.empty())
    return usage("cache: takes no input files");
  if (opts.command == Command::Stage && opts.output.empty())
    return usage("stage: -o OUTPUT is required");
  return opts;
}
