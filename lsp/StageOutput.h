//===- StageOutput.h - A stage's IR for one kernel --------------*- C++ -*-===//
#ifndef ACCY_LSP_STAGEOUTPUT_H
#define ACCY_LSP_STAGEOUTPUT_H

#include "DocumentCompiler.h"

#include "llvm/Support/Error.h"

#include <string>

namespace accy::lsp {

/// The textual IR of `kernel`'s module in the product of `stage` (a stage
/// name such as "tensor"); an error naming what is missing otherwise.
llvm::Expected<std::string> findStageOutput(const CompileResult &result,
                                            llvm::StringRef kernel,
                                            llvm::StringRef stage);

} // namespace accy::lsp

#endif // ACCY_LSP_STAGEOUTPUT_H
