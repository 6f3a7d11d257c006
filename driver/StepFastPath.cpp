//===- StepFastPath.cpp - A warm stage step before the compiler starts ----===//
//
// `accyc stage` of a step whose entry is in the local store (StepEntries.h)
// writes that entry's files and ends here, in a constructor that runs
// before every other static initializer of the process. The ones it comes
// before are LLVM's and MLIR's (about 430, mostly command-line options of
// passes and backends): 2.5 ms, most of what a warm step cost, where this
// path takes about 1 ms in all (docs/internals.md, "Step entries").
//
// What runs here touches nothing those initializers set up: the command
// line parser, the store's configuration, hashing and file writing use no
// global that needs one. On anything but a served step it returns, and
// main() runs the command as always.
//
//===----------------------------------------------------------------------===//

#include "Options.h"
#include "StepEntries.h"

#include <cstring>
#include <unistd.h>

using namespace accy;
using namespace accy::driver;

/// Priority 101, the first one a program may use: before the initializers
/// without a priority, which are all of LLVM's and MLIR's.
__attribute__((constructor(101))) static void serveStepFromEntry(int argc,
                                                                 char **argv) {
  if (argc < 2 || std::strcmp(argv[1], "stage") != 0)
    return;
  llvm::Expected<Options> options = parseOptions(argc, argv);
  if (!options) {
    llvm::consumeError(options.takeError()); // main() reports it
    return;
  }
  // What prints or writes more than the step's files is left to the
  // compiler.
  if (!hasStepEntries(*options->stage) || options->timing || options->stats ||
      options->fingerprints || options->compileTo || options->compileFrom ||
      options->verifyEach || !options->timeTraceFile.empty())
    return;
  if (runStepFromEntry(*options))
    _exit(0);
}
