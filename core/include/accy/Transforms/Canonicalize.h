//===- Canonicalize.h - canonicalize with a shared pattern set --*- C++ -*-===//
//
// Upstream's canonicalize pass (the same argument, options and rewrites),
// whose pattern set is made once per context and set of loaded dialects
// and shared by every instance of the pass, instead of once per instance:
// each stage run on a thread has its own pipeline, the kernel stage three
// canonicalizations, and gathering every registered op's patterns was 1% of
// the instructions of a cold build (2% for elementwise.accy).
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_TRANSFORMS_CANONICALIZE_H
#define ACCY_TRANSFORMS_CANONICALIZE_H

#include <memory>

namespace mlir {
class DialectRegistry;
class Pass;
struct GreedyRewriteConfig;
} // namespace mlir

namespace accy {

/// canonicalize with the pass's default options.
std::unique_ptr<mlir::Pass> createCanonicalizePass();
/// canonicalize configured as `config` says (as createCanonicalizerPass).
std::unique_ptr<mlir::Pass>
createCanonicalizePass(const mlir::GreedyRewriteConfig &config);

/// Lets each context made with `registry` keep the shared pattern set (in
/// an interface of the builtin dialect); without it, each instance makes
/// its own.
void registerCanonicalizePatternCache(mlir::DialectRegistry &registry);

} // namespace accy

#endif // ACCY_TRANSFORMS_CANONICALIZE_H
