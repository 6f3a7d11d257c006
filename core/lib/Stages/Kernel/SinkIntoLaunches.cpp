//===- SinkIntoLaunches.cpp - Scalars recomputed in kernels ---------------===//

#include "accy/Stages/Dispatch/Plan.h"
#include "accy/Stages/Kernel/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace accy::kernel {
#define GEN_PASS_DEF_SINKINTOLAUNCHES
#include "accy/Stages/Kernel/Passes.h.inc"
} // namespace accy::kernel

using namespace mlir;

namespace {

/// Pure scalar computations (and memref.dim, which reads a descriptor, not
/// memory) are cheaper to redo per thread than to describe to a runtime,
/// as are small vectors of them (the zeros a tensor-core kernel's masked
/// copy selects, which canonicalization hoists out of the launch); views
/// (reshapes, subviews, casts) are rebuilt in the kernel so that it takes
/// the buffers they view.
bool isSinkable(Operation *op) {
  if (op->getNumRegions() != 0 || op->getNumResults() != 1 ||
      !isMemoryEffectFree(op))
    return false;
  Type type = op->getResult(0).getType();
  if (isa<MemRefType>(type))
    return isa<memref::CollapseShapeOp, memref::ExpandShapeOp,
               memref::SubViewOp, memref::CastOp, memref::ReinterpretCastOp>(
        op);
  return type.isIntOrIndexOrFloat() || isa<VectorType>(type);
}

/// Clones the sinkable backward slice of every value the launch body uses
/// from above into the body. Unlike upstream's sinkOperationsIntoLaunchOp,
/// a slice may reach new leaves (a memref whose dimension a scalar is
/// computed from): the kernel then takes that memref, which the summary
/// describes, instead of a scalar it cannot.
void sinkInto(gpu::LaunchOp launch) {
  SetVector<Value> used;
  getUsedValuesDefinedAbove(launch.getBody(), used);
  SetVector<Operation *> slice;
  std::function<void(Value)> visit = [&](Value value) {
    Operation *def = value.getDefiningOp();
    if (!def || slice.contains(def) || !isSinkable(def))
      return;
    for (Value operand : def->getOperands())
      visit(operand);
    slice.insert(def); // after its operands: a valid order to clone in
  };
  for (Value value : used)
    visit(value);
  OpBuilder b = OpBuilder::atBlockBegin(&launch.getBody().front());
  IRMapping mapping;
  for (Operation *op : slice) {
    Operation *clone = b.clone(*op, mapping);
    op->getResult(0).replaceUsesWithIf(
        clone->getResult(0), [&](OpOperand &use) {
          return launch->isProperAncestor(use.getOwner());
        });
  }
}

struct SinkIntoLaunchesPass
    : public accy::kernel::impl::SinkIntoLaunchesBase<SinkIntoLaunchesPass> {
  void runOnOperation() override {
    getOperation().walk([](gpu::LaunchOp launch) { sinkInto(launch); });
  }
};

} // namespace
