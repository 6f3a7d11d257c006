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
  void runOnOperation() override {
    SmallVector<std::pair<linalg::LinalgOp, DispatchShape>> scans;
    getOperation().walk([&](linalg::LinalgOp op) {
      DispatchShape shape = classifyDispatch(op);
      if (shape.schedule == Schedule::Scan && op.hasPureBufferSemantics())
        scans.push_back({op, shape});
    });
    IRRewriter rewriter(&getContext());
    for (auto &[op, shape] : scans)
      kernel::buildScanLoops(rewriter, op, shape);
  }
};

} // namespace
