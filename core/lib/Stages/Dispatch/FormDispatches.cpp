//===- FormDispatches.cpp - Dispatch regions with elementwise fusion ------===//
//
// A dispatch is one linalg root plus the elementwise producers fused into
// it, the fills that initialise its outputs, and the elementwise consumers
// of a reduction's or contraction's result fused after it (its epilogue);
// each dispatch becomes one GPU launch. Producer fusion itself is upstream's
// elementwise fusion; what is Accy's own is the cost model (no recomputation
// through broadcasts, small producers duplicated into each consumer) and the
// marking of roots, inits and epilogues.
//
//===----------------------------------------------------------------------===//

#include "accy/Stages/Dispatch/Passes.h"
#include "accy/Stages/Dispatch/Plan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/RegionUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace accy::dispatch {
#define GEN_PASS_DEF_FORMDISPATCHES
#include "accy/Stages/Dispatch/Passes.h.inc"
} // namespace accy::dispatch

using namespace mlir;
using namespace accy;

namespace {

/// A consumer reads `operand` once per element of the producer when the
/// indexing map is a permutation: fusing then never recomputes a producer
/// element more than once per consumer. So does a scan through a map of
/// every loop but its axis: its kernels evaluate the payload once per
/// element (at j = i), not once per (i, j).
bool readsOncePerElement(OpOperand *operand) {
  auto consumer = dyn_cast<linalg::GenericOp>(operand->getOwner());
  if (!consumer || !consumer.isDpsInput(operand))
    return false;
  AffineMap map = consumer.getMatchingIndexingMap(operand);
  if (map.isPermutation())
    return true;
  DispatchShape shape = classifyDispatch(consumer);
  return shape.schedule == Schedule::Scan && map.isProjectedPermutation() &&
         map.getNumResults() + 1 == map.getNumDims() &&
         !map.isFunctionOfDim(shape.scanAxis);
}

bool isElementwiseGeneric(linalg::GenericOp op) {
  return op.getNumReductionLoops() == 0 && op.getNumDpsInits() == 1 &&
         op.hasPureTensorSemantics();
}

/// Clones a small elementwise producer for each of its consumers but the
/// first, when every use is a fusible read. Upstream fusion keeps a
/// multi-use producer alive as an extra result of the fused op; a private
/// copy per consumer lets each fusion consume its producer completely.
void duplicateSharedProducers(func::FuncOp func, unsigned maxOps) {
  SmallVector<linalg::GenericOp> generics;
  func.walk([&](linalg::GenericOp op) { generics.push_back(op); });
  IRRewriter rewriter(func.getContext());
  // Consumers before producers, so that a chain duplicates in one sweep.
  for (linalg::GenericOp producer : llvm::reverse(generics)) {
    if (!isElementwiseGeneric(producer))
      continue;
    Value result = producer->getResult(0);
    if (result.hasOneUse() || result.use_empty())
      continue;
    if (producer.getBlock()->getOperations().size() - 1 > maxOps)
      continue;
    if (!llvm::all_of(result.getUses(), [](OpOperand &use) {
          return readsOncePerElement(&use);
        }))
      continue;
    cloneForEachUseButFirst(rewriter, producer);
  }
}

/// Gives each reduction or contraction its own copy of a fill that several
/// of them start from, so that every fill folds into its root's dispatch
/// (a shared fill would be a dispatch of its own, and bufferization would
/// copy its buffer for the second root).
void duplicateSharedFills(func::FuncOp func) {
  SmallVector<linalg::FillOp> fills;
  func.walk([&](linalg::FillOp fill) { fills.push_back(fill); });
  IRRewriter rewriter(func.getContext());
  for (linalg::FillOp fill : fills) {
    if (fill->getNumResults() != 1 || fill->getResult(0).hasOneUse())
      continue;
    if (!llvm::all_of(fill->getResult(0).getUses(), [](OpOperand &use) {
          auto root = dyn_cast<linalg::LinalgOp>(use.getOwner());
          return root && root.isDpsInit(&use) &&
                 root.getNumReductionLoops() > 0;
        }))
      continue;
    cloneForEachUseButFirst(rewriter, fill);
  }
}

/// A result that later ops may read inside its root's kernel: one value per
/// point of the root's result (the root's own, a point epilogue's, or a
/// reduction of the same row's), or one per element of the row (an op that
/// maps the row of a row reduction).
struct FusedResult {
  Operation *root = nullptr;
  bool perRowElement = false;
};

/// The root whose dispatch `op` can join as an epilogue: `op` runs at the
/// points of the result of a reduction or contraction, or over the rows of
/// a row reduction (mapping or reducing them again: a row pipeline); reads
/// that root's fused results where its kernel has them; and needs nothing
/// computed after the root, other than pure scalars, fills and
/// destinations, which move before the root. Of several roots whose results
/// it reads, it joins the last, where the others' results exist.
Operation *findEpilogueRoot(linalg::GenericOp op,
                            const llvm::DenseMap<Value, FusedResult> &fused) {
  if (op->getNumResults() != 1 || op.getNumDpsInits() != 1 ||
      !op.hasPureTensorSemantics())
    return nullptr;
  Operation *last = nullptr;
  for (OpOperand *input : op.getDpsInputOperands())
    if (Operation *candidate = fused.lookup(input->get()).root)
      if (!last || last->isBeforeInBlock(candidate))
        last = candidate;
  if (!last)
    return nullptr;
  auto root = cast<linalg::LinalgOp>(last);
  if (!runsAtRootResult(op, root) && !followsRootRow(op, root))
    return nullptr;
  for (OpOperand *input : op.getDpsInputOperands()) {
    FusedResult result = fused.lookup(input->get());
    if (result.root == root &&
        !readsInRootKernel(op, input, root, result.perRowElement))
      return nullptr;
  }
  // What the epilogue uses must exist where the root runs: its operands
  // (the destination included) and the scalars its payload captures.
  llvm::SetVector<Value> used(op->getOperands().begin(),
                              op->getOperands().end());
  getUsedValuesDefinedAbove(op->getRegions(), used);
  for (Value value : used)
    if (fused.lookup(value).root != root && !hoistBefore(value, root))
      return nullptr;
  return root;
}

/// Upstream's elementwise fusion of a producer into a scan, keeping the
/// scan's tag: the generic upstream builds has none of the consumer's
/// attributes.
struct FuseIntoScan : OpRewritePattern<linalg::GenericOp> {
  FuseIntoScan(MLIRContext *ctx, linalg::ControlFusionFn control)
      : OpRewritePattern(ctx, /*benefit=*/2), control(std::move(control)) {}

