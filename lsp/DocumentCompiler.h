//===- DocumentCompiler.h - One document through the seven stages -*- C++ -*-===//
//
// Compiles successive versions of one document with the shared core,
// stage by stage, so that a newer edit can stop an older compile between
// stages and progress can be reported per stage. Kernel products are reused
// by product key from the document's own cache (ARCHITECTURE.md,
// "Incrementality"); the cache is trimmed to the products of the latest
// complete compile when it grows, so memory stays bounded while editing.
//
// A compile hands out its result twice: once the stages that check the
// program (semantic to kernel) have run, and again when the target stage
// has generated code, which takes longer than all of them together. The
// first is what diagnostics are published from, as `cargo check` or
// clangd publish without generating code; the second shares its products.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LSP_DOCUMENTCOMPILER_H
#define ACCY_LSP_DOCUMENTCOMPILER_H

#include "DocumentStore.h"

#include "accy/Pipeline/Compiler.h"

#include "llvm/Support/ThreadPool.h"

#include <array>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>

namespace accy::lsp {

/// One compile of one document version. Holds the MLIR context its
/// products live in, so it may outlive the compiler that made it.
class CompileResult : public std::enable_shared_from_this<CompileResult> {
public:
  const DocumentSnapshot &document() const { return snapshot; }
  uint64_t generation() const { return compileGeneration; }
  /// The semantic stage: frontend diagnostics, sources, source map.
  const Compilation &semantic() const { return *semanticStage; }
  mlir::ModuleOp product(StageId stage) const;
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
  /// False once the products after `semantic` were released to bound the
  /// server's memory (records, diagnostics and the source map remain).
  bool retainsProducts() const { return retained; }
  /// A copy without the products after `semantic`.
  std::shared_ptr<const CompileResult> withoutProducts() const;

private:
  friend class DocumentCompiler;
  /// A copy sharing this result's parts; the products only when asked.
  std::shared_ptr<CompileResult> copy(bool withProducts) const;

  std::shared_ptr<mlir::MLIRContext> context; // Destroyed last.
  DocumentSnapshot snapshot;
  uint64_t compileGeneration = 0;
  std::shared_ptr<const Compilation> semanticStage;
  /// Shared by the two results of one compile.
  std::array<std::shared_ptr<mlir::OwningOpRef<mlir::ModuleOp>>, kNumStages>
      products;
  std::array<StageRecord, kNumStages> records;
  double elapsed = 0;
  bool retained = true;
  bool isComplete = true;
};

class DocumentCompiler {
public:
  /// Called before each stage runs.
  using StageCallback = std::function<void(StageId stage)>;
  /// Called with the result of the stages before `target`, when they
  /// succeeded and the target stage is about to run.
  using CheckedCallback =
      std::function<void(std::shared_ptr<const CompileResult> checked)>;

  DocumentCompiler(CompileOptions options, llvm::ThreadPoolInterface *pool);
  ~DocumentCompiler();

  /// Compiles `document` through every stage; null when `cancelled` was set
  /// before the compile finished (a newer version is coming).
  std::shared_ptr<const CompileResult>
  compile(const DocumentSnapshot &document, uint64_t generation,
          const std::atomic<bool> &cancelled, const StageCallback &onStage,
          const CheckedCallback &onChecked);

  /// Kernel products held for reuse.
  size_t cachedProducts() const { return cache.size(); }
  /// Forgets the products held for reuse: the next compile builds every
  /// kernel again.
  void releaseProducts() { cache.clear(); }

private:
  /// What `result` holds so far, sharing its products: the stages before
  /// `target` of a compile that began at `start`.
  static std::shared_ptr<const CompileResult>
  checkedPart(const CompileResult &result,
              std::chrono::steady_clock::time_point start);
  void trimCache(const CompileResult &latest);

  CompileOptions options;
  std::shared_ptr<mlir::MLIRContext> context;
  ProductCache cache;
};

} // namespace accy::lsp

#endif // ACCY_LSP_DOCUMENTCOMPILER_H
