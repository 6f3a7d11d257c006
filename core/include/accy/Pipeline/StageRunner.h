//===- StageRunner.h - Runs one stage over a product ------------*- C++ -*-===//
#ifndef ACCY_PIPELINE_STAGERUNNER_H
#define ACCY_PIPELINE_STAGERUNNER_H

#include "accy/Pipeline/StageRecord.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>
#include <vector>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace accy {

class ProductCache;
class SourceMap;

struct StageOptions {
  /// Target profile names (sm_90, gfx942, host, ...), for the stages that
  /// take them.
  std::vector<std::string> targets;
  std::string buildId;
  bool collectPassTimings = false;
  /// Verify the IR after every pass, not only after each stage: slower, and
  /// names the pass that broke the IR. Products do not depend on it.
  bool verifyEachPass = false;

  /// The canonical option text of `stage`: part of its keys.
  std::string canonicalText(StageId stage) const;
};

/// Adds the pass pipeline of `stage` (not semantic, which is the frontend)
/// to `pm`, anchored on one kernel module.
void buildStagePipeline(StageId stage, mlir::OpPassManager &pm,
                        const StageOptions &options);

struct StageOutput {
  mlir::OwningOpRef<mlir::ModuleOp> product; // null when the stage failed
  StageRecord record;
};

/// Runs `stage` on every kernel of `input` (a product of the previous
/// stage). A kernel whose key is in `cache` is reused without running the
/// pipeline. Failures are returned in the record with the pass, the op and
/// the source range (through `sourceMap`, when given); no partial product is
/// returned.
StageOutput runStage(StageId stage, mlir::ModuleOp input,
                     const StageOptions &options, const SourceMap *sourceMap,
                     ProductCache *cache);

} // namespace accy

#endif // ACCY_PIPELINE_STAGERUNNER_H
