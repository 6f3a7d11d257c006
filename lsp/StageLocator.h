//===- StageLocator.h - Where an expression lands in later stages -*- C++ -*-===//
//
// Follows an expression of a kernel through the source map's node ordinals
// (the `loc("kernel#N")` of every op) to the dispatch region that computes
// it, that dispatch's schedule, and the GPU kernels the kernel stage made
// from the dispatch for each target.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LSP_STAGELOCATOR_H
#define ACCY_LSP_STAGELOCATOR_H

#include "DocumentCompiler.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace accy::lsp {

struct ExpressionLanding {
  std::optional<int64_t> dispatch;
  std::string schedule;
  /// (target, GPU kernel name) for each target that has one.
  std::vector<std::pair<std::string, std::string>> gpuKernels;
};

/// Where the expression with byte range [begin, end) of the main file, in
/// kernel `kernel`, lands; empty when a stage it needs did not run.
ExpressionLanding locateExpression(const CompileResult &result,
                                   llvm::StringRef kernel, uint32_t begin,
                                   uint32_t end);

} // namespace accy::lsp

#endif // ACCY_LSP_STAGELOCATOR_H
