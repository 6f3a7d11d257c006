//===- StageInstrumentation.h - Pass statistics of a stage run --*- C++ -*-===//
#ifndef ACCY_LIB_PIPELINE_STAGEINSTRUMENTATION_H
#define ACCY_LIB_PIPELINE_STAGEINSTRUMENTATION_H

#include "accy/Pipeline/StageRecord.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

#include <chrono>
#include <vector>

namespace accy {

/// Counts pass runs, failures and analysis computations; with
/// `countModified`, also the passes that modified the IR; with `timePasses`,
/// also per-pass time and op counts.
class StageInstrumentation : public mlir::PassInstrumentation {
public:
  StageInstrumentation(bool countModified, bool timePasses)
      : countModified(countModified), timePasses(timePasses) {}

  void runBeforePass(mlir::Pass *pass, mlir::Operation *op) override;
  void runAfterPass(mlir::Pass *pass, mlir::Operation *op) override;
  void runAfterPassFailed(mlir::Pass *pass, mlir::Operation *op) override;
  void runBeforeAnalysis(llvm::StringRef name, mlir::TypeID id,
                         mlir::Operation *op) override;
  void runAfterAnalysis(llvm::StringRef name, mlir::TypeID id,
                        mlir::Operation *op) override;

  const PassStatistics &statistics() const { return stats; }
  std::vector<PassTiming> timings() const;
  /// The argument of the last pass that failed, if any.
  llvm::StringRef failedPass() const { return lastFailedPass; }
  /// The innermost pass still running (after a crash: the one that crashed).
  llvm::StringRef runningPass() const {
    return stack.empty() ? llvm::StringRef() : stack.back().pass->getArgument();
  }

private:
  using Clock = std::chrono::steady_clock;
  struct Frame {
    mlir::Pass *pass;
    uint64_t before; // irSignature() of the op before the pass, if counted
    Clock::time_point start;
    uint64_t opsBefore;
    size_t heapBefore;
  };
  PassTiming &timingFor(mlir::Pass *pass);

  bool countModified;
  bool timePasses;
  PassStatistics stats;
  std::vector<Frame> stack;
  std::vector<Clock::time_point> analysisStarts;
  llvm::DenseSet<std::pair<mlir::Operation *, mlir::TypeID>> computed;
  llvm::StringMap<PassTiming> perPass;
  std::vector<std::string> passOrder;
  std::string lastFailedPass;
};

} // namespace accy

#endif // ACCY_LIB_PIPELINE_STAGEINSTRUMENTATION_H
