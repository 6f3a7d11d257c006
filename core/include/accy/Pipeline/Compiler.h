//===- Compiler.h - Whole compiles through the seven stages -----*- C++ -*-===//
//
// The entry point the driver, the language server and the build integration
// share: a Compiler owns the product cache, so a second compile of an edited
// file reuses every kernel product whose key did not change.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_PIPELINE_COMPILER_H
#define ACCY_PIPELINE_COMPILER_H

#include "accy/Frontend/Diagnostic.h"
#include "accy/Frontend/Source.h"
#include "accy/Pipeline/ProductCache.h"
#include "accy/Pipeline/SourceMap.h"
#include "accy/Pipeline/StageRecord.h"
#include "accy/Pipeline/StageRunner.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <array>
#include <functional>
#include <memory>
#include <optional>

namespace accy {

struct SemanticResult;

struct CompileOptions {
  std::vector<std::string> includeDirs;
  StageOptions stages;
  /// The last stage to run.
  StageId stopAfter = StageId::Target;
};

/// The sealed record of one compile: the product and record of every stage
/// that ran, each product checked to belong to its stage and to name its
/// predecessor's keys. Stages after a failure have no product.
class Compilation {
public:
  bool succeeded() const { return ok; }
  /// The last stage that produced a product.
  std::optional<StageId> lastStage() const { return last; }

  mlir::ModuleOp product(StageId stage) const {
    return products[stageIndex(stage)] ? *products[stageIndex(stage)]
                                       : mlir::ModuleOp();
  }
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
  bool ok = false;
  std::optional<StageId> last;
  std::array<mlir::OwningOpRef<mlir::ModuleOp>, kNumStages> products;
  std::array<StageRecord, kNumStages> stageRecords;
  std::shared_ptr<const SourceManager> sourceManager;
  std::vector<Diagnostic> frontendDiags;
  SourceMap map;
  std::vector<std::string> deps;
};

class Compiler {
public:
  Compiler(mlir::MLIRContext &context, CompileOptions options);

  /// Compiles a file from disk (imports read from disk too).
  Compilation compileFile(llvm::StringRef path);
  /// Compiles `text` as the contents of `path` (an editor's buffer).
  Compilation compileBuffer(llvm::StringRef path, llvm::StringRef text);
  /// Continues from a product of stage `from` read from a stage file (the
  /// source map, when there is one, maps failures back to the source).
  Compilation compileFrom(mlir::OwningOpRef<mlir::ModuleOp> product,
                          StageId from, SourceMap sourceMap);

  const CompileOptions &getOptions() const { return options; }
  ProductCache &cache() { return productCache; }

private:
  Compilation compileSemantic(SemanticResult semantic);
  void runStages(Compilation &compilation, StageId first);

  mlir::MLIRContext &context;
  CompileOptions options;
  ProductCache productCache;
};

} // namespace accy

#endif // ACCY_PIPELINE_COMPILER_H
