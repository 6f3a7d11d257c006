//===- ShapeLayoutPropagate.cpp - accy-choir-shape-layout-propagate -------===//
//
// With the classes of equal dimensions of a kernel (ShapeUnifier), the pass
// tightens result types, makes implicit broadcasts explicit and folds
// transposes into einsum specs.
//
//===----------------------------------------------------------------------===//

#include "ShapeUnifier.h"
#include "accy/Stages/Contract/Passes.h"

#include "mlir/IR/Dominance.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <map>

namespace accy::contract {
#define GEN_PASS_DEF_CHOIRSHAPELAYOUTPROPAGATE
#include "accy/Stages/Contract/Passes.h.inc"
} // namespace accy::contract

using namespace mlir;
using namespace accy;
using namespace accy::contract;

namespace {

/// Where the dynamic sizes of explicit broadcasts come from: tensor.dim of a
/// kernel argument, created once at the function's entry.
class SizeMaterializer {
public:
  SizeMaterializer(func::FuncOp func, ShapeUnifier &shapes)
      : func(func), shapes(shapes) {}

  /// The size of dimension `r` of `op`'s result (rank `rank`), from the
  /// argument that binds its class, or from an operand of `op` that has the
  /// dimension unbroadcast.
  Value sizeOf(OpBuilder &b, Operation *op, int64_t r) {
    Value result = op->getResult(0);
    const DimClass &c = shapes.classOf(result, r);
    if (c.bindArg >= 0) {
      auto key = std::make_pair(c.bindArg, c.bindDim);
      auto it = entrySizes.find(key);
      if (it != entrySizes.end())
        return it->second;
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&func.getBody().front());
      Value dim = b.create<tensor::DimOp>(
          op->getLoc(), func.getArgument(c.bindArg), c.bindDim);
      entrySizes[key] = dim;
      return dim;
    }
    int64_t rank = tensorType(result).getRank();
    for (Value operand : op->getOperands()) {
      auto type = tensorType(operand);
      int64_t d = r - (rank - type.getRank());
      if (d >= 0 && type.isDynamicDim(d) &&
          shapes.sameClass(operand, d, result, r))
        return b.create<tensor::DimOp>(op->getLoc(), operand, d);
    }
    return {};
  }

private:
  func::FuncOp func;
  ShapeUnifier &shapes;
  std::map<std::pair<int64_t, int64_t>, Value> entrySizes;
};

/// Gives static sizes to the result types of choir ops. Uses by ops outside
/// the choir dialect that need the declared type get a tensor.cast back.
int64_t tightenTypes(func::FuncOp func, ShapeUnifier &shapes) {
  int64_t count = 0;
  OpBuilder b(func.getContext());
  func.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!isa<choir::ChoirDialect>(op->getDialect()) || op->getNumResults() != 1)
      return;
    Value result = op->getResult(0);
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type || type.hasStaticShape() ||
        isa<choir::SliceOp, choir::IotaOp, choir::ConstantOp>(op))
      return;
    RankedTensorType refined;
    if (op->hasTrait<OpTrait::SameOperandsAndResultType>())
      refined = tensorType(op->getOperand(0));
    else
      refined = RankedTensorType::get(shapes.refinedShape(result),
                                      type.getElementType());
    if (refined == type || failed(verifyCompatibleShape(refined.getShape(), type.getShape())))
      return;
    // Ops whose size operands follow the dynamic dimensions drop those that
    // became static.
    if (isa<choir::BroadcastOp, choir::ReshapeOp, choir::FullOp>(op)) {
      ValueRange sizes = isa<choir::FullOp>(op) ? op->getOperands()
                                                : op->getOperands().drop_front();
      SmallVector<Value> operands;
      if (!isa<choir::FullOp>(op))
        operands.push_back(op->getOperand(0));
      unsigned next = 0;
      for (int64_t d = 0; d < type.getRank(); ++d) {
        if (!type.isDynamicDim(d))
          continue;
        Value size = sizes[next++];
        if (refined.isDynamicDim(d))
          operands.push_back(size);
      }
      op->setOperands(operands);
    }
    result.setType(refined);
    ++count;
    b.setInsertionPointAfter(op);
    Value back;
    for (OpOperand &use : llvm::make_early_inc_range(result.getUses())) {
      Operation *user = use.getOwner();
      if (isa<choir::ChoirDialect>(user->getDialect()) ||
          isa<tensor::DimOp, tensor::CastOp>(user))
        continue;
      if (!back)
        back = b.create<tensor::CastOp>(op->getLoc(), type, result);
      use.set(back);
    }
  });
  return count;
}

