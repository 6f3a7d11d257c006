//===- MapToGPU.cpp - Blocks and threads for every dispatch ---------------===//

#include "KernelBuilder.h"

#include "accy/Dialect/Choir/IR/Choir.h"
#include "accy/Stages/Dispatch/Plan.h"
#include "accy/Stages/Kernel/Passes.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"

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

/// The buffers `root` and its `epilogues` write that nothing reads after
/// their kernel: buffers allocated in the launch function (gpu.alloc) that
/// only they, the fills folded into them (`folded`) and a dealloc use. The
/// kernel computes each point of such a buffer in a register and its
/// epilogues read it there, at the same point, so storing it is dead: a
/// contraction's accumulator before its bias and activation, for one.
llvm::SmallPtrSet<Value, 4>
findUnreadResults(linalg::LinalgOp root, ArrayRef<linalg::LinalgOp> epilogues,
                  const llvm::DenseSet<Operation *> &folded) {
  llvm::SmallPtrSet<Value, 4> unread;
  auto inKernel = [&](Operation *user) {
    return user == root || folded.contains(user) ||
           isa<gpu::DeallocOp>(user) || llvm::is_contained(epilogues, user);
  };
  SmallVector<Value> results{root.getDpsInits()[0]};
  for (linalg::LinalgOp epilogue : epilogues)
    results.push_back(epilogue.getDpsInits()[0]);
  for (Value result : results)
    if (result.getDefiningOp<gpu::AllocOp>() &&
        llvm::all_of(result.getUsers(), inKernel))
      unread.insert(result);
  return unread;
}

KernelPlan makePlan(choir::PlanAttr plan, choir::LaunchAttr launch) {
  KernelPlan kp;
  kp.schedule = plan.getSchedule();
  kp.block = SmallVector<int64_t>(launch.getBlock().asArrayRef());
  kp.tile = SmallVector<int64_t>(launch.getTile().asArrayRef());
  kp.subgroup = launch.getSubgroup();
  kp.shuffleUp = launch.getShuffleUp();
  kp.linesPerBlock = launch.getLinesPerBlock();
  kp.threadLinesFrom = launch.getThreadLinesFrom();
  kp.lineTile = launch.getLineTile();
  kp.splitLinesBelow = launch.getSplitLinesBelow();
  kp.lineChunks = launch.getLineChunks();
  kp.rowsPerBlock = launch.getRowsPerBlock();
  kp.subgroupRowsUpTo = launch.getSubgroupRowsUpTo();
  if (DenseI64ArrayAttr mma = launch.getMma())
    kp.mma.assign(mma.asArrayRef().begin(), mma.asArrayRef().end());
  kp.stages = launch.getStages();
  return kp;
}

struct MapToGPUPass : public accy::kernel::impl::MapToGPUBase<MapToGPUPass> {
  LogicalResult mapLaunchFunction(func::FuncOp func, StringRef target) {
    llvm::Expected<const TargetProfile &> profile = lookupTargetProfile(target);
    if (!profile)
      return func.emitError() << llvm::toString(profile.takeError());
    IRRewriter rewriter(&getContext());
    Builder &b = rewriter;
    Block *body = &func.getBody().front();

    // The dispatch regions say which epilogues run in their root's kernel
    // (the memory stage decided, on buffers); then they dissolve.
    llvm::DenseMap<Operation *, SmallVector<linalg::LinalgOp>> epilogues;
    for (auto dispatch :
         llvm::make_early_inc_range(body->getOps<choir::DispatchOp>())) {
      Operation *root = dispatch.getRoot();
      for (Operation &op : dispatch.getBody().front())
        if (isDispatchEpilogue(&op))
          epilogues[root].push_back(cast<linalg::LinalgOp>(op));
      inlineDispatchRegion(rewriter, dispatch);
    }

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
    llvm::DenseSet<Operation *> fusedEpilogues;
    for (linalg::LinalgOp op : ops) {
      if (folded.contains(op) || fusedEpilogues.contains(op)) {
        rewriter.eraseOp(op);
        continue;
      }
      // An op without a plan (one that the memory stage did not plan, in
      // a hand-written input) is planned here for this target alone.
      choir::PlanAttr plan = getPlan(op);
      if (!plan)
        plan = planDispatch(op, {&*profile});
      choir::LaunchAttr launch = plan.getLaunch(target);
      if (!launch)
        return op.emitError()
               << "dispatch has no launch plan for target '" << target << "'";
      KernelPlan kp = makePlan(plan, launch);
      FailureOr<DispatchShape> shape = getPlannedShape(op, plan);
      if (failed(shape))
        return failure();
      kp.shape = *shape;
      kp.initValues = initValues.lookup(op);
      int64_t dispatch = getDispatchId(op);
      unsigned count = 1;
      if (kp.schedule == Schedule::Elementwise && kp.tile.size() == 2) {
        // Planned as a tile of two loops (findTransposedLoops).
        std::optional<TransposedLoops> loops = findTransposedLoops(op);
        if (!loops)
          return op.emitError("dispatch planned as a tile of two loops does "
                              "not access its operands along two loops");
        if (failed(buildTransposeKernel(rewriter, op, kp, *loops)))
          return failure();
      } else if (int64_t width = kp.schedule == Schedule::Elementwise
                                     ? vectorWidth(op)
                                     : 0) {
        if (failed(buildVectorElementwiseKernel(rewriter, op, kp, width)))
          return failure();
      } else if (kp.schedule == Schedule::Elementwise && op.getNumLoops() > 0) {
        if (failed(buildElementwiseLoops(rewriter, op, kp)))
          return failure();
      } else {
        kp.epilogues = epilogues.lookup(op);
        for (linalg::LinalgOp epilogue : kp.epilogues) {
          SmallVector<Value> inits = initValues.lookup(epilogue);
          kp.epilogueInits.push_back(inits.empty() ? Value() : inits[0]);
          fusedEpilogues.insert(epilogue);
        }
        // Row kernels read their results again from memory (a row beyond
        // the row cache); scans store theirs where a variant passes carries
        // through them (ScanKernel.cpp, buildVariant).
        if (kp.schedule == Schedule::TiledContraction ||
            kp.schedule == Schedule::ThreadReduction ||
            kp.schedule == Schedule::Scan)
          kp.unreadResults = findUnreadResults(op, kp.epilogues, folded);
        FailureOr<unsigned> made = buildLaunch(rewriter, op, kp);
        if (failed(made))
          return failure();
        count = *made;
      }
      // A dispatch may take several launches (a scan of long lines), and
      // its variants under run-time branches (a scan of dynamic shapes).
      for (unsigned i = 0; i < count; ++i)
        launches.push_back(b.getDictionaryAttr(
            {b.getNamedAttr("dispatch", b.getI64IntegerAttr(dispatch)),
             b.getNamedAttr("schedule", b.getStringAttr(stringifySchedule(
                                            plan.getSchedule()))),
             b.getNamedAttr("launch", launch)}));
    }
    func->setAttr(kLaunchesAttr, b.getArrayAttr(launches));
    return success();
  }

  void runOnOperation() override {
    ModuleOp kernel = getOperation();
    if (failed(verifyKernelModuleAnchor(kernel, getArgument())))
      return signalPassFailure();
    for (auto func : kernel.getOps<func::FuncOp>())
      if (auto target = func->getAttrOfType<StringAttr>(kLaunchTargetAttr))
        if (failed(mapLaunchFunction(func, target)))
          signalPassFailure();
  }
};

} // namespace
