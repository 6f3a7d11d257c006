//===- Compiler.h - The staged compile engine -------------------*- C++ -*-===//
//
// The one compile engine of accyc build, accyc stage and accy-lsp. A
// Compiler runs a file, an editor's buffer or a stage file's product from
// any stage to any stage, kernel by kernel: every kernel whose product key
// it has seen is reused (from its product cache, then from the kernel store
// on disk), the others compile in parallel. It reports each stage and kernel
// to an observer, stops between kernels when its caller cancels, and yields
// one record of the compile, a Compilation. accy-lsp also runs it one kernel
// at a time (compileKernel) for background code generation.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_PIPELINE_COMPILER_H
#define ACCY_PIPELINE_COMPILER_H

#include "accy/Frontend/Diagnostic.h"
#include "accy/Frontend/Source.h"
#include "accy/Pipeline/CompileObserver.h"
#include "accy/Pipeline/ProductCache.h"
#include "accy/Pipeline/SourceMap.h"
#include "accy/Pipeline/StageRecord.h"
#include "accy/Pipeline/StageRunner.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <array>
#include <memory>
#include <optional>

namespace accy {

struct SemanticResult;

struct CompileOptions {
  std::vector<std::string> includeDirs;
  StageOptions stages;
  /// The last stage to run.
  StageId stopAfter = StageId::Target;
  /// Runs each kernel's next stage as soon as its product of the stage
  /// before is made, instead of stage by stage (accyc build): where a stage
  /// has fewer kernels left than cores, a core goes on with another
  /// kernel's next stage. The records and products are the same.
  bool pipelineKernels = false;
};

/// The record of one compile: the product and record of every stage that
/// ran, each product checked to name its predecessor's keys. Stages after a
/// failure or a cancellation have no product. Products are kept per kernel
/// and shared with the compiler's cache, so a copy of a Compilation costs no
/// IR; they live in the compiler's MLIR context, which must outlive them.
class Compilation {
public:
  bool succeeded() const { return ok; }
  /// The caller stopped the compile: stages after lastStage() did not run.
  bool cancelled() const { return wasCancelled; }
  /// The last stage that produced a product.
  std::optional<StageId> lastStage() const { return last; }

  /// Whether `stage` made a product this record holds.
  bool hasProduct(StageId stage) const;
  /// The kernel modules of `stage`'s product, in order; none without one.
  llvm::SmallVector<mlir::ModuleOp> kernels(StageId stage) const;
  /// The module of `kernel` in `stage`'s product, or null.
  mlir::ModuleOp kernel(StageId stage, llvm::StringRef name) const;
  /// The kernel products of a stage after semantic, in order.
  llvm::ArrayRef<SharedKernel> kernelProducts(StageId stage) const;
  /// `stage`'s whole product, as a stage file holds it (for the stages
  /// after semantic, made from the kernels on first use); null without one.
  mlir::ModuleOp product(StageId stage) const;

  const StageRecord &record(StageId stage) const {
    return stageRecords[stageIndex(stage)];
  }
  const std::array<StageRecord, kNumStages> &records() const {
    return stageRecords;
  }
  /// Frontend diagnostics (the semantic stage), with their sources.
  const std::vector<Diagnostic> &diagnostics() const { return frontendDiags; }
  const SourceManager &sources() const { return *sourceManager; }
  const SourceMap &sourceMap() const { return map; }
  /// Files the semantic product depends on besides the main file (imports).
  const std::vector<std::string> &dependencies() const { return deps; }
  /// Every failure record of every stage, in stage order.
  std::vector<FailureRecord> failures() const;
  /// The same compile without its products (its sources shared): what may
  /// outlive the MLIR context the products live in.
  Compilation withoutProducts() const;

private:
  friend class Compiler;
  struct WholeProducts;
  /// Sets `stage`'s kernels (a stage that ran).
  void setKernels(StageId stage, std::vector<SharedKernel> kernels);