/// Replaces each operand of an elementwise op whose shape differs from the
/// result's with an explicit broadcast (or a tensor.cast).
LogicalResult makeBroadcastsExplicit(func::FuncOp func, ShapeUnifier &shapes,
                                     int64_t &count) {
  SizeMaterializer sizes(func, shapes);
  OpBuilder b(func.getContext());
  DominanceInfo dominance(func);
  // One broadcast of a value to a type serves every later op that needs it.
  llvm::DenseMap<std::pair<Value, Type>, Value> made;
  WalkResult walk = func.getBody().walk([&](Operation *op) {
    if (!isa<choir::AddOp, choir::SubOp, choir::MulOp, choir::DivOp,
             choir::CmpOp, choir::SelectOp>(op))
      return WalkResult::advance();
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    b.setInsertionPoint(op);
    for (OpOperand &operand : op->getOpOperands()) {
      auto type = tensorType(operand.get());
      auto target = RankedTensorType::get(resultType.getShape(),
                                          type.getElementType());
      if (type == target)
        continue;
      Value &cached = made[{operand.get(), target}];
      if (cached && dominance.properlyDominates(cached, op)) {
        operand.set(cached);
        continue;
      }
      Value replacement;
      if (isPureCast(type.getShape(), target.getShape())) {
        replacement =
            b.create<tensor::CastOp>(op->getLoc(), target, operand.get());
      } else {
        SmallVector<Value> dynamic;
        for (int64_t r = 0; r < target.getRank(); ++r) {
          if (!target.isDynamicDim(r))
            continue;
          Value size = sizes.sizeOf(b, op, r);
          if (!size) {
            op->emitOpError() << "cannot broadcast operand "
                              << operand.getOperandNumber()
                              << ": no value holds the size of result "
                                 "dimension "
                              << r;
            return WalkResult::interrupt();
          }
          dynamic.push_back(size);
        }
        replacement = b.create<choir::BroadcastOp>(op->getLoc(), target,
                                                   operand.get(), dynamic);
        ++count;
      }
      cached = replacement;
      operand.set(replacement);
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// einsum(..., transpose(w), ...) reads w through a permuted term.
struct FoldTransposeIntoEinsum : CountedPattern<choir::EinsumOp> {
  using CountedPattern::CountedPattern;
  LogicalResult matchAndRewrite(choir::EinsumOp op,
                                PatternRewriter &rewriter) const override {
    auto spec = op.parseSpec();
    if (!spec) {
      llvm::consumeError(spec.takeError());
      return failure();
    }
    // Relabelling '...' as letters would lose a batch broadcast.
    if (einsumBroadcasts(*spec, op.getInputs()))
      return failure();
    SmallVector<Value> operands(op.getInputs());
    bool changed = false;
    for (auto [k, operand] : llvm::enumerate(op.getInputs())) {
      auto transpose = operand.getDefiningOp<choir::TransposeOp>();
      if (!transpose)
        continue;
      // result dim i is input dim perm[i]: the input's dim perm[i] carries
      // the label of the result's dim i.
      std::string &term = spec->operands[k];
      std::string permuted(term.size(), ' ');
      for (auto [i, p] : llvm::enumerate(transpose.getPerm()))
        permuted[p] = term[i];
      term = permuted;
      operands[k] = transpose.getInput();
      changed = true;
    }
    if (!changed)
      return failure();
    std::optional<std::string> text = sourceSpec(*spec);
    if (!text)
      return failure();
    rewriter.replaceOpWithNewOp<choir::EinsumOp>(
        op, op.getType(), rewriter.getStringAttr(*text), operands);
    if (counter)
      ++counter->rewrites;
    return success();
  }
};

struct ChoirShapeLayoutPropagatePass
    : contract::impl::ChoirShapeLayoutPropagateBase<
          ChoirShapeLayoutPropagatePass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet layoutPatterns(ctx);
    RewriteCounter layoutCounter;
    populateChoirLayoutFoldingPatterns(layoutPatterns, &layoutCounter);
    FrozenRewritePatternSet frozen(std::move(layoutPatterns));

    SmallVector<func::FuncOp> funcs;
    getOperation()->walk([&](func::FuncOp f) {
      if (!f.isExternal())
        funcs.push_back(f);
    });
    for (func::FuncOp func : funcs) {
      ShapeUnifier shapes(func);
      if (failed(shapes.run()))
        return signalPassFailure();
      numTightened += tightenTypes(func, shapes);
      int64_t broadcasts = 0;
      if (failed(makeBroadcastsExplicit(func, shapes, broadcasts)))
        return signalPassFailure();
      numBroadcasts += broadcasts;

      SmallVector<Operation *> einsums;
      func.walk([&](choir::EinsumOp op) { einsums.push_back(op); });
      GreedyRewriteConfig config;
      config.strictMode = GreedyRewriteStrictness::ExistingOps;
      (void)applyOpPatternsAndFold(einsums, frozen, config);
      SmallVector<choir::TransposeOp> dead;
      func.walk([&](choir::TransposeOp op) {
        if (op->use_empty())
          dead.push_back(op);
      });
      for (choir::TransposeOp op : dead)
        op->erase();
      func->setAttr("choir.layout", StringAttr::get(ctx, "row-major"));
    }
    numLayoutFolds += layoutCounter.rewrites;
  }
};

} // namespace

void contract::populateChoirLayoutFoldingPatterns(RewritePatternSet &patterns,
                                                  RewriteCounter *counter) {
  patterns.add<FoldTransposeIntoEinsum>(patterns.getContext(), counter);
}
