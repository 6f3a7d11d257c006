//===- CrashContainment.h - Crashes as errors, where recovery is on -*- C++ -*-===//
//
// accy-lsp enables LLVM's crash recovery at start-up; then a crash, abort()
// or llvm::report_fatal_error inside compiler code run through these helpers
// becomes a description of what happened, and the process goes on. accyc
// does not enable it: there the same code crashes as compilers do.
// docs/lsp.md, "Fault containment", says what is and is not contained.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_SUPPORT_CRASHCONTAINMENT_H
#define ACCY_SUPPORT_CRASHCONTAINMENT_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace accy {

/// How the message of every contained crash begins. A failure whose error
/// begins so is an internal failure of the compiler, not of the program.
inline constexpr llvm::StringLiteral kInternalErrorPrefix =
    "internal compiler error";

/// Whether this process recovers from crashes (LLVM's
/// CrashRecoveryContext::Enable() was called).
bool crashRecoveryEnabled();

/// Installs, once per process, the fatal error handler that turns
/// llvm::report_fatal_error on a thread inside a crash recovery context into
/// a crash of that context (LLVM would exit or abort after the message).
/// Outside one it prints what LLVM prints and LLVM ends the process.
void installFatalErrorHandler();

/// What ended a recovery context's run that did not return (its RetCode):
/// the fatal error's reason, or the signal.
std::string crashDescription(int retCode);

/// Runs `body` inside a crash recovery context of its own. Returns what
/// ended it when it crashed (only possible with recovery enabled), else
/// nothing. After a crash, whatever `body` was working on may be
/// inconsistent: the caller leaks it rather than use or destroy it.
std::optional<std::string> runRecoveringCrash(llvm::function_ref<void()> body);

/// TEST HOOK, for the fault containment tests only:
///
///   ACCY_INJECT_FAULT=<site>:<fail|crash|abort|fatal|invalid>[:<kernel>]
///
/// A site is the argument of a pass (every run of it), or `codegen` (LLVM's
/// code generation of one target's module in the target stage, on a thread
/// of the pool). At that site, on every kernel or on kernel <kernel> only,
/// the code fails with an error (`fail`), writes through a null pointer
/// (`crash`), calls abort() as a failed assert does (`abort`) or calls
/// llvm::report_fatal_error (`fatal`). `invalid` (a pass on the kernel
/// module only; not `codegen`, nor a pass of a nested pass manager) lets the
/// pass run, then leaves IR that does not verify, as a buggy pass would, and
/// verifies it as --verify-each does: a verifier failure naming the pass.
/// Read once per process; a malformed value is ignored with a warning.
struct InjectedFault {
  enum Mode { Fail, Crash, Abort, Fatal, Invalid } mode;
  std::string site;
  std::string kernel; // empty: every kernel

  /// Whether the fault fires at `site` when compiling `kernel`.
  bool appliesTo(llvm::StringRef site, llvm::StringRef kernel) const {
    return site == this->site && (this->kernel.empty() || kernel == this->kernel);
  }
  /// Crashes, aborts or raises the fatal error (not for `fail` and
  /// `invalid`, whose failure the site makes in its own way).
  [[noreturn]] void raise() const;
  /// The error message of a `fail` fault.
  std::string failureMessage() const;
};

/// The fault ACCY_INJECT_FAULT asks for, if any.
const std::optional<InjectedFault> &injectedFault();

} // namespace accy

#endif // ACCY_SUPPORT_CRASHCONTAINMENT_H
