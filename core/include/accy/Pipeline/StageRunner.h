//===- StageRunner.h - Runs one stage over a product ------------*- C++ -*-===//
#ifndef ACCY_PIPELINE_STAGERUNNER_H
#define ACCY_PIPELINE_STAGERUNNER_H

#include "accy/Pipeline/CompileObserver.h"
#include "accy/Pipeline/ProductCache.h"
#include "accy/Pipeline/StageRecord.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>
#include <vector>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace accy {

class KernelStore;
class SourceMap;

struct StageOptions {
  /// Target profile names (sm_90, gfx942, host, ...), for the stages that
  /// take them.
  std::vector<std::string> targets;
  std::string buildId;
  /// Count the passes that changed the IR (`accyc --stats`). It hashes the
  /// IR before and after every pass: about 4% of a cold build.
  bool countModifyingPasses = false;
  bool collectPassTimings = false;
  /// Verify the IR after every pass, not only after each stage: slower, and
  /// names the pass that broke the IR. Products do not depend on it.
  bool verifyEachPass = false;

  /// The store of kernel products on disk, asked after the in-process cache
  /// at the stages it keeps (isStoredStage); none: compile what the cache
  /// lacks. Not part of any key: an entry is served only for its own key.
  KernelStore *store = nullptr;
  /// After a remote cache served a kernel, fetch its later stored stages'
  /// entries too (RemotePrefetch.h): for a process that runs one stage,
  /// whose successors run in processes of their own (`accyc stage`).
  bool prefetchFollowingStages = false;
  /// The canonical option text of `stage`: part of its keys. Targets are a
  /// set: `--target sm_90,host` and `--target host,sm_90` share keys.
  std::string canonicalText(StageId stage) const;
};

/// Adds the pass pipeline of `stage` (not semantic, which is the frontend)
/// to `pm`, anchored on one kernel module.
void buildStagePipeline(StageId stage, mlir::OpPassManager &pm,
                        const StageOptions &options);

/// Loads the dialects `stage`'s pipeline may create: a context cannot load
/// dialects while threads use it, so this runs before they start.
void loadStageDialects(StageId stage, mlir::MLIRContext &context,
                       const StageOptions &options);

/// The fingerprint of a kernel product of `stage`: of the stage's plan
/// where it has one, else of the product without its keys.
uint64_t kernelFingerprint(StageId stage, mlir::ModuleOp kernel);

/// What runStageOnKernels made: the kernels of the stage's product, in input
/// order (none when the record says the stage failed).
struct StageKernels {
  std::vector<SharedKernel> kernels;
  StageRecord record;
};

/// Runs `stage` on kernel modules of the previous stage (keys set), in
/// `context`. A kernel whose key is in `cache` (then in the options' store)
/// is reused without running the pipeline; the others compile, in parallel
/// when the context has threads. The kernels made are shared with `cache`,
/// so a reuse costs no copy. Failures are returned in the record with the
/// pass, the op and the source range (through `sourceMap`, when given); no
/// partial product is returned. When `control` is cancelled, kernels not
/// yet started are not compiled and the record says NotRun. `control`'s
/// observer hears of each kernel and of the stage's end.
StageKernels runStageOnKernels(StageId stage, mlir::MLIRContext &context,
                               llvm::ArrayRef<mlir::ModuleOp> inputs,
                               const StageOptions &options,
                               const SourceMap *sourceMap, ProductCache *cache,
                               const RunControl &control = {});
/// The same on kernels a stage run made, whose content hashes they carry.
StageKernels runStageOnKernels(StageId stage, mlir::MLIRContext &context,
                               llvm::ArrayRef<SharedKernel> inputs,
                               const StageOptions &options,
                               const SourceMap *sourceMap, ProductCache *cache,
                               const RunControl &control = {});

} // namespace accy

#endif // ACCY_PIPELINE_STAGERUNNER_H
