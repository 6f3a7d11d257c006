//===- BuildDispatchRegions.cpp - Each dispatch in a choir.dispatch -------===//

#include "accy/Dialect/Choir/IR/Choir.h"
#include "accy/Stages/Dispatch/Passes.h"
#include "accy/Stages/Dispatch/Plan.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace accy::dispatch {
#define GEN_PASS_DEF_BUILDDISPATCHREGIONS
#include "accy/Stages/Dispatch/Passes.h.inc"
} // namespace accy::dispatch

using namespace mlir;
using namespace accy;

namespace {

/// The operand at the start of `result`'s chain of destinations that is
/// not computed in the dispatch (`members`): the tensor the dispatch writes
/// that result into. Null when the chain ends inside.
OpOperand *findDestination(OpResult result,
                           const llvm::SmallPtrSetImpl<Operation *> &members) {
  while (true) {
    auto op = dyn_cast<DestinationStyleOpInterface>(result.getOwner());
    if (!op)
      return nullptr;
    OpOperand *init = op.getTiedOpOperand(result);
    auto next = dyn_cast<OpResult>(init->get());
    if (!next || !members.contains(next.getOwner()))
      return init;
    result = next;
  }
}

/// The ops of a dispatch region: on tensors every member of the dispatch;
/// on buffers the root, its init fills and the epilogues that can still run
/// in its kernel (`canRunInRootKernel`; in-place bufferization and buffer
/// reuse may have put a write in between). An epilogue that cannot becomes
/// the root of a region of its own, with its own plan (the memory stage
/// plans every op) and its dispatch's id.
SmallVector<SmallVector<Operation *>>
groupOnBuffers(ArrayRef<Operation *> members, Operation *root) {
  SmallVector<linalg::LinalgOp> chain;
  SmallVector<SmallVector<Operation *>> groups(1);
  auto rootOp = dyn_cast<linalg::LinalgOp>(root);
  for (Operation *op : members) {
    auto epilogue = dyn_cast<linalg::LinalgOp>(op);
    if (!epilogue || !isDispatchEpilogue(op)) {
      groups.front().push_back(op);
      continue;
    }
    if (rootOp && canRunInRootKernel(rootOp, chain, epilogue)) {
      chain.push_back(epilogue);
      groups.front().push_back(op);
      continue;
    }
    setDispatchMember(op, getDispatchId(root));
    groups.push_back({op});
  }
  return groups;
}

/// Moves `members` (program order) into a choir.dispatch placed at `root`.
LogicalResult buildRegion(IRRewriter &rewriter, ArrayRef<Operation *> members,
                          Operation *root, choir::PlanAttr plan) {
  llvm::SmallPtrSet<Operation *, 8> memberSet(members.begin(), members.end());
  auto inDispatch = [&](Operation *user) {
    for (; user; user = user->getParentOp())
      if (memberSet.contains(user))
        return true;
    return false;
  };
  // What the epilogues read must exist where the region goes.
  for (Operation *op : members) {
    if (op == root || op->isBeforeInBlock(root))
      continue;
    WalkResult walk = op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (!inDispatch(operand.getDefiningOp()) && !hoistBefore(operand, root))
          return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return op->emitError()
             << "dispatch " << getDispatchId(root)
             << ": an operand of this op is computed after the dispatch's "
                "root and cannot move before it";
  }

  // On tensors, the results: every value of the dispatch used outside it,
  // each written into its chain's destination (an `outs` argument of its
  // own). On buffers, the `outs` are the buffers the ops write.
  SmallVector<Value> results;
  SmallVector<OpOperand *> destinations;
  llvm::SetVector<Value> buffers;
  for (Operation *op : members) {
    for (OpResult result : op->getResults()) {
      if (llvm::all_of(result.getUsers(), inDispatch))
        continue;
      OpOperand *destination = findDestination(result, memberSet);
      if (!destination)
        return op->emitError() << "dispatch " << getDispatchId(root)
                               << ": a result has no destination tensor";
      results.push_back(result);
      destinations.push_back(destination);
    }
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(op))
      for (Value init : dps.getDpsInits())
        if (isa<BaseMemRefType>(init.getType()))
          buffers.insert(init);
  }
  SmallVector<Value> outputs(buffers.begin(), buffers.end());
  for (OpOperand *destination : destinations)
    outputs.push_back(destination->get());

  // Everything else read from outside: constants are cloned in, the rest
  // become the `ins` operands, whose arguments precede those of `outs`.
  llvm::SmallPtrSet<OpOperand *, 4> destinationSet(destinations.begin(),
                                                   destinations.end());
  llvm::MapVector<Value, SmallVector<OpOperand *>> captured;
  for (Operation *op : members)
    op->walk([&](Operation *nested) {
      for (OpOperand &use : nested->getOpOperands()) {
        Value value = use.get();
        Operation *owner = value.getDefiningOp();
        if (!owner)
          owner = value.getParentBlock()->getParentOp();
        if (!inDispatch(owner) && !destinationSet.contains(&use))
          captured[value].push_back(&use);
      }
    });
  SmallVector<Value> inputs;
  for (auto &[value, uses] : captured) {
    Operation *def = value.getDefiningOp();
    if (!buffers.contains(value) &&
        (!def || !def->hasTrait<OpTrait::ConstantLike>()))
      inputs.push_back(value);
  }

