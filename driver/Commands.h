//===- Commands.h - accyc's commands ----------------------------*- C++ -*-===//
#ifndef ACCY_DRIVER_COMMANDS_H
#define ACCY_DRIVER_COMMANDS_H

#include "Options.h"

#include "accy/Pipeline/Compiler.h"
#include "accy/Pipeline/KernelStore.h"

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
