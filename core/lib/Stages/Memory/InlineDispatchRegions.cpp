//===- InlineDispatchRegions.cpp - Dissolve choir.dispatch regions --------===//

#include "accy/Stages/Dispatch/Plan.h"
#include "accy/Stages/Memory/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace accy::memory {
#define GEN_PASS_DEF_INLINEDISPATCHREGIONS
#include "accy/Stages/Memory/Passes.h.inc"
} // namespace accy::memory

using namespace mlir;
using namespace accy;

namespace {

struct InlineDispatchRegionsPass
    : public accy::memory::impl::InlineDispatchRegionsBase<
          InlineDispatchRegionsPass> {
  void runOnOperation() override {
    if (failed(verifyKernelModuleAnchor(getOperation(), getArgument())))
      return signalPassFailure();
    IRRewriter rewriter(&getContext());
    inlineDispatchRegions(rewriter, getOperation());
  }
};

} // namespace
