//===- Classify.cpp - Which schedule a dispatch root takes ----------------===//

#include "accy/Stages/Dispatch/Plan.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"

using namespace mlir;
using namespace accy;

std::string accy::combinerName(Operation *combiner) {
  return combiner->getName().stripDialect().str();
}

Operation *accy::getYieldedCombiner(linalg::LinalgOp op) {
  // As matchCombiner requires: the combiner's result is what the payload
  // yields.
  Operation *yield = op.getBlock() ? op.getBlock()->getTerminator() : nullptr;
  return yield && yield->getNumOperands() == 1
             ? yield->getOperand(0).getDefiningOp()
             : nullptr;
}

/// Finds the contraction operands: the input that depends on M and K but not
/// N (lhs) and the one that depends on K and N but not M (rhs). Of several
/// M (or N) loops, as in `x: f32[B, T, D] @ w: f32[D, H]`, the one the
/// output varies fastest along is M (N); the others are batch loops, read
/// by one input only.
static bool matchContraction(linalg::LinalgOp op, DispatchShape &shape) {
  if (op.getNumDpsInits() != 1 || op.getNumDpsInputs() != 2 ||
      !linalg::isaContractionOpInterface(op))
    return false;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.empty() || dims->n.empty() || dims->k.size() != 1)
    return false;
  for (AffineMap map : op.getIndexingMapsArray())
    if (!map.isProjectedPermutation())
      return false;
  AffineMap result = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  auto innermost = [&](ArrayRef<unsigned> loops) {
    return *llvm::max_element(loops, [&](unsigned a, unsigned b) {
      return *result.getResultPosition(getAffineDimExpr(a, op.getContext())) <
             *result.getResultPosition(getAffineDimExpr(b, op.getContext()));
    });
  };
  unsigned m = innermost(dims->m), n = innermost(dims->n), k = dims->k[0];
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (!isa<ShapedType>(input->get().getType()))
      return false;
    AffineMap map = op.getMatchingIndexingMap(input);
    bool usesM = map.isFunctionOfDim(m), usesN = map.isFunctionOfDim(n),
         usesK = map.isFunctionOfDim(k);
    int64_t index = input->getOperandNumber();
    if (usesM && usesK && !usesN)
      shape.lhsInput = index;
    else if (usesN && usesK && !usesM)
      shape.rhsInput = index;
  }
  if (shape.lhsInput < 0 || shape.rhsInput < 0)
    return false;
  shape.mDim = m;
  shape.nDim = n;
  shape.kDim = k;
  shape.batchDims.assign(dims->batch.begin(), dims->batch.end());
  for (unsigned loop : llvm::concat<unsigned>(dims->m, dims->n))
    if (loop != m && loop != n)
      shape.batchDims.push_back(loop);
  llvm::sort(shape.batchDims);
  return true;
}

/// True when the fastest-varying dimension of the largest input is indexed
/// by a reduction loop: threads striding the reduction then read adjacent
/// elements.
static bool reducesContiguously(linalg::LinalgOp op) {
  OpOperand *widest = nullptr;
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto type = dyn_cast<ShapedType>(input->get().getType());
    if (!type || type.getRank() == 0)
      continue;
    if (!widest ||
        type.getRank() > cast<ShapedType>(widest->get().getType()).getRank())
      widest = input;
  }
  if (!widest)
    return false;
  AffineMap map = op.getMatchingIndexingMap(widest);
  auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
  if (!last)
    return false;
  return linalg::isReductionIterator(
      op.getIteratorTypesArray()[last.getPosition()]);
}

/// The single combiner of a one-output reduction that has a neutral element
/// and whose result is what the payload yields, or null.
static Operation *matchCombiner(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || !op.getBlock())
    return nullptr;
  SmallVector<Operation *, 4> combiners;
  Value reduced = matchReduction(op.getRegionOutputArgs(), 0, combiners);
  if (!reduced || combiners.size() != 1 ||
      combiners[0]->getNumOperands() != 2 ||
      combiners[0]->getNumResults() != 1 ||
      !arith::getNeutralElement(combiners[0]) ||
      getYieldedCombiner(op) != combiners[0])
    return nullptr;
  return combiners[0];
}

/// A scan tagged by the tensor stage: one reduction loop j, and a payload
/// that masks the elements by j <= i (`arith.cmpi ule` of `linalg.index`
/// j and i), i the parallel loop of the scanned axis. The mask, not the
/// operands' maps, names i: a fused broadcast may read no operand along it.
static bool matchScan(linalg::LinalgOp op, DispatchShape &shape) {
  if (!op->hasAttr(kScanAttrName) || op.getNumReductionLoops() != 1)
    return false;
  Operation *combiner = matchCombiner(op);
  if (!combiner)
    return false;
  SmallVector<unsigned> reductions;
  op.getReductionDims(reductions);
  auto loopOf = [](Value value) -> std::optional<uint64_t> {
    if (auto index = value.getDefiningOp<linalg::IndexOp>())
      return index.getDim();
    return std::nullopt;
  };
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (auto mask : op.getBlock()->getOps<arith::CmpIOp>()) {
    std::optional<uint64_t> j = loopOf(mask.getLhs());
    std::optional<uint64_t> i = loopOf(mask.getRhs());
    if (mask.getPredicate() != arith::CmpIPredicate::ule || !j || !i ||
        *j != reductions[0] || !linalg::isParallelIterator(iterators[*i]))
      continue;
    shape.scanAxis = *i;
    shape.scanReduction = *j;
    shape.combiner = combiner;
    return true;
  }
  return false;
}

DispatchShape accy::classifyDispatch(linalg::LinalgOp op) {
  DispatchShape shape;
  if (op.getNumReductionLoops() == 0)
    return shape;
  if (matchScan(op, shape)) {
    shape.schedule = Schedule::Scan;
    return shape;
  }
  if (matchContraction(op, shape)) {
    shape.schedule = Schedule::TiledContraction;
    return shape;
  }
  shape.schedule = Schedule::ThreadReduction;
  Operation *combiner = matchCombiner(op);
  if (!combiner)
    return shape;
  // Subgroup reductions of 8- to 32-bit values become 32-bit shuffles (the
  // value widened), of 64-bit ones 64-bit shuffles, which the target stage
  // splits in two (GPULowering.cpp).
  Type accType = combiner->getResult(0).getType();
  if (!accType.isIntOrFloat() || accType.getIntOrFloatBitWidth() < 8 ||
      accType.getIntOrFloatBitWidth() > 64)
    return shape;
  if (!reducesContiguously(op))
    return shape;
  shape.schedule = Schedule::RowReduction;
  shape.combiner = combiner;
  return shape;
}
