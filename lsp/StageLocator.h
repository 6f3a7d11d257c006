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

#include <map>
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
  /// Per target, how a tiled contraction's plan tiles it there ("128x128x8
  /// tiles", "128x128x32 tiles on tensor cores, mma 16x8x16, 2 stages");
  /// none for other schedules.
  std::map<std::string, std::string> tiling;
};

/// Where the expression with byte range [begin, end) of the main file, in
/// kernel `kernel`, lands; empty when a stage it needs did not run.
ExpressionLanding locateExpression(const CompileResult &result,
                                   llvm::StringRef kernel, uint32_t begin,
                                   uint32_t end);

} // namespace accy::lsp

#endif // ACCY_LSP_STAGELOCATOR_H