  LogicalResult matchAndRewrite(linalg::GenericOp scan,
                                PatternRewriter &rewriter) const override {
    Attribute tag = scan->getAttr(kScanAttrName);
    if (!tag)
      return failure();
    for (OpOperand *operand : scan.getDpsInputOperands()) {
      if (!linalg::areElementwiseOpsFusable(operand) || !control(operand))
        continue;
      Operation *producer = operand->get().getDefiningOp();
      FailureOr<linalg::ElementwiseOpFusionResult> fused =
          linalg::fuseElementwiseOps(rewriter, operand);
      if (failed(fused))
        return failure();
      fused->fusedOp->setAttr(kScanAttrName, tag);
      for (auto [original, replacement] : fused->replacements)
        rewriter.replaceUsesWithIf(original, replacement, [&](OpOperand &use) {
          return use.getOwner() != producer;
        });
      rewriter.eraseOp(scan);
      return success();
    }
    return failure();
  }

  linalg::ControlFusionFn control;
};

struct FormDispatchesPass
    : public accy::dispatch::impl::FormDispatchesBase<FormDispatchesPass> {
  using Base::Base;

  LogicalResult formDispatches(ModuleOp kernel) {
    func::FuncOp entry = getKernelEntry(kernel);
    if (!entry)
      return failure();
    duplicateSharedProducers(entry, maxRecomputeOps);
    duplicateSharedFills(entry);

    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    linalg::ControlFusionFn control = [](OpOperand *operand) {
      auto producer = operand->get().getDefiningOp<linalg::GenericOp>();
      return producer && isElementwiseGeneric(producer) &&
             operand->get().hasOneUse() && readsOncePerElement(operand);
    };
    patterns.add<FuseIntoScan>(ctx, control);
    // Scans fuse only through FuseIntoScan.
    linalg::populateElementwiseOpsFusionPatterns(
        patterns, [control](OpOperand *operand) {
          return !operand->getOwner()->hasAttr(kScanAttrName) &&
                 control(operand);
        });
    if (failed(applyPatternsAndFoldGreedily(entry, std::move(patterns))))
      return entry.emitError("elementwise fusion did not converge");

    // Number the roots in program order; fold the fills that only
    // initialise a reduction or contraction, and the elementwise consumers
    // of its result that can run as its epilogue, into that root's dispatch.
    int64_t next = 0;
    SmallVector<linalg::LinalgOp> ops;
    entry.walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    llvm::DenseSet<Operation *> inits;
    for (linalg::LinalgOp op : ops) {
      if (!isa<linalg::FillOp>(op) || op->getNumResults() != 1 ||
          !op->getResult(0).hasOneUse())
        continue;
      OpOperand &use = *op->getResult(0).getUses().begin();
      auto root = dyn_cast<linalg::LinalgOp>(use.getOwner());
      if (root && root.isDpsInit(&use) && root.getNumReductionLoops() > 0)
        inits.insert(op);
    }
    // Results of reductions and contractions and of their epilogues so far,
    // and each root's dispatch id.
    llvm::DenseMap<Value, FusedResult> fused;
    llvm::DenseMap<Operation *, int64_t> rootIds;
    auto markInits = [&](linalg::LinalgOp op, int64_t id) {
      for (Value init : op.getDpsInits())
        if (Operation *fill = init.getDefiningOp(); fill && inits.contains(fill))
          setDispatchMember(fill, id, choir::DispatchRole::Init);
    };
    for (linalg::LinalgOp op : ops) {
      if (inits.contains(op))
        continue;
      if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()))
        if (Operation *root = findEpilogueRoot(generic, fused)) {
          int64_t id = rootIds.lookup(root);
          setDispatchMember(op, id, choir::DispatchRole::Epilogue);
          markInits(op, id);
          fused[op->getResult(0)] = {
              root, isPerRowElement(op, cast<linalg::LinalgOp>(root))};
          continue;
        }
      int64_t id = next++;
      setDispatchMember(op, id);
      markInits(op, id);
      if (op.getNumReductionLoops() > 0 && op->getNumResults() == 1) {
        rootIds[op] = id;
        fused[op->getResult(0)] = {op, false};
      }
    }
    return success();
  }

  void runOnOperation() override {
    ModuleOp kernel = getOperation();
    if (failed(verifyKernelModuleAnchor(kernel, getArgument())) ||
        failed(formDispatches(kernel)))
      signalPassFailure();
  }
};

} // namespace
