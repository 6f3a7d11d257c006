//===- CrashContainment.cpp - Crashes as errors, where recovery is on -----===//

#include "accy/Support/CrashContainment.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <utility>

#include <unistd.h>

using namespace accy;

bool accy::crashRecoveryEnabled() {
  // LLVM keeps the switch private; a context enabled by it is current
  // inside RunSafely, a disabled one runs the function without one.
  static const bool enabled = [] {
    bool inside = false;
    llvm::CrashRecoveryContext probe;
    probe.RunSafely(
        [&] { inside = llvm::CrashRecoveryContext::GetCurrent() != nullptr; });
    return inside;
  }();
  return enabled;
}

/// The reason of the last fatal error raised on this thread inside a crash
/// recovery context.
static thread_local std::string fatalErrorReason;

static void onFatalError(void *, const char *reason, bool) {
  if (llvm::CrashRecoveryContext *crc =
          llvm::CrashRecoveryContext::GetCurrent()) {
    fatalErrorReason = reason;
    crc->HandleExit(1); // does not return: back to RunSafely
  }
  // What llvm::report_fatal_error prints without a handler.
  std::string message = std::string("LLVM ERROR: ") + reason + "\n";
  ssize_t written = ::write(2, message.data(), message.size());
  (void)written;
}

void accy::installFatalErrorHandler() {
  static std::once_flag once;
  std::call_once(once, [] { llvm::install_fatal_error_handler(onFatalError); });
}

std::string accy::crashDescription(int retCode) {
  if (!fatalErrorReason.empty())
    return "fatal error: " + std::exchange(fatalErrorReason, std::string());
  // LLVM's crash recovery reports 128 + the signal.
  if (retCode > 128) {
    int signal = retCode - 128;
    const char *name = strsignal(signal);
    return "signal " + std::to_string(signal) +
           (name ? std::string(" (") + name + ")" : std::string());
  }
  return "crash, exit code " + std::to_string(retCode);
}

std::optional<std::string>
accy::runRecoveringCrash(llvm::function_ref<void()> body) {
  installFatalErrorHandler();
  llvm::CrashRecoveryContext context;
  if (context.RunSafely(body))
    return std::nullopt;
  return crashDescription(context.RetCode);
}

void InjectedFault::raise() const {
  switch (mode) {
  case Crash:
    *static_cast<volatile int *>(nullptr) = 0;
    std::abort(); // not reached where null is unmapped
  case Abort:     // what a failed assert() does
    std::abort();
  case Fatal:
    llvm::report_fatal_error(llvm::Twine("ACCY_INJECT_FAULT: '") + site + "'");
  case Fail:
  case Invalid:
    break;
  }
  llvm_unreachable("a `fail` or `invalid` fault is made by its site, not raised");
}

std::string InjectedFault::failureMessage() const {
  return "ACCY_INJECT_FAULT: '" + site + "' fails";
}

const std::optional<InjectedFault> &accy::injectedFault() {
  static const std::optional<InjectedFault> fault =
      []() -> std::optional<InjectedFault> {
    const char *spec = std::getenv("ACCY_INJECT_FAULT");
    if (!spec || !*spec)
      return std::nullopt;
    llvm::SmallVector<llvm::StringRef, 3> parts;
    llvm::StringRef(spec).split(parts, ':');
    std::optional<InjectedFault::Mode> mode;
    if (parts.size() >= 2)
      mode = parts[1] == "fail"    ? std::optional(InjectedFault::Fail)
             : parts[1] == "crash" ? std::optional(InjectedFault::Crash)
             : parts[1] == "abort" ? std::optional(InjectedFault::Abort)
             : parts[1] == "fatal" ? std::optional(InjectedFault::Fatal)
             : parts[1] == "invalid"
                 ? std::optional(InjectedFault::Invalid)
                 : std::nullopt;
    // Code generation works on LLVM IR, which no MLIR verifier checks.
    bool invalidCodegen = mode == InjectedFault::Invalid && parts[0] == "codegen";
    if (!mode || invalidCodegen || parts.size() > 3 || parts[0].empty()) {
      llvm::errs() << "ACCY_INJECT_FAULT: expected "
                      "<site>:<fail|crash|abort|fatal|invalid>[:<kernel>] "
                      "(`invalid` only at a pass), not '"
                   << spec << "'; ignored\n";
      return std::nullopt;
    }
    return InjectedFault{*mode, parts[0].str(),
                         parts.size() == 3 ? parts[2].str() : std::string()};
  }();
  return fault;
}
