//===- accyc.cpp - The Accy compiler driver -------------------------------===//

#include "Commands.h"
#include "Options.h"
#include "Report.h"

#include "accy/Pipeline/BuildId.h"
#include "accy/Pipeline/Registration.h"
#include "accy/Support/TimeTrace.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include "accy/Config.h"

#include <algorithm>
#include <csignal>
#include <cstdlib>

using namespace accy;
using namespace accy::driver;

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
#ifdef SIGXFSZ
  // A write past the file size limit (RLIMIT_FSIZE) would kill the process
  // with SIGXFSZ (InitLLVM's handler too re-raises it); ignored, the write
  // fails with EFBIG and the output writer reports it, like a full disk.
  std::signal(SIGXFSZ, SIG_IGN);
#endif
  auto options = parseOptions(argc, argv);
  if (!options) {
    llvm::errs() << "accyc: " << llvm::toString(options.takeError()) << "\n";
    return ExitUsage;
  }
  switch (options->command) {
  case Command::Help:
    llvm::outs() << usageText();
    return ExitOk;
  case Command::Version:
    llvm::outs() << "accyc " << ACCY_VERSION << " (revision "
                 << ACCY_REVISION << ", LLVM/MLIR " << LLVM_VERSION_STRING
                 << ")\nbuild id " << compilerBuildId() << "\n";
    return ExitOk;
  default:
    break;
  }

  if (options->command == Command::Cache)
    return runCache(*options);
  // Every compile of this process reads and writes one kernel store.
  std::unique_ptr<KernelStore> store;
  if (options->command != Command::Show) {
    auto config = storeConfigFor(*options);
    if (!config) {
      llvm::errs() << "accyc: " << llvm::toString(config.takeError()) << "\n";
      return ExitUsage;
    }
    if (*config) {
      store = std::make_unique<KernelStore>(std::move(**config));
      options->store = store.get();
    }
  }

  // The stage pipelines are built from C++ (buildStagePipeline); accyc
  // needs no textual pass registry.
  if (options->command == Command::ListPasses) {
    StageOptions stageOptions;
    stageOptions.targets = options->targets;
    printStagePasses(llvm::outs(), stageOptions);
    return ExitOk;
  }

  // The LLVM backends (NVPTX, AMDGPU, x86-64) are initialised by the target
  // stage when it first needs them, not at start-up.
  mlir::DialectRegistry registry;
  accy::registerAccyDialects(registry);
  // Threads compile independent kernels of a stage at once. The context is
  // never destroyed (keepUntilExit).
  mlir::MLIRContext &context = *new mlir::MLIRContext(
      registry, mlir::MLIRContext::Threading::ENABLED);
  context.printOpOnDiagnostic(false);
  context.printStackTraceOnDiagnostic(false);

  if (!options->timeTraceFile.empty())
    startTimeTrace();
  int exitCode = ExitUsage;
  switch (options->command) {
  case Command::Build:
    exitCode = runBuild(context, *options);
    break;
  case Command::Stage:
    exitCode = runStageCommand(context, *options);
    break;
  case Command::Check:
    exitCode = runCheck(context, *options);
    break;
  case Command::Show:
    exitCode = runShow(context, *options);
    break;
  default:
    break;
  }
  if (!options->timeTraceFile.empty())
    if (llvm::Error err = finishTimeTrace(options->timeTraceFile)) {
      llvm::errs() << "accyc: cannot write the time trace: "
                   << llvm::toString(std::move(err)) << "\n";
      exitCode = std::max(exitCode, int(ExitInternal));
    }
  // A store that could not be written never fails the command.
  if (store)
    if (std::optional<std::string> warning = store->takeWarning())
      llvm::errs() << "accyc: warning: " << *warning << "\n";
  if (store)
    for (const std::string &warning : store->takeRemoteWarnings())
      llvm::errs() << "accyc: warning: " << warning << "\n";
  // The store writes its counters as it closes; then nothing is left to
  // write but the streams, and static destructors have nothing to save.
  store.reset();
  llvm::outs().flush();
  llvm::errs().flush();
  std::_Exit(exitCode);
}
