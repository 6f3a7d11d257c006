//===- Commands.h - accyc's commands ----------------------------*- C++ -*-===//
#ifndef ACCY_DRIVER_COMMANDS_H
#define ACCY_DRIVER_COMMANDS_H

#include "Options.h"

#include "accy/Pipeline/Compiler.h"
#include "accy/Pipeline/KernelStore.h"

#include <type_traits>
#include <utility>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace accy::driver {

/// Exit codes of accyc.
enum ExitCode { ExitOk = 0, ExitDiagnostics = 1, ExitUsage = 2, ExitInternal = 3 };

/// The exit code of a compile: ok, diagnostics, or internal when any
/// failure was the compiler's own.
int exitCodeFor(const Compilation &c);

/// The compile options the command line asks for.
CompileOptions compileOptionsFor(const Options &options);

/// accyc runs one command and exits: what a command built (a file's IR, the
/// MLIR context) is left for the operating system to reclaim, which is
/// faster than MLIR's destructors freeing it op by op (a tenth of an
/// `accyc stage` step on the later stages). Only for what holds no file or
/// store still to be written.
template <typename T> void keepUntilExit(T &&value) {
  new std::decay_t<T>(std::forward<T>(value));
}

int runBuild(mlir::MLIRContext &context, const Options &options);
int runStageCommand(mlir::MLIRContext &context, const Options &options);
int runCheck(mlir::MLIRContext &context, const Options &options);
int runShow(mlir::MLIRContext &context, const Options &options);
int runCache(const Options &options);

/// The kernel store `options` and the environment name: none with
/// --no-cache or $ACCY_CACHE_DISABLE (unless --cache-dir names one).
llvm::Expected<std::optional<KernelStoreConfig>>
storeConfigFor(const Options &options);

} // namespace accy::driver

#endif // ACCY_DRIVER_COMMANDS_H
