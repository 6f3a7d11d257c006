//===- ScanLoops.cpp - Scans of the host version as loops with a carry ----===//

#include "KernelBuilder.h"

#include "accy/Stages/Kernel/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace accy::kernel {
#define GEN_PASS_DEF_SCANLOOPS
#include "accy/Stages/Kernel/Passes.h.inc"
} // namespace accy::kernel

using namespace mlir;
using namespace accy;

namespace {

struct ScanLoopsPass : public accy::kernel::impl::ScanLoopsBase<ScanLoopsPass> {
  /// The scans the dispatch stage planned (the host version keeps each
  /// root's plan when it dissolves the regions), built from their plans.
  void runOnOperation() override {
    SmallVector<std::pair<linalg::LinalgOp, DispatchShape>> scans;
    WalkResult walk = getOperation().walk([&](linalg::LinalgOp op) {
      choir::PlanAttr plan = getPlan(op);
      if (!plan || plan.getSchedule() != Schedule::Scan ||
          !op.hasPureBufferSemantics())
        return WalkResult::advance();
      FailureOr<DispatchShape> shape = getPlannedShape(op, plan);
      if (failed(shape))
        return WalkResult::interrupt();
      scans.push_back({op, *shape});
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    IRRewriter rewriter(&getContext());
    for (auto &[op, shape] : scans)
      kernel::buildScanLoops(rewriter, op, shape);
  }
};

} // namespace
