//===- DocumentCompiler.h - One document through the seven stages -*- C++ -*-===//
//
// The server's adapter to the core's compile engine (accy::Compiler) for
// one document: it keeps the MLIR context the document's products live in
// and the engine whose product cache reuses kernels by key across versions
// (ARCHITECTURE.md, "Incrementality"), trimmed to the products of the latest
// complete compile when it grows, so memory stays bounded while editing.
//
// A compile comes in two parts: check() runs the stages that check the
// program (semantic to kernel), and code generation the target stage, whose
// LLVM work takes longer than all of them together. Diagnostics are
// published after the first, as `cargo check` and clangd publish without
// generating code. Code generation runs in units of one kernel for one
// target (generateKernel), each short enough that a check waits at most for
// one; assemble() then makes the complete result from the cache.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LSP_DOCUMENTCOMPILER_H
#define ACCY_LSP_DOCUMENTCOMPILER_H

#include "DocumentStore.h"

#include "accy/Pipeline/Compiler.h"

#include "llvm/Support/ThreadPool.h"

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

namespace accy::lsp {

/// One compile of one document version: the engine's record of it and the
/// MLIR context its products live in, so it may outlive the compiler that
/// made it.
class CompileResult : public std::enable_shared_from_this<CompileResult> {
public:
  const DocumentSnapshot &document() const { return snapshot; }
  uint64_t generation() const { return compileGeneration; }
  /// The engine's record: diagnostics, sources, source map, every stage.
  const Compilation &compilation() const { return *compiled; }
  bool hasProduct(StageId stage) const { return compiled->hasProduct(stage); }
  llvm::SmallVector<mlir::ModuleOp> kernels(StageId stage) const {
    return compiled->kernels(stage);
  }
  mlir::ModuleOp kernel(StageId stage, llvm::StringRef name) const {
    return compiled->kernel(stage, name);
  }
  const StageRecord &record(StageId stage) const {
    return compiled->record(stage);
  }
  std::vector<FailureRecord> failures() const { return compiled->failures(); }
  /// Wall time of the whole compile (of the stages before `target` while
  /// !complete()).
  double seconds() const { return elapsed; }
  /// False in the result handed out before the target stage ran; its
  /// target record is empty.
  bool complete() const { return isComplete; }
  /// False once the products were released to bound the server's memory
  /// (records, diagnostics and the source map remain; no IR, so the result
  /// no longer holds the document's MLIR context).
  bool retainsProducts() const { return context != nullptr; }
  /// A copy without the products.
  std::shared_ptr<const CompileResult> withoutProducts() const;

private:
  friend class DocumentCompiler;
  std::shared_ptr<mlir::MLIRContext> context; // Destroyed last.
  DocumentSnapshot snapshot;
  uint64_t compileGeneration = 0;
  std::shared_ptr<const Compilation> compiled;
  double elapsed = 0;
  bool isComplete = true;
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
  /// Runs kernel `index` of `base` alone through the stages its base lacks,
  /// the target stage for `target` alone (Compiler::compileKernel).
  KernelUnit generateKernel(const CompileResult &base, size_t index,
                            llvm::StringRef target);
  /// The complete result of `base` (from check() or frontend()): the stages
  /// it lacks, from the cache (a kernel no unit made compiles now), with
  /// what `units` compiled shown as compiled.
  std::shared_ptr<const CompileResult>
  assemble(const CompileResult &base, llvm::ArrayRef<KernelUnit> units);

  const CompileOptions &compileOptions() const { return options; }
  /// Kernel products held for reuse.
  size_t cachedProducts() const { return cached; }
  /// Forgets the products held for reuse, and compiles in a fresh MLIR
  /// context from now on: the next compile builds every kernel again.
  /// Nothing of this compiler may be running, and no result made before may
  /// be a base of generateKernel() or assemble() again.
  void releaseProducts();

private:
  std::shared_ptr<CompileResult> resultOf(const DocumentSnapshot &document,
                                          uint64_t generation,
                                          Compilation compilation) const;
  /// Keeps in the cache of `stages` only the products of those stages in
  /// `latest`, once older ones outnumber them.
  void trimCache(const CompileResult &latest, llvm::ArrayRef<StageId> stages);
  std::shared_ptr<mlir::MLIRContext> makeContext() const;

  CompileOptions options;
  llvm::ThreadPoolInterface *pool;
  std::shared_ptr<mlir::MLIRContext> context;
  std::unique_ptr<Compiler> compiler; // compiles in `context`
  std::atomic<size_t> cached{0};
};

} // namespace accy::lsp

#endif // ACCY_LSP_DOCUMENTCOMPILER_H
