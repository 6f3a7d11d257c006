//===- SemanticStage.h - The frontend as the first stage --------*- C++ -*-===//
#ifndef ACCY_LIB_PIPELINE_SEMANTICSTAGE_H
#define ACCY_LIB_PIPELINE_SEMANTICSTAGE_H

#include "accy/Pipeline/Compiler.h"

namespace accy {

/// What the semantic stage made: the choir product (null when the frontend
/// reported errors), the frontend's diagnostics with the sources they point
/// into, the source map and the imported files.
struct SemanticResult {
  mlir::OwningOpRef<mlir::ModuleOp> product;
  StageRecord record;
  std::unique_ptr<SourceManager> sources;
  std::vector<Diagnostic> diagnostics;
  SourceMap sourceMap;
  std::vector<std::string> dependencies;
};

/// Parses and checks `path` (or `text` as its contents), emits choir and
/// gives every kernel module its semantic product key. The key is derived
/// from the emitted kernel alone, so comment and whitespace edits leave the
/// product byte-identical.
SemanticResult runSemanticStage(mlir::MLIRContext &context,
                                llvm::StringRef path,
                                std::optional<std::string> text,
                                const CompileOptions &options);

} // namespace accy

#endif // ACCY_LIB_PIPELINE_SEMANTICSTAGE_H
