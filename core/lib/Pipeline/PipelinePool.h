//===- PipelinePool.h - Stage pipelines for the kernel threads --*- C++ -*-===//
//
// A stage runs its pipeline on each kernel it compiles, on several threads
// at once. A pass manager is not reentrant, so each thread takes an idle
// pipeline run from the stage's pool or makes a new one; a run collects the
// statistics and failures of every kernel it compiles.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LIB_PIPELINE_PIPELINEPOOL_H
#define ACCY_LIB_PIPELINE_PIPELINEPOOL_H

#include "FaultContainment.h"

#include "accy/Pipeline/StageRecord.h"
#include "accy/Pipeline/StageRunner.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <memory>
#include <mutex>
#include <vector>

namespace accy {

class SourceMap;
class StageInstrumentation;

/// Runs a stage pipeline on standalone kernel modules, collecting the
/// statistics and failures of every run.
class PipelineRun {
public:
  PipelineRun(mlir::MLIRContext *context, StageId stage,
              const StageOptions &options);

  /// Runs the pipeline on `kernel`; failures are appended to `failures`.
  /// After a crash (a signal or a fatal error inside a pass, recovered by
  /// LLVM's crash recovery where the process enabled it) `crashed()` holds:
  /// `kernel` and this run's pass manager may be left inconsistent and must
  /// not be used (nor destroyed) again.
  mlir::LogicalResult run(mlir::ModuleOp kernel, bool inputVerified,
                          const SourceMap *sourceMap,
                          std::vector<FailureRecord> &failures,
                          RunningKernels &running);

  bool crashed() const { return crashed_; }

  const StageInstrumentation &stats() const { return *instrumentation; }

  /// Loads the dialects the pipeline may create. A context cannot load
  /// dialects while threads use it, so this runs before they start.
  void loadDependentDialects(mlir::MLIRContext *context);

private:
  StageId stage;
  mlir::PassManager pm;
  StageInstrumentation *instrumentation; // owned by pm
  bool verifyEachPass;
  bool crashed_ = false;
};

/// Pipeline runs for the threads that compile kernels: each thread takes an
/// idle run (a pass manager is not reentrant) or makes a new one.
class PipelinePool {
public:
  PipelinePool(mlir::MLIRContext *context, StageId stage,
               const StageOptions &options)
      : context(context), stage(stage), options(options) {}
  /// Runs that crashed are leaked, not destroyed: destroying them could
  /// crash again, outside any recovery.
  ~PipelinePool();

  PipelineRun *acquire();
  /// Gives `run` back for another kernel, unless it crashed.
  void release(PipelineRun *run);

  /// The statistics and per-pass timings of every run, summed.
  void collect(StageRecord &record) const;

private:
  mlir::MLIRContext *context;
  StageId stage;
  const StageOptions &options;
  std::mutex mutex;
  std::vector<std::unique_ptr<PipelineRun>> all;
  std::vector<PipelineRun *> idle;
};

} // namespace accy

#endif // ACCY_LIB_PIPELINE_PIPELINEPOOL_H
