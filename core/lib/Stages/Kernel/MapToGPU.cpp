//===- MapToGPU.cpp - Blocks and threads for every dispatch ---------------===//

#include "KernelBuilder.h"

#include "accy/Stages/Dispatch/Plan.h"
#include "accy/Stages/Kernel/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace accy::kernel {
#define GEN_PASS_DEF_MAPTOGPU
#include "accy/Stages/Kernel/Passes.h.inc"
} // namespace accy::kernel

using namespace mlir;
using namespace accy;
using namespace accy::kernel;

namespace {

/// The fill folded into `root`'s kernel for `init`: a `role = "init"` fill
/// of the same dispatch writing the same buffer, with nothing touching the
/// buffer in between.
linalg::FillOp findInitFill(linalg::LinalgOp root, Value init) {
  int64_t id = getDispatchId(root);
  for (Operation *op = root->getPrevNode(); op; op = op->getPrevNode()) {
    auto fill = dyn_cast<linalg::FillOp>(op);
    if (fill && isDispatchInit(fill) && getDispatchId(fill) == id &&
        fill.getDpsInits()[0] == init)
      return fill;
    if (llvm::is_contained(op->getOperands(), init))
      return nullptr;
  }
  return nullptr;
}

KernelPlan makePlan(DictionaryAttr plan, DictionaryAttr targetPlan) {
  KernelPlan kp;
  if (auto name = plan.getAs<StringAttr>("schedule"))
    kp.schedule = symbolizeSchedule(name.getValue()).value_or(
        Schedule::Elementwise);
  kp.block = getPlanArray(targetPlan, "block");
  kp.tile = getPlanArray(targetPlan, "tile");
  kp.subgroup = getPlanInt(targetPlan, "subgroup").value_or(32);
  return kp;
}

struct MapToGPUPass : public accy::kernel::impl::MapToGPUBase<MapToGPUPass> {
  LogicalResult mapLaunchFunction(func::FuncOp func, StringRef target) {
    llvm::Expected<const target::TargetProfile &> profile =
        target::lookupTargetProfile(target);
    if (!profile)
      return func.emitError() << llvm::toString(profile.takeError());
    IRRewriter rewriter(&getContext());
    Builder &b = rewriter;
    Block *body = &func.getBody().front();

    // Decide which fills fold into their roots before rewriting anything.
    SmallVector<linalg::LinalgOp> ops;
    for (Operation &op : *body) {
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
        ops.push_back(linalgOp);
        continue;
      }
      if (isa<memref::LoadOp, memref::StoreOp, memref::CopyOp>(op) ||
          op.getNumRegions() != 0)
        return op.emitError()
               << "'" << op.getName()
               << "' cannot run in host launch code; every computation must "
                  "be a linalg dispatch";
    }
    llvm::DenseMap<Operation *, SmallVector<Value>> initValues;
    llvm::DenseSet<Operation *> folded;
    for (linalg::LinalgOp op : ops) {
      if (isDispatchInit(op) || op.getNumReductionLoops() == 0)
        continue;
      SmallVector<Value> values;
      for (Value init : op.getDpsInits()) {
        linalg::FillOp fill = findInitFill(op, init);
        values.push_back(fill ? fill.getDpsInputs()[0] : Value());
        if (fill)
          folded.insert(fill);
      }
      initValues[op] = values;
    }

    SmallVector<Attribute> launches;
    for (linalg::LinalgOp op : ops) {
      if (folded.contains(op)) {
        rewriter.eraseOp(op);
        continue;
      }
      if (!op->hasAttr(kPlanAttr))
        op->setAttr(kPlanAttr, planDispatch(op, {&*profile}));
      auto plan = op->getAttrOfType<DictionaryAttr>(kPlanAttr);
      DictionaryAttr targetPlan = getTargetPlan(op, target);
      if (!targetPlan)
        return op.emitError() << "dispatch has no plan for target '" << target
                              << "'";
      KernelPlan kp = makePlan(plan, targetPlan);
      if (kp.block.size() != 3)
        return op.emitError() << "plan for '" << target
                              << "' has no block size";
      kp.initValues = initValues.lookup(op);
      int64_t dispatch = getDispatchId(op);
      Location loc = op.getLoc();
      if (kp.schedule == Schedule::Elementwise && op.getNumLoops() > 0) {
        if (failed(buildElementwiseLoops(rewriter, op, kp)))
          return failure();
      } else if (failed(buildLaunch(rewriter, op, kp))) {
        return failure();
      }
      (void)loc;
      launches.push_back(b.getDictionaryAttr(
          {b.getNamedAttr("dispatch", b.getI64IntegerAttr(dispatch)),
           b.getNamedAttr("schedule", plan.get("schedule"))}));
    }
    func->setAttr(kLaunchesAttr, b.getArrayAttr(launches));
    return success();
  }

  void runOnOperation() override {
    if (failed(forEachKernelModule(getOperation(), [&](ModuleOp kernel) {
          bool failed = false;
          for (auto func : kernel.getOps<func::FuncOp>())
            if (auto target =
                    func->getAttrOfType<StringAttr>(kLaunchTargetAttr))
              failed |= mlir::failed(mapLaunchFunction(func, target));
          return failure(failed);
        })))
      signalPassFailure();
  }
};

} // namespace
