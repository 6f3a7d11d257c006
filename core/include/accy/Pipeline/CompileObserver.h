//===- CompileObserver.h - What a compile reports as it runs ----*- C++ -*-===//
//
// The events of a compile, for whoever shows its progress (accy-lsp's
// work-done progress and statistics, accyc's table), and how its caller
// steers it. Neither is part of any key: they change when a compile stops
// and who hears of it, never what it makes.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_PIPELINE_COMPILEOBSERVER_H
#define ACCY_PIPELINE_COMPILEOBSERVER_H

#include "accy/Pipeline/Stage.h"

#include <atomic>
#include <optional>

namespace accy {

struct KernelStageRecord;
struct StageRecord;

/// Called on the thread that runs the compile, in order: a stage starts,
/// each of its kernels is done (compiled, reused, stored or failed), the
/// stage ends.
class CompileObserver {
public:
  virtual ~CompileObserver();
  virtual void stageStarted(StageId stage);
  virtual void kernelDone(StageId stage, const KernelStageRecord &kernel);
  virtual void stageDone(const StageRecord &record);
};

/// How one compile runs.
struct RunControl {
  /// The last stage to run (at most the compiler's CompileOptions::stopAfter).
  std::optional<StageId> stopAfter;
  /// Set by another thread to stop the compile before the next kernel
  /// starts compiling; the stage then makes no product (its record says
  /// NotRun) and the Compilation says it was cancelled.
  const std::atomic<bool> *cancelled = nullptr;
  CompileObserver *observer = nullptr;

  bool isCancelled() const { return cancelled && cancelled->load(); }
};

} // namespace accy

#endif // ACCY_PIPELINE_COMPILEOBSERVER_H
