//===- Saturate.cpp - accy-choir-saturate ---------------------------------===//
//
// The algebraic rewrite set, applied by the greedy driver to a bounded
// fixpoint. Every rewrite keeps the location of the op it replaces.
//
//===----------------------------------------------------------------------===//

#include "ContractUtils.h"
#include "accy/Stages/Contract/Passes.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace accy::contract {
#define GEN_PASS_DEF_CHOIRSATURATE
#include "accy/Stages/Contract/Passes.h.inc"
} // namespace accy::contract

using namespace mlir;
using namespace accy;
using namespace accy::contract;

namespace {

/// transpose(transpose(x, p1), p2) = transpose(x, p1[p2[i]]), or x.
struct TransposeOfTranspose : CountedPattern<choir::TransposeOp> {
  using CountedPattern::CountedPattern;
  LogicalResult matchAndRewrite(choir::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<choir::TransposeOp>();
    if (!inner)
      return failure();
    SmallVector<int64_t> perm;
    for (int64_t p : op.getPerm())
      perm.push_back(inner.getPerm()[p]);
    bool identity = llvm::equal(perm, llvm::seq<int64_t>(0, perm.size()));
    Value x = inner.getInput();
    if (identity && x.getType() == op.getType())
      rewriter.replaceOp(op, x);
    else if (identity)
      rewriter.replaceOpWithNewOp<tensor::CastOp>(op, op.getType(), x);
    else
      rewriter.replaceOpWithNewOp<choir::TransposeOp>(op, op.getType(), x,
                                                      perm);
    noteRewrite(counter);
    return success();
  }
};

/// reshape(reshape(x)) = reshape(x): row-major reshapes compose.
struct ReshapeOfReshape : CountedPattern<choir::ReshapeOp> {
  using CountedPattern::CountedPattern;
  LogicalResult matchAndRewrite(choir::ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<choir::ReshapeOp>();
    if (!inner)
      return failure();
    rewriter.replaceOpWithNewOp<choir::ReshapeOp>(
        op, op.getType(), inner.getInput(), op.getSizes());
    noteRewrite(counter);
    return success();
  }
};

/// broadcast(broadcast(x)) = broadcast(x): NumPy broadcasts compose.
struct BroadcastOfBroadcast : CountedPattern<choir::BroadcastOp> {
  using CountedPattern::CountedPattern;
  LogicalResult matchAndRewrite(choir::BroadcastOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<choir::BroadcastOp>();
    if (!inner)
      return failure();
    rewriter.replaceOpWithNewOp<choir::BroadcastOp>(
        op, op.getType(), inner.getInput(), op.getSizes());
    noteRewrite(counter);
    return success();
  }
};

/// exp(log x) = x.
struct ExpOfLog : CountedPattern<choir::ExpOp> {
  using CountedPattern::CountedPattern;
  LogicalResult matchAndRewrite(choir::ExpOp op,
                                PatternRewriter &rewriter) const override {
    auto log = op.getInput().getDefiningOp<choir::LogOp>();
    if (!log)
      return failure();
    rewriter.replaceOp(op, log.getInput());
    noteRewrite(counter);
    return success();
  }
};

/// True when `c`, broadcast against a result of rank `rank`, does not vary
/// along `axis` (it lacks that dimension or has size 1 there).
bool constantAlong(Value c, int64_t axis, int64_t rank) {
  auto type = tensorType(c);
  int64_t d = axis - (rank - type.getRank());
  return d < 0 || type.getDimSize(d) == 1;
}

/// softmax(x + c) = softmax(x) when c is constant along the axis; the same
/// for x - c, c + x and log_softmax.
template <typename RowOp>
struct RowOpOfShift : CountedPattern<RowOp> {
  using CountedPattern<RowOp>::CountedPattern;
  LogicalResult matchAndRewrite(RowOp op,
                                PatternRewriter &rewriter) const override {
    Operation *def = op.getInput().getDefiningOp();
    if (!def || !isa<choir::AddOp, choir::SubOp>(def))
      return failure();
    int64_t axis = op.getAxis();
    int64_t rank = op.getType().getRank();
    for (int side = 0; side < (isa<choir::AddOp>(def) ? 2 : 1); ++side) {
      Value x = def->getOperand(side), c = def->getOperand(1 - side);
      if (x.getType() != op.getType() || !constantAlong(c, axis, rank))
        continue;
      rewriter.modifyOpInPlace(op, [&] { op->setOperand(0, x); });
      noteRewrite(this->counter);
      return success();
    }
    return failure();
  }
};

/// A reduction of a broadcast over (only) the broadcast axes: `sum` is the
/// input times the (static) number of copies; `mean`, `max` and `min` are
/// the input.
struct ReduceOfBroadcast : CountedPattern<choir::ReduceOp> {
  using CountedPattern::CountedPattern;
  LogicalResult matchAndRewrite(choir::ReduceOp op,
                                PatternRewriter &rewriter) const override {
    auto bcast = op.getInput().getDefiningOp<choir::BroadcastOp>();
    if (!bcast)
      return failure();
    Value x = bcast.getInput();
    auto xType = tensorType(x);
    auto yType = bcast.getType();
    int64_t offset = yType.getRank() - xType.getRank();
    auto expanded = [&](int64_t j) {
      return j < offset || xType.getDimSize(j - offset) == 1;
    };
    for (int64_t j = 0; j < yType.getRank(); ++j) {
      bool reduced = llvm::is_contained(op.getAxes(), j);
      if (reduced && !expanded(j))
        return failure();
      if (!reduced && expanded(j) && yType.getDimSize(j) != 1)
        return failure();
    }
    auto resultType = op.getType();
    bool sum = op.getKind() == choir::ReduceKind::sum;
    Type elem = resultType.getElementType();
    // Check everything before building anything: the result's dynamic
    // sizes must be x's, and a sum needs a static number of copies (a
    // dynamic count would be a scalar computed outside any tensor op).
    int64_t copies = 1;
    for (int64_t j = 0, r = 0; j < yType.getRank(); ++j) {
      bool reduced = llvm::is_contained(op.getAxes(), j);
      if (reduced && sum) {
        if (yType.isDynamicDim(j))
          return failure();
        copies *= yType.getDimSize(j);
      }
      if (reduced && !op.getKeepdims())
        continue;
      if (resultType.isDynamicDim(r++) && (j < offset || reduced))
        return failure();
    }
    TypedAttr copiesAttr;
    if (sum) {
      if (auto f = dyn_cast<FloatType>(elem))
        copiesAttr = FloatAttr::get(f, static_cast<double>(copies));
      else if (auto i = dyn_cast<IntegerType>(elem); i && i.getWidth() > 1)
        copiesAttr = IntegerAttr::get(i, copies);
      else
        return failure();
    }

    Location loc = op.getLoc();
    // x holds the result's values with unit dimensions added or removed.
    Value shaped = x;
    if (xType != resultType) {
      SmallVector<Value> sizes;
      for (int64_t j = 0, r = 0; j < yType.getRank(); ++j) {
        bool reduced = llvm::is_contained(op.getAxes(), j);
        if (reduced && !op.getKeepdims())
          continue;
        if (resultType.isDynamicDim(r++)) {
          if (xType.isDynamicDim(j - offset))
            sizes.push_back(rewriter.create<tensor::DimOp>(loc, x, j - offset));
          else
            sizes.push_back(rewriter.create<arith::ConstantIndexOp>(
                loc, xType.getDimSize(j - offset)));
        }
      }
      shaped = rewriter.create<choir::ReshapeOp>(loc, resultType, x, sizes);
    }
    if (!sum) {
      rewriter.replaceOp(op, shaped);
      noteRewrite(counter);
      return success();
    }
    Value scale = rewriter.create<choir::ConstantOp>(
        loc, DenseElementsAttr::get(RankedTensorType::get({}, elem), copiesAttr));
    rewriter.replaceOpWithNewOp<choir::MulOp>(op, resultType, shaped, scale);
    noteRewrite(counter);
    return success();
  }
};

/// Merges an einsum whose only use is an operand of another einsum into
/// that einsum, when the merged iteration space is no larger than the two
/// iteration spaces together (so the intermediate tensor disappears without
/// adding work).
struct MergeEinsums : CountedPattern<choir::EinsumOp> {
  MergeEinsums(MLIRContext *ctx, RewriteCounter *counter, int64_t estimate)
      : CountedPattern(ctx, counter), estimate(estimate) {}

