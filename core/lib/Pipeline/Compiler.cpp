//===- Compiler.cpp - Whole compiles through the seven stages -------------===//

#include "accy/Pipeline/Compiler.h"

#include "SemanticStage.h"

#include "accy/Pipeline/Product.h"

using namespace accy;

std::vector<FailureRecord> Compilation::failures() const {
  std::vector<FailureRecord> all;
  for (const StageRecord &record : stageRecords)
    all.insert(all.end(), record.failures.begin(), record.failures.end());
  return all;
}

Compiler::Compiler(mlir::MLIRContext &context, CompileOptions options)
    : context(context), options(std::move(options)) {}

Compilation Compiler::compileFile(llvm::StringRef path) {
  return compileSemantic(
      runSemanticStage(context, path, /*text=*/std::nullopt, options));
}

Compilation Compiler::compileBuffer(llvm::StringRef path,
                                    llvm::StringRef text) {
  return compileSemantic(runSemanticStage(context, path, text.str(), options));
}

Compilation Compilation::withoutProducts() const {
  Compilation c;
  c.ok = ok;
  c.last = last;
  c.stageRecords = stageRecords;
  c.sourceManager = sourceManager;
  c.frontendDiags = frontendDiags;
  c.map = map;
  c.deps = deps;
  return c;
}

Compilation Compiler::compileSemantic(SemanticResult semantic) {
  Compilation c;
  c.sourceManager = std::move(semantic.sources);
  c.frontendDiags = std::move(semantic.diagnostics);
  c.map = std::move(semantic.sourceMap);
  c.deps = std::move(semantic.dependencies);
  c.stageRecords[stageIndex(StageId::Semantic)] = std::move(semantic.record);
  if (!semantic.product)
    return c;
  c.products[stageIndex(StageId::Semantic)] = std::move(semantic.product);
  c.ok = true;
  c.last = StageId::Semantic;
  runStages(c, StageId::Contract);
  return c;
}

Compilation Compiler::compileFrom(mlir::OwningOpRef<mlir::ModuleOp> product,
                                  StageId from, SourceMap sourceMap) {
  Compilation c;
  c.sourceManager = std::make_unique<SourceManager>();
  c.map = std::move(sourceMap);
  if (llvm::Error err = verifyProduct(*product, from)) {
    StageRecord &record = c.stageRecords[stageIndex(from)];
    record.stage = from;
    record.failInternally(llvm::toString(std::move(err)));
    return c;
  }
  c.stageRecords[stageIndex(from)].stage = from;
  c.stageRecords[stageIndex(from)].status = StageStatus::Reused;
  c.products[stageIndex(from)] = std::move(product);
  c.ok = true;
  c.last = from;
  if (auto next = nextStage(from))
    runStages(c, *next);
  return c;
}

void Compiler::runStages(Compilation &c, StageId first) {
  for (StageId stage : kAllStages) {
    c.stageRecords[stageIndex(stage)].stage = stage;
    if (stageIndex(stage) < stageIndex(first) ||
        stageIndex(stage) > stageIndex(options.stopAfter))
      continue;
    if (!c.ok)
      return;
    StageOutput out = runStage(stage, c.product(*previousStage(stage)),
                               options.stages, &c.map, &productCache);
    c.stageRecords[stageIndex(stage)] = std::move(out.record);
    if (!out.product) {
      c.ok = false;
      return;
    }
    // Sealing: the new product must name its predecessor's keys.
    if (llvm::Error err = verifyChain(c.product(*previousStage(stage)),
                                      *out.product)) {
      c.stageRecords[stageIndex(stage)].failInternally(
          llvm::toString(std::move(err)));
      c.ok = false;
      return;
    }
    c.products[stageIndex(stage)] = std::move(out.product);
    c.last = stage;
  }
}
