//===- accyc.cpp - The Accy compiler driver -------------------------------===//

#include "Commands.h"
#include "Options.h"
#include "Report.h"

#include "accy/Pipeline/BuildId.h"
#include "accy/Pipeline/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include "accy/Config.h"

#include <csignal>

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
  // Threads compile independent kernels of a stage at once.
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::ENABLED);
  context.printOpOnDiagnostic(false);
  context.printStackTraceOnDiagnostic(false);

  switch (options->command) {
  case Command::Build:
    return runBuild(context, *options);
  case Command::Stage:
    return runStageCommand(context, *options);
  case Command::Check:
    return runCheck(context, *options);
  case Command::Show:
    return runShow(context, *options);
  default:
    return ExitUsage;
  }
}
