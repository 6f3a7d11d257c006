//===- Diagnostics.h - Compile results as LSP diagnostics -------*- C++ -*-===//
#ifndef ACCY_LSP_DIAGNOSTICS_H
#define ACCY_LSP_DIAGNOSTICS_H

#include "DocumentCompiler.h"
#include "Protocol.h"

#include <vector>

namespace accy::lsp {

/// Every frontend diagnostic and every stage failure of `result`, on the
/// range it maps to in the document (problems inside an imported file are
/// shown on the import that brings them in). `source` names the stage's
/// pipeline, `code` the error code or the failing pass; notes become
/// relatedInformation.
std::vector<Diagnostic> collectDiagnostics(const CompileResult &result,
                                           PositionEncoding encoding);

/// One frontend diagnostic of `document` as collectDiagnostics shows it
/// (`index` is that of the document's text), so that a code action can
/// name the diagnostic it fixes.
Diagnostic frontendDiagnostic(const accy::Diagnostic &d,
                              const SourceManager &sm,
                              const DocumentSnapshot &document,
                              const LineIndex &index);

} // namespace accy::lsp

#endif // ACCY_LSP_DIAGNOSTICS_H
