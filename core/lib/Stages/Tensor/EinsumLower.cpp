//===- EinsumLower.cpp - accy-choir-einsum-lower --------------------------===//
//
// One loop per einsum label: the result's labels first (parallel), then the
// others in order of appearance (reductions). An operand reads its labels'
// loops; a repeated label reads a diagonal; a size-1 ellipsis dimension
// against a larger one is collapsed away and not indexed (broadcast).
//
//===----------------------------------------------------------------------===//

#include "ChoirLowering.h"
#include "LoweringUtils.h"
#include "accy/Dialect/Choir/IR/EinsumSpec.h"
#include "accy/Stages/Tensor/Passes.h"

namespace accy::tensorstage {
#define GEN_PASS_DEF_CHOIREINSUMLOWER
#include "accy/Stages/Tensor/Passes.h.inc"
} // namespace accy::tensorstage

using namespace mlir;
using namespace accy;
using namespace accy::tensorstage;

namespace {

bool owned(Operation *op) { return isa<choir::EinsumOp>(op); }

FailureOr<choir::EinsumSpec> parseSpec(choir::EinsumOp op) {
  auto spec = op.parseSpec();
  if (!spec) {
    llvm::consumeError(spec.takeError());
    return failure();
  }
  return *spec;
}

std::string whyNotLowered(Operation *op) {
  auto einsum = cast<choir::EinsumOp>(op);
  Type elem = einsum.getType().getElementType();
  if (!isa<FloatType>(elem) && !(isa<IntegerType>(elem) && !elem.isInteger(1)))
    return "needs a float or (non-bool) integer element type";
  if (einsum.getInputs().empty())
    return "needs at least one operand";
  if (failed(parseSpec(einsum)))
    return "the spec does not parse";
  return "";
}

/// What the einsum reads of operand `v`, given that it multiplies in `acc`:
/// the source of a cast that widens floats exactly into `acc` (f16 or bf16
/// cast to f32, the usual way to ask for f32 accumulation), whose
/// conversion the payload then makes itself, else `v`. The contraction
/// reads the narrow elements (half the bytes) and sees its true input
/// types, which decide whether it runs on tensor cores.
Value exactlyWidenedSource(Value v, Type acc) {
  auto cast = v.getDefiningOp<choir::CastOp>();
  if (!cast)
    return v;
  auto from = dyn_cast<FloatType>(tensorType(cast.getInput()).getElementType());
  auto to = dyn_cast<FloatType>(tensorType(v).getElementType());
  if (!from || to != acc || from.getWidth() >= to.getWidth())
    return v;
  return cast.getInput();
}

/// The loops of an einsum and how each operand reads them.
struct Contraction {
  std::string loops;                   // one label per loop
  SmallVector<Value> operands;         // broadcast unit dims collapsed
  SmallVector<AffineMap> operandMaps;  // one per operand
  SmallVector<bool> collapsed;         // whether an operand lost a dim
  int64_t numParallel = 0;
};

Contraction analyse(OpBuilder &b, Location loc, choir::EinsumOp op,
                    const choir::EinsumSpec &spec, Type acc) {
  Contraction c;
  c.loops = spec.result;
  c.numParallel = spec.result.size();
  for (char label : spec.labels())
    if (c.loops.find(label) == std::string::npos)
      c.loops.push_back(label);
  // The size of a label: anything but a 1 broadcast against it.
  llvm::DenseMap<char, int64_t> sizes;
  for (auto [term, v] : llvm::zip(spec.operands, op.getInputs()))
    for (auto [d, label] : llvm::enumerate(term)) {
      int64_t size = tensorType(v).getDimSize(d);
      auto [it, inserted] = sizes.try_emplace(label, size);
      if (!inserted && it->second == 1)
        it->second = size;
    }
  for (auto [term, v] : llvm::zip(spec.operands, op.getInputs())) {
    auto type = tensorType(v);
    SmallVector<int64_t> drop;
    SmallVector<AffineExpr> exprs;
    for (auto [d, label] : llvm::enumerate(term)) {
      if (type.getDimSize(d) == 1 && sizes.lookup(label) != 1) {
        drop.push_back(d);
        continue;
      }
      exprs.push_back(b.getAffineDimExpr(c.loops.find(label)));
    }
    c.operands.push_back(
        dropUnitDims(b, loc, exactlyWidenedSource(v, acc), drop));
    c.operandMaps.push_back(
        AffineMap::get(c.loops.size(), 0, exprs, b.getContext()));
    c.collapsed.push_back(!drop.empty());
  }
  return c;
}

/// The dynamic sizes of the result: tensor.dim of an operand dimension that
/// carries the label unbroadcast.
SmallVector<Value> resultSizes(OpBuilder &b, Location loc, choir::EinsumOp op,
                               const choir::EinsumSpec &spec) {
  SmallVector<Value> sizes;
  auto type = op.getType();
  for (auto [r, label] : llvm::enumerate(spec.result)) {
    if (!type.isDynamicDim(r))
      continue;
    Value size;
    for (auto [term, v] : llvm::zip(spec.operands, op.getInputs())) {
      size_t d = term.find(label);
      if (d != std::string::npos && tensorType(v).getDimSize(d) != 1) {
        size = b.create<tensor::DimOp>(loc, v, d);
        break;
      }
    }
    if (!size) // every operand has 1 there
      size = b.create<arith::ConstantIndexOp>(loc, 1);
    sizes.push_back(size);
  }
  return sizes;
}

/// `ik,kj->ij` (matmul) or `bik,bkj->bij` (batch_matmul) with distinct
/// labels.
bool isMatmulSpec(const choir::EinsumSpec &spec, bool batch) {
  if (spec.operands.size() != 2)
    return false;
  const std::string &a = spec.operands[0], &b = spec.operands[1];
  const std::string &r = spec.result;
  size_t n = batch ? 3 : 2;
  if (a.size() != n || b.size() != n || r.size() != n)
    return false;
  size_t o = batch ? 1 : 0;
  if (batch && (a[0] != b[0] || a[0] != r[0]))
    return false;
  std::string labels = spec.labels();
  return a[o] == r[o] && a[o + 1] == b[o] && b[o + 1] == r[o + 1] &&
         labels.size() == n + 1;
}

struct LowerEinsum : OpRewritePattern<choir::EinsumOp> {
  LowerEinsum(MLIRContext *ctx, bool useNamedOps)
      : OpRewritePattern(ctx), useNamedOps(useNamedOps) {}

