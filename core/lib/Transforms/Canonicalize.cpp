//===- Canonicalize.cpp - canonicalize with a shared pattern set ----------===//

#include "accy/Transforms/Canonicalize.h"

#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectInterface.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

#include <mutex>

namespace mlir {
#define GEN_PASS_DEF_CANONICALIZER
#include "mlir/Transforms/Passes.h.inc"
} // namespace mlir

using namespace mlir;

/// Every canonicalization pattern of the dialects and ops `context` has
/// loaded, as upstream's pass gathers them.
static RewritePatternSet gatherPatterns(MLIRContext *context) {
  RewritePatternSet patterns(context);
  for (Dialect *dialect : context->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : context->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, context);
  return patterns;
}

namespace {

/// The pattern set of a context, kept for as long as no dialect is loaded
/// (a change of the registry hash, on which MLIR's pass managers
/// initialize their passes again).
class PatternCache : public DialectInterface::Base<PatternCache> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PatternCache)

  explicit PatternCache(Dialect *dialect) : Base(dialect) {}

  std::shared_ptr<const FrozenRewritePatternSet> get(MLIRContext *context) {
    llvm::hash_code hash = context->getRegistryHash();
    std::lock_guard<std::mutex> lock(mutex);
    if (!patterns || hash != registryHash) {
      patterns =
          std::make_shared<FrozenRewritePatternSet>(gatherPatterns(context));
      registryHash = hash;
    }
    return patterns;
  }

private:
  std::mutex mutex;
  llvm::hash_code registryHash = 0;
  std::shared_ptr<const FrozenRewritePatternSet> patterns;
};

struct CanonicalizePass : public impl::CanonicalizerBase<CanonicalizePass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CanonicalizePass)

  CanonicalizePass() = default;
  explicit CanonicalizePass(const GreedyRewriteConfig &config)
      : config(config) {
    topDownProcessingEnabled = config.useTopDownTraversal;
    enableRegionSimplification = config.enableRegionSimplification;
    maxIterations = config.maxIterations;
    maxNumRewrites = config.maxNumRewrites;
  }

  LogicalResult initialize(MLIRContext *context) override {
    config.useTopDownTraversal = topDownProcessingEnabled;
    config.enableRegionSimplification = enableRegionSimplification;
    config.maxIterations = maxIterations;
    config.maxNumRewrites = maxNumRewrites;
    auto *cache = context->getLoadedDialect<BuiltinDialect>()
                      ->getRegisteredInterface<PatternCache>();
    // A set filtered by the pass's options is its own.
    if (cache && disabledPatterns.empty() && enabledPatterns.empty())
      patterns = cache->get(context);
    else
      patterns = std::make_shared<FrozenRewritePatternSet>(
          gatherPatterns(context), disabledPatterns, enabledPatterns);
    return success();
  }

  void runOnOperation() override {
    LogicalResult converged =
        applyPatternsAndFoldGreedily(getOperation(), *patterns, config);
    // Canonicalization is best-effort: not converging is no failure.
    if (testConvergence && failed(converged))
      signalPassFailure();
  }

  GreedyRewriteConfig config;
  std::shared_ptr<const FrozenRewritePatternSet> patterns;
};

} // namespace

std::unique_ptr<Pass> accy::createCanonicalizePass() {
  return std::make_unique<CanonicalizePass>();
}

std::unique_ptr<Pass>
accy::createCanonicalizePass(const GreedyRewriteConfig &config) {
  return std::make_unique<CanonicalizePass>(config);
}

void accy::registerCanonicalizePatternCache(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *, BuiltinDialect *dialect) {
    dialect->addInterfaces<PatternCache>();
  });
}
