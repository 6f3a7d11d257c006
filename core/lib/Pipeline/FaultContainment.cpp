//===- FaultContainment.cpp - Crashes and faults inside passes ------------===//

#include "FaultContainment.h"

#include "accy/Pipeline/Product.h"
#include "accy/Support/CrashContainment.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/CrashRecoveryContext.h"

using namespace accy;
using namespace mlir;

RunningKernels &accy::runningKernels() {
  static RunningKernels kernels;
  return kernels;
}

namespace {
/// Lets the fault injection hook make a pass fail as if it had called
/// signalPassFailure.
struct PassFailureAccess : mlir::Pass {
  static void signalFailure(const mlir::Pass &pass) {
    (const_cast<mlir::Pass &>(pass).*&PassFailureAccess::signalPassFailure)();
  }
};

/// Wraps every pass execution on a context that runs stages (an MLIR action
/// handler, installed by the first stage run on the context and kept for
/// its lifetime, so that overlapping stage runs never install or remove it
/// under each other; only when crash recovery is enabled or the test hook
/// is set). Passes of kernels no stage run is compiling run as they would
/// without it.
///
/// A pass on the kernel module runs on the kernel's own thread, inside the
/// recovery context of that kernel's run (PipelineRun::run). A pass of a
/// nested pass manager (over functions, GPU modules) may run on any thread
/// of the pool when the context is multithreaded, as a task of a parallel
/// loop: it gets a recovery context of its own, and its crash is recorded
/// for the kernel's run, which stops at its next pass and reports it.
class PassExecutionGuard {
public:
  /// Installs the handler on `context` unless it has one (ours, from an
  /// earlier stage run: the first stage run of a context overlaps no other).
  static void install(MLIRContext *context) {
    if (!injectedFault() && !crashRecoveryEnabled())
      return;
    if (!context->hasActionHandler())
      context->registerActionHandler(handle);
  }

private:
  static void handle(llvm::function_ref<void()> transform,
                     const tracing::Action &action) {
    auto *exec = dyn_cast<PassExecutionAction>(&action);
    if (!exec)
      return transform();
    Operation *root = exec->getOp();
    while (Operation *parent = root->getParentOp())
      root = parent;
    const std::optional<InjectedFault> &fault = injectedFault();
    auto body = [&] {
      if (fault)
        return inject(*fault, *exec, root, transform);
      transform();
    };
    NestedCrash *crash = runningKernels().find(root);
    if (!crash || !crashRecoveryEnabled())
      return body();
    llvm::CrashRecoveryContext *own = llvm::CrashRecoveryContext::GetCurrent();
    if (own && exec->getOp() == root) {
      // A pass on the kernel module itself, on the kernel's own thread,
      // inside its run's recovery context: a crash here unwinds to that run
      // through pass manager frames only. A crash a nested pass recovered
      // from ends the run here, before this pass works on the IR it left.
      if (crash->crashed.load())
        own->HandleExit(1);
      return body();
    }
    // A pass of a nested pass manager (on a function, a GPU module, ...),
    // maybe on another thread of the pool, maybe as one of several tasks
    // of a parallel loop: unwinding past that loop would leave its other
    // tasks running on a stack that is gone, so the crash is recovered
    // here, and the loop ends normally.
    if (crash->crashed.load())
      return; // no more passes on IR a crash left inconsistent
    std::optional<std::string> description = runRecoveringCrash(body);
    if (!description)
      return;
    std::lock_guard<std::mutex> lock(crash->mutex);
    if (crash->crashed.load())
      return;
    crash->pass = exec->getPass().getArgument().str();
    crash->description = std::move(*description);
    crash->crashed.store(true);
  }

  /// Runs the pass (`transform`) with the fault where it applies.
  static void inject(const InjectedFault &fault,
                     const PassExecutionAction &exec, Operation *root,
                     llvm::function_ref<void()> transform) {
    auto module = dyn_cast<ModuleOp>(root);
    llvm::StringRef kernel = module && module->hasAttr(kKernelAttr)
                                 ? kernelName(module)
                                 : llvm::StringRef();
    if (!fault.appliesTo(exec.getPass().getArgument(), kernel))
      return transform();
    switch (fault.mode) {
    case InjectedFault::Fail:
      exec.getOp()->emitError() << fault.failureMessage();
      PassFailureAccess::signalFailure(exec.getPass());
      return transform();
    case InjectedFault::Invalid:
      return breakIR(exec, root, transform);
    case InjectedFault::Crash:
    case InjectedFault::Abort:
    case InjectedFault::Fatal:
      fault.raise();
    }
  }

  /// Runs the pass, then leaves what a pass that breaks the IR would: at
  /// the start of the kernel module, an unrealized_conversion_cast without
  /// operands or results, which its verifier rejects, on the module's
  /// location (the kernel's name). As with --verify-each, the IR is verified
  /// after the pass and the pass fails: the verifier failure names this
  /// pass, and no later pass works on the broken IR. Only a pass on the
  /// kernel module is broken: it runs on the kernel's own thread, where the
  /// verifier's errors reach the kernel's FailureCapture (the cast, not
  /// isolated from above, is verified on that thread too). A pass of a
  /// nested pass manager may run on any thread of the pool, where they
  /// would reach another kernel's, so it runs as without the fault.
  static void breakIR(const PassExecutionAction &exec, Operation *root,
                      llvm::function_ref<void()> transform) {
    auto module = dyn_cast<ModuleOp>(root);
    if (!module || exec.getOp() != root)
      return transform();
    // The pass manager reads a pass's failure as the pass returns.
    PassFailureAccess::signalFailure(exec.getPass());
    transform();
    auto builder = OpBuilder::atBlockBegin(module.getBody());
    builder.create<UnrealizedConversionCastOp>(module.getLoc(), TypeRange(),
                                               ValueRange());
    // Reports what does not verify, as the pass manager's verifier would;
    // the pass has failed already.
    (void)mlir::verify(module);
  }
};
} // namespace

void accy::installPassExecutionGuard(MLIRContext *context) {
  PassExecutionGuard::install(context);
}
