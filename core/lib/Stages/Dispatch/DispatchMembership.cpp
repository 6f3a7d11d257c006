//===- DispatchMembership.cpp - Which ops a dispatch holds ----------------===//

#include "accy/Stages/Dispatch/Plan.h"

#include "accy/Dialect/Choir/IR/Choir.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace accy;

void accy::setDispatchMember(Operation *op, int64_t id,
                             choir::DispatchRole role) {
  op->setAttr(choir::kMemberAttrName,
              choir::MemberAttr::get(op->getContext(), id, role));
}

/// The membership of `op`; a dispatch region's is its root's.
static choir::MemberAttr getMember(Operation *op) {
  if (auto dispatch = dyn_cast<choir::DispatchOp>(op))
    op = dispatch.getRoot();
  return op->getAttrOfType<choir::MemberAttr>(choir::kMemberAttrName);
}

int64_t accy::getDispatchId(Operation *op) {
  choir::MemberAttr member = getMember(op);
  return member ? member.getId() : -1;
}

static bool hasRole(Operation *op, choir::DispatchRole role) {
  choir::MemberAttr member = getMember(op);
  return member && member.getRole() == role;
}

bool accy::isDispatchInit(Operation *op) {
  return hasRole(op, choir::DispatchRole::Init);
}

bool accy::isDispatchEpilogue(Operation *op) {
  return hasRole(op, choir::DispatchRole::Epilogue);
}

static AffineMap resultMap(linalg::LinalgOp op) {
  return op.getMatchingIndexingMap(op.getDpsInitOperand(0));
}

bool accy::runsAtRootResult(linalg::LinalgOp op, linalg::LinalgOp root) {
  return op.getNumReductionLoops() == 0 &&
         op.getNumLoops() == resultMap(root).getNumResults();
}

bool accy::followsRootRow(linalg::LinalgOp op, linalg::LinalgOp root) {
  if (classifyDispatch(root).schedule != Schedule::RowReduction ||
      op.getNumLoops() != root.getNumLoops())
    return false;
  if (op.getNumReductionLoops() == 0)
    return true;
  return op.getIteratorTypesArray() == root.getIteratorTypesArray() &&
         resultMap(op) == resultMap(root) &&
         classifyDispatch(op).schedule == Schedule::RowReduction;
}

bool accy::isPerRowElement(linalg::LinalgOp op, linalg::LinalgOp root) {
  return op.getNumLoops() == root.getNumLoops() &&
         op.getNumReductionLoops() == 0;
}

bool accy::readsInRootKernel(linalg::LinalgOp op, OpOperand *input,
                             linalg::LinalgOp root, bool perRowElement) {
  AffineMap map = op.getMatchingIndexingMap(input);
  if (op.getNumLoops() == root.getNumLoops())
    return perRowElement ? map.isIdentity() : map == resultMap(root);
  return !perRowElement && map.isIdentity();
}

/// The buffer `value` views (through view-like ops and reshapes).
static Value baseBuffer(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (auto view = dyn_cast<ViewLikeOpInterface>(def))
      value = view.getViewSource();
    else if (isa<memref::CollapseShapeOp, memref::ExpandShapeOp,
                 memref::ReshapeOp>(def))
      value = def->getOperand(0);
    else
      break;
  }
  return value;
}

