//===- FaultContainment.h - Crashes and faults inside passes ----*- C++ -*-===//
//
// A crash inside a pass becomes an internal failure of the kernel it was
// compiling, not of the process that runs the compiler (the language
// server); and the fault injection hook (accy/Support/CrashContainment.h)
// makes passes fail, break the IR or crash on purpose, for the tests.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LIB_PIPELINE_FAULTCONTAINMENT_H
#define ACCY_LIB_PIPELINE_FAULTCONTAINMENT_H

#include "llvm/ADT/DenseMap.h"

#include <atomic>
#include <mutex>
#include <string>

namespace mlir {
class MLIRContext;
class Operation;
} // namespace mlir

namespace accy {

/// A crash that a thread other than the kernel's own recovered from, for
/// that kernel's run to report.
struct NestedCrash {
  std::atomic<bool> crashed{false};
  std::mutex mutex;
  std::string pass;
  std::string description;
};

/// The kernels a stage run is compiling, by their (detached) module.
class RunningKernels {
public:
  void add(mlir::Operation *root, NestedCrash *crash) {
    std::lock_guard<std::mutex> lock(mutex);
    kernels[root] = crash;
  }
  void remove(mlir::Operation *root) {
    std::lock_guard<std::mutex> lock(mutex);
    kernels.erase(root);
  }
  NestedCrash *find(mlir::Operation *root) {
    std::lock_guard<std::mutex> lock(mutex);
    return kernels.lookup(root);
  }

private:
  std::mutex mutex;
  llvm::DenseMap<mlir::Operation *, NestedCrash *> kernels;
};

/// The kernels every stage run in the process is compiling (stage runs on
/// one context may overlap: accy-lsp's code generation beside the next
/// edit's check).
RunningKernels &runningKernels();

/// Wraps every pass execution on `context` so that a crash in a pass of a
/// kernel some stage run is compiling is recovered and reported for that
/// kernel, and injected faults apply (installed once per context, only
/// when crash recovery is enabled or the test hook is set).
void installPassExecutionGuard(mlir::MLIRContext *context);

} // namespace accy

#endif // ACCY_LIB_PIPELINE_FAULTCONTAINMENT_H
