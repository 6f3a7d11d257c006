//===- SemanticStage.cpp - The frontend as the first stage ----------------===//

#include "SemanticStage.h"

#include "accy/Frontend/EmitChoir.h"
#include "accy/Frontend/Frontend.h"
#include "accy/Pipeline/Hashing.h"
#include "accy/Pipeline/Product.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/TimeProfiler.h"

#include <chrono>

using namespace accy;

static SourceSpan spanOf(const SourceManager &sm, SourceRange range) {
  SourceSpan span;
  if (!range.isValid())
    return span;
  span.file = sm.getPath(range.file).str();
  LineCol begin = sm.getLineCol(range.file, range.begin);
  LineCol end = sm.getLineCol(range.file, range.end);
  span.line = begin.line;
  span.column = begin.col;
  span.endLine = end.line;
  span.endColumn = end.col;
  span.offset = range.begin;
  span.endOffset = range.end;
  return span;
}

SemanticResult accy::runSemanticStage(mlir::MLIRContext &context,
                                      llvm::StringRef path,
                                      std::optional<std::string> text,
                                      const CompileOptions &options) {
  auto start = std::chrono::steady_clock::now();
  llvm::TimeTraceScope scope("stage", "semantic");
  SemanticResult out;
  out.sources = std::make_unique<SourceManager>();
  StageRecord &record = out.record;
  record.stage = StageId::Semantic;
  auto finish = [&](StageStatus status) {
    record.status = status;
    record.seconds = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - start)
                         .count();
    return std::move(out);
  };

  FrontendResult fe =
      text ? analyzeBuffer(path, *text, options.includeDirs, *out.sources)
           : analyzeFile(path, options.includeDirs, *out.sources);
  out.diagnostics = fe.diagnostics;
  out.dependencies = fe.unit.dependencies();
  if (fe.hasErrors())
    return finish(StageStatus::Failed);

  mlir::OwningOpRef<mlir::ModuleOp> product =
      createProduct(context, StageId::Semantic);
  mlir::Builder builder(&context);
  std::string stageKeyText, stageFingerprintText;
  for (const Kernel *kernel : fe.unit.kernels()) {
    EmittedKernel emitted = emitChoir(context, *kernel);
    out.sourceMap.setKernelSpan(kernel->name,
                                spanOf(*out.sources, kernel->range));
    for (SourceRange node : emitted.nodes)
      out.sourceMap.addNode(kernel->name, spanOf(*out.sources, node));

    // The emitted IR must verify; if it does not, that is a compiler bug,
    // reported on the kernel rather than passed on to later stages.
    std::vector<std::string> errors;
    {
      mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
        errors.push_back(d.str());
        return mlir::success();
      });
      if (mlir::failed(mlir::verify(*emitted.module)))
        for (std::string &message : errors) {
          FailureRecord r;
          r.pipeline = "semantic";
          r.kind = FailureKind::Verifier;
          r.pass = "emit-choir";
          r.symbol = kernel->name;
          r.message = "internal error: emitted choir does not verify: " +
                      message;
          r.range = out.sourceMap.kernelSpan(kernel->name);
          record.failures.push_back(std::move(r));
        }
    }

    std::string bytes = productBytes(*emitted.module);
    KernelStageRecord kr;
    kr.kernel = kernel->name;
    kr.fingerprint = fingerprintOf(bytes);
    kr.key = computeProductKey({StageId::Semantic, options.stages.buildId, "",
                                contentHash(bytes)});
    kr.status = StageStatus::Compiled;
    (*emitted.module)->setAttr(kKeyAttr, builder.getStringAttr(kr.key));
    stageKeyText += kr.key;
    stageFingerprintText +=
        kr.kernel + ":" + fingerprintHex(kr.fingerprint) + ";";
    product->getBody()->push_back(emitted.module.release());
    record.kernels.push_back(std::move(kr));
  }
  record.key = contentHash(stageKeyText);
  record.fingerprint = fingerprintOf(stageFingerprintText);
  if (!record.failures.empty())
    return finish(StageStatus::Failed);
  out.product = std::move(product);
  return finish(StageStatus::Compiled);
}
