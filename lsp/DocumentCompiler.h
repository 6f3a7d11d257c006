//===- DocumentCompiler.h - One document through the seven stages -*- C++ -*-===//
//
// Compiles successive versions of one document with the shared core,
// stage by stage, so that a newer edit can stop an older compile between
// stages and progress can be reported per stage. Kernel products are reused
// by product key from the document's own cache (ARCHITECTURE.md,
// "Incrementality"); the cache is trimmed to the products of the latest
// complete compile when it grows, so memory stays bounded while editing.
//
// A compile comes in two parts: check() runs the stages that check the
// program (semantic to kernel), and code generation the target stage, whose
// LLVM work takes longer than all of them together. Diagnostics are
// published after the first, as `cargo check` and clangd publish without
// generating code. Code generation runs in units of one kernel for one
// target (generateKernel), each short enough that a check waits at most for
// one; assemble() then makes the complete result from the caches.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LSP_DOCUMENTCOMPILER_H
#define ACCY_LSP_DOCUMENTCOMPILER_H

#include "DocumentStore.h"

#include "accy/Pipeline/Compiler.h"

#include "llvm/Support/ThreadPool.h"

#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace accy::lsp {

/// One compile of one document version. Holds the MLIR context its
/// products live in, so it may outlive the compiler that made it.
class CompileResult : public std::enable_shared_from_this<CompileResult> {
public:
  const DocumentSnapshot &document() const { return snapshot; }
  uint64_t generation() const { return compileGeneration; }
  /// The semantic stage: frontend diagnostics, sources, source map.
  const Compilation &semantic() const { return *semanticStage; }
  /// Whether `stage` made a product this result holds (it ran, succeeded,
  /// and its products were not released).
  bool hasProduct(StageId stage) const;
  /// The kernel modules of `stage`'s product, in order; none without one.
  llvm::SmallVector<mlir::ModuleOp> kernels(StageId stage) const;
  /// The module of `kernel` in `stage`'s product, or null.
  mlir::ModuleOp kernel(StageId stage, llvm::StringRef name) const;
  const StageRecord &record(StageId stage) const {
    return records[stageIndex(stage)];
  }
  const std::array<StageRecord, kNumStages> &allRecords() const {
    return records;
  }
  std::vector<FailureRecord> failures() const;
  /// Wall time of the whole compile (of the stages before `target` while
  /// !complete()).
  double seconds() const { return elapsed; }
  /// False in the result handed out before the target stage ran; its
  /// target record is empty.
  bool complete() const { return isComplete; }
  /// The last stage whose product this result holds (semantic when only
  /// the frontend ran), or nothing.
  std::optional<StageId> lastProduct() const;
  /// False once the products were released to bound the server's memory
  /// (records, diagnostics and the source map remain; no IR, so the result
  /// no longer holds the document's MLIR context).
  bool retainsProducts() const { return retained; }
  /// A copy without the products (the semantic stage's too).
  std::shared_ptr<const CompileResult> withoutProducts() const;

private:
  friend class DocumentCompiler;
  /// A copy sharing this result's parts; the products only when asked.
  std::shared_ptr<CompileResult> copy(bool withProducts) const;

  std::shared_ptr<mlir::MLIRContext> context; // Destroyed last.
  DocumentSnapshot snapshot;
  uint64_t compileGeneration = 0;
  std::shared_ptr<const Compilation> semanticStage;
  /// The kernels of every stage after `semantic` that made a product,
  /// shared with the document's product caches and with the other result
  /// of the same compile (never changed: read by any thread).
  std::array<std::optional<std::vector<SharedKernel>>, kNumStages> products;
  std::array<StageRecord, kNumStages> records;
  double elapsed = 0;
  bool retained = true;
  bool isComplete = true;
};

/// What one background unit did: one kernel through the stages its base
/// lacked, the target stage for one target.
struct KernelRun {
  std::string kernel;
  std::string target;
  /// One record per stage it ran (of that kernel alone).
  std::vector<StageRecord> records;
  /// Whether a stage compiled the kernel rather than finding it cached.
  bool compiledAny = false;
  bool failed = false;
};

class DocumentCompiler {
public:
  /// Called before each stage runs.
  using StageCallback = std::function<void(StageId stage)>;

  DocumentCompiler(CompileOptions options, llvm::ThreadPoolInterface *pool);
  ~DocumentCompiler();

  /// Runs the stages that check `document`, semantic to kernel; null when
  /// `cancelled` was set first (a newer version is coming). The result is
  /// complete() unless the target stage is still to run.
  std::shared_ptr<const CompileResult>
  check(const DocumentSnapshot &document, uint64_t generation,
        const std::atomic<bool> &cancelled, const StageCallback &onStage);
  /// The semantic stage alone: the base from which background units
  /// compile a document whose products were released.
  std::shared_ptr<const CompileResult> frontend(const DocumentSnapshot &document,
                                                uint64_t generation);
  /// Runs the stages after `base`'s last product, up to target, on its
  /// kernel `index` alone, the target stage for `target` alone. The
  /// products go to the caches, where assemble() finds them by key (and
  /// joins a kernel's units once every target's is there).
  KernelRun generateKernel(const CompileResult &base, size_t index,
                           llvm::StringRef target);
  /// The complete result of `base` (from check() or frontend()): the stages
  /// it lacks, from the caches (a kernel no unit made compiles now), with
  /// what `runs` compiled shown as compiled.
  std::shared_ptr<const CompileResult>
  assemble(const CompileResult &base, llvm::ArrayRef<KernelRun> runs);

  /// Kernel products held for reuse.
  size_t cachedProducts() const { return checkedProducts + targetProducts; }
  /// Forgets the products held for reuse, and compiles in a fresh MLIR
  /// context from now on: the next compile builds every kernel again.
  /// Nothing of this compiler may be running, and no result made before may
  /// be a base of generateKernel() or assemble() again.
  void releaseProducts();

private:
  /// Runs `stage` on the kernels of the stage before it in `result`, reusing
  /// from `stageCache`, and keeps its kernels and record in `result`; false
  /// when the stage failed.
  bool runStageOn(StageId stage, CompileResult &result,
                  ProductCache &stageCache);
  /// Runs the stages after semantic that `result` lacks, up to stopAfter
  /// (`checkOnly`: up to kernel), stopping early when `cancelled` is set;
  /// false when cancelled, else whether every stage succeeded in `ok`.
  bool runLaterStages(CompileResult &result, bool checkOnly,
                      const std::atomic<bool> &cancelled,
                      const StageCallback &onStage, bool &ok);
  ProductCache &cacheOf(StageId stage) {
    return stage == StageId::Target ? targetCache : cache;
  }
  /// Keeps in `stageCache` only the products of `stages` in `latest`, once
  /// older ones outnumber them.
  static void trimCache(ProductCache &stageCache, const CompileResult &latest,
                        llvm::ArrayRef<StageId> stages);

  std::shared_ptr<mlir::MLIRContext> makeContext() const;

  CompileOptions options;
  llvm::ThreadPoolInterface *pool;
  std::shared_ptr<mlir::MLIRContext> context;
  /// The products of the stages check() runs, and those of the target stage.
  ProductCache cache, targetCache;
  std::atomic<size_t> checkedProducts{0}, targetProducts{0};
};

} // namespace accy::lsp

#endif // ACCY_LSP_DOCUMENTCOMPILER_H