  static std::optional<choir::EinsumSpec> lowerCaseSpec(choir::EinsumOp op) {
    SmallVector<int64_t> ranks;
    for (Value v : op.getInputs())
      ranks.push_back(tensorType(v).getRank());
    auto spec = choir::EinsumSpec::parse(op.getSpec(), ranks);
    if (!spec) {
      llvm::consumeError(spec.takeError());
      return std::nullopt;
    }
    if (einsumBroadcasts(*spec, op.getInputs()))
      return std::nullopt;
    std::optional<std::string> text = sourceSpec(*spec);
    if (!text)
      return std::nullopt;
    auto lower = choir::EinsumSpec::parse(*text, ranks);
    if (!lower) {
      llvm::consumeError(lower.takeError());
      return std::nullopt;
    }
    return *lower;
  }

  double cost(const choir::EinsumSpec &spec, ValueRange operands) const {
    auto sizes = einsumLabelSizes(spec, operands);
    double total = 1;
    for (char label : spec.labels()) {
      int64_t size = sizes.lookup(label);
      total *= ShapedType::isDynamic(size) ? static_cast<double>(estimate)
                                           : static_cast<double>(size);
    }
    return total;
  }

  LogicalResult matchAndRewrite(choir::EinsumOp op,
                                PatternRewriter &rewriter) const override {
    for (auto [k, operand] : llvm::enumerate(op.getInputs())) {
      auto inner = operand.getDefiningOp<choir::EinsumOp>();
      if (!inner || !inner->hasOneUse())
        continue;
      std::optional<choir::EinsumSpec> outer = lowerCaseSpec(op);
      std::optional<choir::EinsumSpec> in = lowerCaseSpec(inner);
      if (!outer || !in)
        continue;
      // Inner result labels become the outer operand's labels; inner
      // reduction labels get letters the outer spec does not use.
      std::string used = outer->labels();
      llvm::DenseMap<char, char> rename;
      for (auto [p, label] : llvm::enumerate(in->result))
        rename[label] = outer->operands[k][p];
      char next = 'a';
      bool exhausted = false;
      for (char label : in->labels()) {
        if (rename.count(label))
          continue;
        while (next <= 'z' && used.find(next) != std::string::npos)
          ++next;
        if (next > 'z') {
          exhausted = true;
          break;
        }
        rename[label] = next;
        used.push_back(next++);
      }
      if (exhausted)
        continue;
      SmallVector<Value> operands;
      std::string spec;
      auto addTerm = [&](const std::string &term) {
        if (!spec.empty())
          spec += ",";
        spec += term;
      };
      for (auto [i, v] : llvm::enumerate(op.getInputs())) {
        if (i != k) {
          operands.push_back(v);
          addTerm(outer->operands[i]);
          continue;
        }
        for (auto [term, w] : llvm::zip(in->operands, inner.getInputs())) {
          std::string renamed;
          for (char c : term)
            renamed.push_back(rename.lookup(c));
          operands.push_back(w);
          addTerm(renamed);
        }
      }
      spec += "->" + outer->result;
      SmallVector<int64_t> ranks;
      for (Value v : operands)
        ranks.push_back(tensorType(v).getRank());
      auto merged = choir::EinsumSpec::parse(spec, ranks);
      if (!merged) {
        llvm::consumeError(merged.takeError());
        continue;
      }
      if (cost(*merged, operands) >
          cost(*in, inner.getInputs()) + cost(*outer, op.getInputs()))
        continue;
      rewriter.replaceOpWithNewOp<choir::EinsumOp>(
          op, op.getType(), rewriter.getStringAttr(spec), operands);
      noteRewrite(counter);
      if (counter)
        ++counter->einsumMerges;
      return success();
    }
    return failure();
  }
  int64_t estimate;
};

struct ChoirSaturatePass
    : contract::impl::ChoirSaturateBase<ChoirSaturatePass> {
  using ChoirSaturateBase::ChoirSaturateBase;
  void runOnOperation() override {
    RewriteCounter counter;
    RewritePatternSet patterns(&getContext());
    populateChoirSaturationPatterns(patterns, &counter, dynamicSizeEstimate);
    GreedyRewriteConfig config;
    config.useTopDownTraversal = true;
    config.maxIterations = maxIterations;
    // Not converging within the bound is the bound doing its job.
    (void)applyPatternsAndFoldGreedily(getOperation(), std::move(patterns),
                                       config);
    numRewrites += counter.rewrites;
    numEinsumMerges += counter.einsumMerges;
    if (emitRemarks)
      getOperation().emitRemark()
          << getArgument() << ": " << counter.rewrites << " rewrites fired ("
          << counter.einsumMerges << " einsum merges)";
  }
};

} // namespace

void contract::populateChoirSaturationPatterns(RewritePatternSet &patterns,
                                               RewriteCounter *counter,
                                               int64_t dynamicSizeEstimate) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<TransposeOfTranspose, ReshapeOfReshape, BroadcastOfBroadcast,
               ExpOfLog, RowOpOfShift<choir::SoftmaxOp>,
               RowOpOfShift<choir::LogSoftmaxOp>, ReduceOfBroadcast>(ctx,
                                                                     counter);
  patterns.add<MergeEinsums>(ctx, counter, dynamicSizeEstimate);
}