  bool ok = false;
  bool wasCancelled = false;
  std::optional<StageId> last;
  mlir::MLIRContext *context = nullptr;
  std::shared_ptr<const mlir::OwningOpRef<mlir::ModuleOp>> semanticProduct;
  std::array<std::optional<std::vector<SharedKernel>>, kNumStages> products;
  /// The whole products made from the kernels on request, shared by copies.
  std::shared_ptr<WholeProducts> whole;
  std::array<StageRecord, kNumStages> stageRecords;
  std::shared_ptr<const SourceManager> sourceManager;
  std::vector<Diagnostic> frontendDiags;
  SourceMap map;
  std::vector<std::string> deps;
};

/// What compileKernel did: one kernel through the stages its base lacked,
/// the target stage perhaps for one target alone.
struct KernelUnit {
  std::string kernel;
  /// One record per stage it ran (of that kernel alone).
  std::vector<StageRecord> records;
  /// Whether a stage compiled the kernel rather than finding it cached.
  bool compiledAny = false;
  bool failed = false;
};

class Compiler {
public:
  Compiler(mlir::MLIRContext &context, CompileOptions options);

  /// Compiles a file from disk (imports read from disk too).
  Compilation compileFile(llvm::StringRef path, const RunControl &control = {});
  /// Compiles `text` as the contents of `path` (an editor's buffer).
  Compilation compileBuffer(llvm::StringRef path, llvm::StringRef text,
                            const RunControl &control = {});
  /// Continues from a product of stage `from` read from a stage file (the
  /// source map, when there is one, maps failures back to the source).
  Compilation compileFrom(mlir::OwningOpRef<mlir::ModuleOp> product,
                          StageId from, SourceMap sourceMap,
                          const RunControl &control = {});
  /// Runs the stages after `c`'s last product, up to `control`'s stopAfter
  /// (else the options'), on `c`.
  void resume(Compilation &c, const RunControl &control = {});

  /// Runs kernel `index` of `base`'s last product alone through the stages
  /// after it, up to the options' stopAfter, the target stage for `target`
  /// alone when one is named (the stages before it for every target). The
  /// products go to the cache, where resume() finds them, joining a
  /// kernel's target units once every target's is there.
  KernelUnit compileKernel(const Compilation &base, size_t index,
                           std::optional<llvm::StringRef> target);
  /// Shows in `c`'s records what `units` compiled or took from the kernel
  /// store: a resume after them found those kernels in the cache, as if
  /// reused.
  static void creditUnits(Compilation &c, llvm::ArrayRef<KernelUnit> units);

  const CompileOptions &getOptions() const { return options; }
  /// The cache `stage`'s products go to: the target stage's products (PTX,
  /// objects: most of the bytes) have one of their own, so that a caller
  /// bounding memory can trim the two apart.
  ProductCache &cache(StageId stage) {
    return stage == StageId::Target ? targetCache : checkCache;
  }
  size_t cachedProducts() const {
    return checkCache.size() + targetCache.size();
  }

private:
  Compilation compileSemantic(SemanticResult semantic,
                              const RunControl &control);
  /// Runs `stage` on the product of the stage before it in `c`; false when
  /// the stage failed or was cancelled.
  bool runStageOn(Compilation &c, StageId stage, const RunControl &control);
  StageId lastStageOf(const RunControl &control) const;
  /// Runs kernel `index` of `base`'s last product (or `previous`, its
  /// product at the stage before) through `stage`, with `stageOptions`.
  StageKernels runKernelStage(const Compilation &base, size_t index,
                              StageId stage, const SharedKernel &previous,
                              const StageOptions &stageOptions);
  /// Runs every kernel of `c`'s last product through the stages up to
  /// `last`, each kernel on its own as its stages' inputs are made, on the
  /// calling thread and the context's (KernelPipeline.cpp). The products go
  /// to the caches, where the stage by stage run of resume() finds them.
  std::vector<KernelUnit> runKernelsAhead(const Compilation &c, StageId last);
  /// Whether the target stage's product of `input` for every target is in
  /// the cache or the store; one only a remote cache has is fetched into
  /// the local store.
  bool hasTargetProduct(const KernelProduct &input);

  mlir::MLIRContext &context;
  CompileOptions options;
  ProductCache checkCache, targetCache;
};

} // namespace accy

#endif // ACCY_PIPELINE_COMPILER_H
