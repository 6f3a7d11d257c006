//===- CodeLens.h - A lens on each kernel: its last compile -----*- C++ -*-===//
#ifndef ACCY_LSP_CODELENS_H
#define ACCY_LSP_CODELENS_H

#include "Analysis.h"
#include "DocumentCompiler.h"
#include "Protocol.h"

#include <vector>

namespace accy::lsp {

/// Two lenses at each kernel's name: what the last compile did with it
/// (time, the stages reused, stored or failed), which opens the timeline,
/// and "Show stage output". `compiled` may be of an older version or
/// checked only (code generation still running), or null (none yet).
std::vector<CodeLens> findCodeLenses(const Analysis &analysis,
                                     const CompileResult *compiled);

} // namespace accy::lsp

#endif // ACCY_LSP_CODELENS_H