  rewriter.setInsertionPoint(root);
  auto dispatch = rewriter.create<choir::DispatchOp>(
      root->getLoc(), ValueRange(results).getTypes(), inputs, outputs, plan);
  Block *body = rewriter.createBlock(&dispatch.getBody());
  for (Value operand : dispatch.getOperands())
    body->addArgument(operand.getType(), operand.getLoc());
  for (Operation *op : members)
    rewriter.moveOpBefore(op, body, body->end());
  rewriter.setInsertionPointToEnd(body);
  rewriter.create<choir::YieldOp>(root->getLoc(), results);
  // The region's plan is the root's; the memory stage plans epilogues too,
  // for those it cannot fuse, which are regions of their own.
  for (Operation *op : members)
    op->removeAttr(choir::kPlanAttrName);

  ArrayRef<BlockArgument> outputArguments =
      body->getArguments().take_back(outputs.size());
  for (auto [destination, argument] :
       llvm::zip(destinations, outputArguments.take_back(destinations.size())))
    destination->set(argument);
  unsigned input = 0;
  for (auto &[value, uses] : captured) {
    Value replacement;
    Operation *def = value.getDefiningOp();
    if (buffers.contains(value)) {
      replacement =
          outputArguments[llvm::find(buffers, value) - buffers.begin()];
    } else if (def && def->hasTrait<OpTrait::ConstantLike>()) {
      rewriter.setInsertionPointToStart(body);
      replacement = rewriter.clone(*def)->getResult(0);
    } else {
      replacement = body->getArgument(input++);
    }
    for (OpOperand *use : uses)
      use->set(replacement);
    if (def && def->use_empty())
      rewriter.eraseOp(def);
  }

  for (auto [result, value] : llvm::zip(dispatch.getResults(), results))
    value.replaceUsesWithIf(result, [&](OpOperand &use) {
      return !dispatch->isAncestor(use.getOwner());
    });
  return success();
}

} // namespace

void accy::inlineDispatchRegion(RewriterBase &rewriter,
                                choir::DispatchOp dispatch) {
  setPlan(dispatch.getRoot(), dispatch.getPlan());
  Block &body = dispatch.getBody().front();
  auto yield = cast<choir::YieldOp>(body.getTerminator());
  SmallVector<Value> results(yield.getValues());
  rewriter.eraseOp(yield);
  rewriter.inlineBlockBefore(&body, dispatch, dispatch.getOperands());
  rewriter.replaceOp(dispatch, results);
}

void accy::inlineDispatchRegions(RewriterBase &rewriter, Operation *root) {
  SmallVector<choir::DispatchOp> dispatches;
  root->walk(
      [&](choir::DispatchOp dispatch) { dispatches.push_back(dispatch); });
  for (choir::DispatchOp dispatch : dispatches)
    inlineDispatchRegion(rewriter, dispatch);
}

namespace {

struct BuildDispatchRegionsPass
    : public accy::dispatch::impl::BuildDispatchRegionsBase<
          BuildDispatchRegionsPass> {
  LogicalResult build(ModuleOp kernel) {
    func::FuncOp entry = getKernelEntry(kernel);
    if (!entry)
      return failure();
    llvm::MapVector<int64_t, SmallVector<Operation *>> dispatches;
    for (Operation &op : entry.getBody().front())
      if (int64_t id = getDispatchId(&op); id >= 0)
        dispatches[id].push_back(&op);
    IRRewriter rewriter(&getContext());
    for (auto &[id, members] : dispatches) {
      Operation *root = nullptr;
      for (Operation *op : members)
        if (getDispatchRoot(op) == op)
          root = op;
      choir::PlanAttr plan = root ? getPlan(root) : nullptr;
      if (!plan)
        return members.front()->emitError()
               << "dispatch " << id
               << " has no planned root (run accy-choir-plan-schedule first)";
      bool onBuffers = llvm::none_of(
          members, [](Operation *op) { return op->getNumResults() != 0; });
      if (!onBuffers) {
        if (failed(buildRegion(rewriter, members, root, plan)))
          return failure();
        continue;
      }
      for (ArrayRef<Operation *> group : groupOnBuffers(members, root)) {
        Operation *groupRoot =
            llvm::is_contained(group, root) ? root : group[0];
        choir::PlanAttr groupPlan = getPlan(groupRoot);
        if (!groupPlan)
          return groupRoot->emitError()
                 << "dispatch " << id << ": an epilogue that runs as a "
                 << "kernel of its own on buffers has no plan (run "
                    "accy-choir-plan-buffers first)";
        if (failed(buildRegion(rewriter, group, groupRoot, groupPlan)))
          return failure();
      }
    }
    return success();
  }

  void runOnOperation() override {
    ModuleOp kernel = getOperation();
    if (failed(verifyKernelModuleAnchor(kernel, getArgument())) ||
        failed(build(kernel)))
      signalPassFailure();
  }
};

} // namespace