  LogicalResult matchAndRewrite(choir::EinsumOp op,
                                PatternRewriter &rewriter) const override {
    if (!whyNotLowered(op).empty())
      return failure();
    choir::EinsumSpec spec = *parseSpec(op);
    Location loc = op.getLoc();
    auto type = op.getType();
    Type elem = type.getElementType();
    Type acc = computeType(elem);
    Contraction c = analyse(rewriter, loc, op, spec, acc);
    SmallVector<Value> sizes = resultSizes(rewriter, loc, op, spec);
    bool reduces = c.loops.size() > static_cast<size_t>(c.numParallel);
    auto accType = RankedTensorType::get(type.getShape(), acc);

    bool broadcasts = llvm::is_contained(c.collapsed, true);
    bool sameTypes = llvm::all_of(c.operands, [&](Value v) {
      return tensorType(v).getElementType() == elem;
    });
    if (useNamedOps && acc == elem && !broadcasts && sameTypes &&
        (isMatmulSpec(spec, false) || isMatmulSpec(spec, true))) {
      Value init = filledTensor(rewriter, loc, type, sizes,
                                scalarConstant(rewriter, loc, elem, 0));
      Operation *named;
      if (spec.result.size() == 2)
        named = rewriter.create<linalg::MatmulOp>(
            loc, TypeRange{type}, op.getInputs(), ValueRange{init});
      else
        named = rewriter.create<linalg::BatchMatmulOp>(
            loc, TypeRange{type}, op.getInputs(), ValueRange{init});
      rewriter.replaceOp(op, named->getResult(0));
      return success();
    }

    Value init =
        reduces ? filledTensor(rewriter, loc, accType, sizes,
                               scalarConstant(rewriter, loc, acc, 0))
                : emptyTensor(rewriter, loc, accType, sizes);
    SmallVector<AffineMap> maps = c.operandMaps;
    SmallVector<AffineExpr> resultExprs;
    for (int64_t r = 0; r < c.numParallel; ++r)
      resultExprs.push_back(rewriter.getAffineDimExpr(r));
    maps.push_back(
        AffineMap::get(c.loops.size(), 0, resultExprs, rewriter.getContext()));
    SmallVector<utils::IteratorType> iterators;
    for (size_t l = 0; l < c.loops.size(); ++l)
      iterators.push_back(static_cast<int64_t>(l) < c.numParallel
                              ? utils::IteratorType::parallel
                              : utils::IteratorType::reduction);
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{accType}, c.operands, ValueRange{init}, maps, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value product = convertScalar(b, l, args[0], acc);
          for (Value v : args.drop_front().drop_back())
            product = mulScalar(b, l, product, convertScalar(b, l, v, acc));
          Value r = reduces ? addScalar(b, l, args.back(), product) : product;
          b.create<linalg::YieldOp>(l, r);
        });
    Value result = generic.getResult(0);
    if (acc != elem)
      result = buildElementwise(rewriter, loc, type, sizes, result,
                                [=](OpBuilder &b, Location l, ValueRange args) {
                                  return convertScalar(b, l, args[0], elem);
                                });
    rewriter.replaceOp(op, result);
    return success();
  }
  bool useNamedOps;
};

struct ChoirEinsumLowerPass
    : ChoirLoweringPass<ChoirEinsumLowerPass,
                        tensorstage::impl::ChoirEinsumLowerBase, owned,
                        whyNotLowered> {
  using ChoirLoweringPass::ChoirLoweringPass;
  void populatePatterns(RewritePatternSet &patterns) {
    populateChoirEinsumLoweringPatterns(patterns, useNamedOps);
  }
};

} // namespace

void tensorstage::populateChoirEinsumLoweringPatterns(
    RewritePatternSet &patterns, bool useNamedOps) {
  patterns.add<LowerEinsum>(patterns.getContext(), useNamedOps);
}
