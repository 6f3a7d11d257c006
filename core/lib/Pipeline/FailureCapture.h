//===- FailureCapture.h - Diagnostics of a stage into records ---*- C++ -*-===//
#ifndef ACCY_LIB_PIPELINE_FAILURECAPTURE_H
#define ACCY_LIB_PIPELINE_FAILURECAPTURE_H

#include "accy/Pipeline/StageRecord.h"

#include "mlir/IR/Diagnostics.h"

#include <thread>
#include <vector>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace accy {

class SourceMap;

/// Collects the error diagnostics its thread emits while it lives (instead
/// of printing them) and turns them into failure records.
class FailureCapture {
public:
  explicit FailureCapture(mlir::MLIRContext *context);

  bool hasErrors() const { return !errors.empty(); }

  /// Records for a failed pipeline run over the kernel `kernel`.
  /// `failedPass` is the pass the pass manager reports as failed (after a
  /// crash: the pass that was running). `kernelModule` is the IR the run
  /// left, or null after a crash (that IR may be inconsistent and is not
  /// read); `crash` then says what happened ("signal 11 (Segmentation
  /// fault)"), and is empty when the run returned.
  std::vector<FailureRecord> records(llvm::StringRef pipeline,
                                     llvm::StringRef failedPass,
                                     llvm::StringRef kernel,
                                     mlir::ModuleOp kernelModule,
                                     const SourceMap *sourceMap,
                                     llvm::StringRef crash = {}) const;

private:
  struct Captured {
    mlir::Location loc;
    std::string message;
    std::vector<std::string> notes;
  };
  std::vector<Captured> errors;
  std::thread::id owner;
  mlir::ScopedDiagnosticHandler handler;
};

} // namespace accy

#endif // ACCY_LIB_PIPELINE_FAILURECAPTURE_H
