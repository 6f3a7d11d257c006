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

  /// Records for a failed pipeline run over `kernelModule`. `failedPass` is
  /// the pass the pass manager reports as failed; `crashed` says the run
  /// did not return normally.
  std::vector<FailureRecord> records(llvm::StringRef pipeline,
                                     llvm::StringRef failedPass,
                                     mlir::ModuleOp kernelModule,
                                     const SourceMap *sourceMap,
                                     bool crashed) const;

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