bool accy::canRunInRootKernel(linalg::LinalgOp root,
                              ArrayRef<linalg::LinalgOp> chain,
                              linalg::LinalgOp epilogue) {
  bool rowPipeline = getPlannedSchedule(root) == Schedule::RowReduction;
  if (root.getNumDpsInits() != 1 || epilogue.getNumDpsInits() != 1)
    return false;
  if (!runsAtRootResult(epilogue, root) &&
      !(rowPipeline && followsRootRow(epilogue, root)))
    return false;
  // The buffers the kernel computes, and whether per row element.
  llvm::DenseMap<Value, bool> computed{{root.getDpsInits()[0], false}};
  for (linalg::LinalgOp fused : chain)
    computed[fused.getDpsInits()[0]] = isPerRowElement(fused, root);
  bool readsComputed = false;
  for (OpOperand *input : epilogue.getDpsInputOperands()) {
    auto it = computed.find(input->get());
    if (it == computed.end())
      continue;
    if (!readsInRootKernel(epilogue, input, root, it->second))
      return false;
    readsComputed = true;
  }
  if (!readsComputed)
    return false;
  llvm::SetVector<Value> used(epilogue->getOperands().begin(),
                              epilogue->getOperands().end());
  getUsedValuesDefinedAbove(epilogue->getRegions(), used);
  for (Value value : used) {
    Operation *def = value.getDefiningOp();
    if (def && def->getBlock() == root->getBlock() &&
        !def->isBeforeInBlock(root))
      return false;
  }
  llvm::SmallPtrSet<Value, 8> reads, writes;
  for (OpOperand *input : epilogue.getDpsInputOperands())
    reads.insert(baseBuffer(input->get()));
  writes.insert(baseBuffer(epilogue.getDpsInits()[0]));
  for (Operation *op = root->getNextNode(); op && op != epilogue;
       op = op->getNextNode()) {
    if (llvm::is_contained(chain, op) || isMemoryEffectFree(op))
      continue;
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects)
      return false;
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (const MemoryEffects::EffectInstance &effect : instances) {
      Value value = effect.getValue();
      if (!value)
        return false;
      Value base = baseBuffer(value);
      bool writesHere =
          isa<MemoryEffects::Write, MemoryEffects::Free>(effect.getEffect());
      if ((writesHere && (reads.contains(base) || writes.contains(base))) ||
          (isa<MemoryEffects::Read>(effect.getEffect()) &&
           writes.contains(base)))
        return false;
    }
  }
  return true;
}

void accy::cloneForEachUseButFirst(RewriterBase &rewriter, Operation *op) {
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : op->getResult(0).getUses())
    uses.push_back(&use);
  llvm::sort(uses, [](OpOperand *a, OpOperand *b) {
    if (a->getOwner() == b->getOwner())
      return a->getOperandNumber() < b->getOperandNumber();
    return a->getOwner()->isBeforeInBlock(b->getOwner());
  });
  for (OpOperand *use : llvm::drop_begin(uses)) {
    rewriter.setInsertionPoint(use->getOwner());
    Operation *copy = rewriter.clone(*op);
    rewriter.modifyOpInPlace(use->getOwner(),
                             [&] { use->set(copy->getResult(0)); });
  }
}

bool accy::hoistBefore(Value value, Operation *point) {
  Operation *def = value.getDefiningOp();
  if (!def || def->getBlock() != point->getBlock() ||
      def->isBeforeInBlock(point))
    return true;
  // A fill on tensors (a reduction's start) is the one op with a region
  // that moves; its body uses nothing from outside.
  if (!isMemoryEffectFree(def) ||
      (def->getNumRegions() != 0 && !isa<linalg::FillOp>(def)))
    return false;
  for (Value operand : def->getOperands())
    if (!hoistBefore(operand, point))
      return false;
  def->moveBefore(point);
  return true;
}

Operation *accy::getDispatchRoot(Operation *op) {
  choir::MemberAttr member = getMember(op);
  if (!member)
    return nullptr;
  if (auto dispatch = dyn_cast<choir::DispatchOp>(op))
    return dispatch.getRoot();
  if (member.getRole() == choir::DispatchRole::Root)
    return op;
  // An init precedes its root (the root reads it); an epilogue follows.
  bool forward = member.getRole() == choir::DispatchRole::Init;
  for (Operation *it = forward ? op->getNextNode() : op->getPrevNode(); it;
       it = forward ? it->getNextNode() : it->getPrevNode())
    if (getDispatchId(it) == member.getId() &&
        hasRole(it, choir::DispatchRole::Root))
      return it;
  return nullptr;
}
