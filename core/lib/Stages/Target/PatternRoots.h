//===- PatternRoots.h - Patterns applied where they are rooted -*- C++ -*-===//
#ifndef ACCY_LIB_STAGES_TARGET_PATTERNROOTS_H
#define ACCY_LIB_STAGES_TARGET_PATTERNROOTS_H

#include "mlir/Support/LogicalResult.h"

namespace mlir {
class Operation;
class RewritePatternSet;
} // namespace mlir

namespace accy::target {

/// Applies `patterns` greedily to the ops of `scope` they are rooted at and
/// to the ops their rewrites create. The target stage's rewrites match a
/// few ops of a kernel module that the kernel stage left folded; a greedy
/// run over the whole scope folded every op of it again, which was most of
/// legalize-math's and expand-strided-metadata's time and a third of the
/// NVVM conversion's (docs/internals.md, "Rewrites on their roots").
mlir::LogicalResult applyPatternsToRoots(mlir::Operation *scope,
                                         mlir::RewritePatternSet &&patterns);

} // namespace accy::target

#endif // ACCY_LIB_STAGES_TARGET_PATTERNROOTS_H
