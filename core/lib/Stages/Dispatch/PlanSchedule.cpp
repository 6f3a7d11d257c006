//===- PlanSchedule.cpp - Schedules and sizes for every dispatch ----------===//

#include "accy/Stages/Dispatch/Passes.h"
#include "accy/Stages/Dispatch/Plan.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

namespace accy::dispatch {
#define GEN_PASS_DEF_PLANSCHEDULE
#include "accy/Stages/Dispatch/Passes.h.inc"
} // namespace accy::dispatch

using namespace mlir;
using namespace accy;

namespace {

struct PlanSchedulePass
    : public accy::dispatch::impl::PlanScheduleBase<PlanSchedulePass> {
  using Base::Base;

  LogicalResult plan(ModuleOp kernel,
                     ArrayRef<const TargetProfile *> profiles) {
    func::FuncOp entry = getKernelEntry(kernel);
    if (!entry)
      return failure();
    Builder b(&getContext());
    SmallVector<Attribute> names;
    for (const TargetProfile *profile : profiles)
      names.push_back(b.getStringAttr(profile->name));
    kernel->setAttr(kTargetsAttr, b.getArrayAttr(names));

    // Roots without a dispatch id (this pass run alone) are numbered after
    // the marked ones, in program order.
    int64_t next = 0;
    entry.walk([&](linalg::LinalgOp op) {
      next = std::max(next, getDispatchId(op) + 1);
    });
    // Epilogues run in their root's kernel, in program order: the root's
    // entry counts them, and the plan of a row reduction depends on them.
    llvm::DenseMap<int64_t, SmallVector<linalg::LinalgOp>> epilogues;
    entry.walk([&](linalg::LinalgOp op) {
      if (isDispatchEpilogue(op))
        epilogues[getDispatchId(op)].push_back(op);
    });
    auto rowPipeline = [&](linalg::LinalgOp root, int64_t id) {
      RowPipeline pipeline;
      SmallVector<linalg::LinalgOp> ops = epilogues.lookup(id);
      for (auto [i, op] : llvm::enumerate(ops)) {
        if (op.getNumReductionLoops() > 0)
          ++pipeline.reductions;
        else if (isPerRowElement(op, root) && i + 1 < ops.size())
          pipeline.mapsBeforeLast = true;
      }
      return pipeline;
    };
    entry.walk([&](linalg::LinalgOp op) {
      if (isDispatchInit(op) || isDispatchEpilogue(op))
        return;
      int64_t id = getDispatchId(op);
      if (id < 0) {
        id = next++;
        setDispatchMember(op, id);
      }
      setPlan(op, planDispatch(op, profiles, rowPipeline(op, id)));
    });
    return success();
  }

  void runOnOperation() override {
    llvm::Expected<SmallVector<const TargetProfile *>> profiles =
        parseTargetList(targets);
    if (!profiles) {
      getOperation().emitError()
          << "accy-choir-plan-schedule: " << llvm::toString(profiles.takeError());
      return signalPassFailure();
    }
    ModuleOp kernel = getOperation();
    if (failed(verifyKernelModuleAnchor(kernel, getArgument())) ||
        failed(plan(kernel, *profiles)))
      signalPassFailure();
  }
};

} // namespace
