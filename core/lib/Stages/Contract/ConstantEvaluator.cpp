//===- ConstantEvaluator.cpp - Values of choir ops on constants -----------===//
//
// The semantics of each choir op on constant tensors (ConstantValues.h holds
// them): elementwise math, casts, reductions, scans and the indexing ops.
//
//===----------------------------------------------------------------------===//

#include "ConstantEvaluator.h"
#include "ConstantValues.h"
#include "ContractUtils.h"

#include "mlir/IR/Matchers.h"

#include <cmath>
#include <functional>
#include <limits>

using namespace mlir;
using namespace accy;
using namespace accy::contract;

namespace {

double gelu(double x) {
  const double k = std::sqrt(2.0 / M_PI);
  return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
}
double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

FailureOr<Values> unary(Operation *op, const Values &in) {
  Values out = makeZeros(cast<RankedTensorType>(op->getResult(0).getType()));
  if (in.isFloat()) {
    std::function<double(double)> fn;
    if (isa<choir::NegOp>(op)) fn = [](double x) { return -x; };
    else if (isa<choir::AbsOp>(op)) fn = [](double x) { return std::fabs(x); };
    else if (isa<choir::ExpOp>(op)) fn = [](double x) { return std::exp(x); };
    else if (isa<choir::LogOp>(op)) fn = [](double x) { return std::log(x); };
    else if (isa<choir::SqrtOp>(op)) fn = [](double x) { return std::sqrt(x); };
    else if (isa<choir::RsqrtOp>(op))
      fn = [](double x) { return 1.0 / std::sqrt(x); };
    else if (isa<choir::ReluOp>(op))
      fn = [](double x) { return std::isnan(x) ? x : std::max(x, 0.0); };
    else if (isa<choir::SigmoidOp>(op)) fn = sigmoid;
    else if (isa<choir::TanhOp>(op)) fn = [](double x) { return std::tanh(x); };
    else if (isa<choir::GeluOp>(op)) fn = gelu;
    else if (isa<choir::SiluOp>(op))
      fn = [](double x) { return x * sigmoid(x); };
    else
      return failure();
    for (int64_t k = 0; k < in.size(); ++k)
      out.f[k] = fn(in.f[k]);
    return out;
  }
  unsigned width = intWidth(in.type.getElementType());
  for (int64_t k = 0; k < in.size(); ++k) {
    uint64_t x = static_cast<uint64_t>(in.i[k]);
    if (isa<choir::NegOp>(op))
      out.i[k] = wrap(0 - x, width);
    else if (isa<choir::AbsOp>(op))
      out.i[k] = wrap(in.i[k] < 0 ? 0 - x : x, width);
    else if (isa<choir::ReluOp>(op))
      out.i[k] = std::max<int64_t>(in.i[k], 0);
    else
      return failure();
  }
  return out;
}

FailureOr<Values> elementwise(Operation *op, ArrayRef<Values> in) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  Values out = makeZeros(type);
  SmallVector<int64_t> shape(type.getShape());
  for (int64_t k = 0; k < out.size(); ++k) {
    SmallVector<int64_t> index = unflatten(k, shape);
    SmallVector<int64_t> at;
    for (const Values &v : in)
      at.push_back(broadcastSource(index, v.type.getShape()));
    if (auto select = dyn_cast<choir::SelectOp>(op)) {
      const Values &chosen = in[0].i[at[0]] ? in[1] : in[2];
      int64_t from = in[0].i[at[0]] ? at[1] : at[2];
      if (out.isFloat())
        out.f[k] = chosen.f[from];
      else
        out.i[k] = chosen.i[from];
      continue;
    }
    if (auto cmp = dyn_cast<choir::CmpOp>(op)) {
      bool r;
      if (in[0].isFloat()) {
        double a = in[0].f[at[0]], b = in[1].f[at[1]];
        switch (cmp.getPredicate()) {
        case choir::CmpPredicate::lt: r = a < b; break;
        case choir::CmpPredicate::le: r = a <= b; break;
        case choir::CmpPredicate::gt: r = a > b; break;
        case choir::CmpPredicate::ge: r = a >= b; break;
        case choir::CmpPredicate::eq: r = a == b; break;
        case choir::CmpPredicate::ne: r = !(a == b); break;
        }
      } else {
        int64_t a = in[0].i[at[0]], b = in[1].i[at[1]];
        switch (cmp.getPredicate()) {
        case choir::CmpPredicate::lt: r = a < b; break;
        case choir::CmpPredicate::le: r = a <= b; break;
        case choir::CmpPredicate::gt: r = a > b; break;
        case choir::CmpPredicate::ge: r = a >= b; break;
        case choir::CmpPredicate::eq: r = a == b; break;
        case choir::CmpPredicate::ne: r = a != b; break;
        }
      }
      out.i[k] = r;
      continue;
    }
    if (out.isFloat()) {
      double a = in[0].f[at[0]], b = in[1].f[at[1]];
      if (isa<choir::AddOp>(op)) out.f[k] = a + b;
      else if (isa<choir::SubOp>(op)) out.f[k] = a - b;
      else if (isa<choir::MulOp>(op)) out.f[k] = a * b;
      else if (isa<choir::DivOp>(op)) out.f[k] = a / b;
      else return failure();
      continue;
    }
    unsigned width = intWidth(type.getElementType());
    int64_t a = in[0].i[at[0]], b = in[1].i[at[1]];
    uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
    if (isa<choir::AddOp>(op)) out.i[k] = wrap(ua + ub, width);
    else if (isa<choir::SubOp>(op)) out.i[k] = wrap(ua - ub, width);
    else if (isa<choir::MulOp>(op)) out.i[k] = wrap(ua * ub, width);
    else if (isa<choir::DivOp>(op)) {
      // As at run time (the tensor stage's lowering): x / 0 is 0 and
      // x / -1 is -x, wrapping.
      if (width == 1)
        return failure();
      if (b == 0)
        out.i[k] = 0;
      else if (b == -1)
        out.i[k] = wrap(0 - ua, width);
      else
        out.i[k] = wrap(static_cast<uint64_t>(a / b), width);
    } else {
      return failure();
    }
  }
  return out;
}

FailureOr<Values> castValues(const Values &in, RankedTensorType type) {
  Values out = makeZeros(type);
  Type to = type.getElementType();
  for (int64_t k = 0; k < in.size(); ++k) {
    if (in.isFloat() && out.isFloat()) {
      out.f[k] = in.f[k];
    } else if (!in.isFloat() && out.isFloat()) {
      out.f[k] = static_cast<double>(in.i[k]);
    } else if (in.isFloat()) {
      double x = in.f[k];
      unsigned width = intWidth(to);
      if (width == 1) {
        out.i[k] = x != 0.0;
        continue;
      }
      double limit = std::ldexp(1.0, width - 1);
      if (std::isnan(x) || std::trunc(x) >= limit || std::trunc(x) < -limit)
        return failure();
      out.i[k] = static_cast<int64_t>(std::trunc(x));
    } else {
      unsigned width = intWidth(to);
      out.i[k] = width == 1 ? in.i[k] != 0
                            : wrap(static_cast<uint64_t>(in.i[k]), width);
    }
  }
  return out;
}

FailureOr<Values> reduce(choir::ReduceOp op, const Values &in) {
  Values out = makeZeros(op.getType());
  ArrayRef<int64_t> shape = in.type.getShape();
  ArrayRef<int64_t> axes = op.getAxes();
  int64_t count = 1;
  for (int64_t a : axes)
    count *= shape[a];
  auto kind = op.getKind();
  bool isMax = kind == choir::ReduceKind::max;
  bool isMin = kind == choir::ReduceKind::min;
  // Output position of every input element: drop (or zero) reduced axes.
  SmallVector<int64_t> outShape;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d)
    if (!llvm::is_contained(axes, d))
      outShape.push_back(shape[d]);
  std::vector<bool> seen(out.size(), false);
  unsigned width = in.isFloat() ? 0 : intWidth(in.type.getElementType());
  for (int64_t k = 0; k < in.size(); ++k) {
    SmallVector<int64_t> index = unflatten(k, shape);
    int64_t o = 0;
    for (int64_t d = 0, od = 0; d < static_cast<int64_t>(shape.size()); ++d)
      if (!llvm::is_contained(axes, d))
        o = o * outShape[od++] + index[d];
    bool first = !seen[o];
    seen[o] = true;
    if (in.isFloat()) {
      double x = in.f[k], &acc = out.f[o];
      if (first && (isMax || isMin))
        acc = x;
      else if (isMax)
        acc = (std::isnan(acc) || std::isnan(x)) ? NAN : std::max(acc, x);
      else if (isMin)
        acc = (std::isnan(acc) || std::isnan(x)) ? NAN : std::min(acc, x);
      else
        acc += x;
    } else {
      int64_t x = in.i[k], &acc = out.i[o];
      if (first && (isMax || isMin))
        acc = x;
      else if (isMax)
        acc = std::max(acc, x);
      else if (isMin)
        acc = std::min(acc, x);
      else
        acc = wrap(static_cast<uint64_t>(acc) + static_cast<uint64_t>(x),
                   width);
    }
  }
  if (kind == choir::ReduceKind::mean) {
    if (count == 0)
      return failure();
    if (out.isFloat())
      for (double &x : out.f)
        x /= static_cast<double>(count);
    else
      for (int64_t &x : out.i)
        x /= count;
  }
  if ((isMax || isMin) && in.size() == 0)
    return failure();
  return out;
}

/// Positions along `axis`: visits every line of `shape` along the axis with
/// its linear element indices.
template <typename Fn>
void forEachLine(ArrayRef<int64_t> shape, int64_t axis, Fn fn) {
  SmallVector<int64_t> s = strides(shape);
  int64_t total = 1;
  for (int64_t n : shape)
    total *= n;
  if (total == 0)
    return;
  int64_t lines = total / shape[axis];
  SmallVector<int64_t> outer(shape);
  outer[axis] = 1;
  for (int64_t l = 0; l < lines; ++l) {
    SmallVector<int64_t> index = unflatten(l, outer);
    int64_t base = 0;
    for (size_t d = 0; d < shape.size(); ++d)
      base += index[d] * s[d];
    SmallVector<int64_t> line;
    for (int64_t p = 0; p < shape[axis]; ++p)
      line.push_back(base + p * s[axis]);
    fn(line);
  }
}

FailureOr<Values> evaluate(Operation *op, ArrayRef<Values> in,
                           int64_t budget) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  if (!type.hasStaticShape() || type.getNumElements() > budget)
    return failure();
  if (op->hasTrait<OpTrait::SameOperandsAndResultType>() &&
      isa<choir::NegOp, choir::ReluOp, choir::GeluOp, choir::SigmoidOp,
          choir::TanhOp, choir::SiluOp, choir::ExpOp, choir::LogOp,
          choir::SqrtOp, choir::RsqrtOp, choir::AbsOp>(op))
    return unary(op, in[0]);
  if (isa<choir::AddOp, choir::SubOp, choir::MulOp, choir::DivOp,
          choir::CmpOp, choir::SelectOp>(op))
    return elementwise(op, in);
  if (isa<choir::CastOp>(op))
    return castValues(in[0], type);
  if (auto full = dyn_cast<choir::FullOp>(op)) {
    Values out = makeZeros(type);
    if (auto f = dyn_cast<FloatAttr>(full.getValue()))
      std::fill(out.f.begin(), out.f.end(), f.getValueAsDouble());
    else if (auto i = dyn_cast<IntegerAttr>(full.getValue()))
      std::fill(out.i.begin(), out.i.end(),
                intWidth(i.getType()) == 1
                    ? static_cast<int64_t>(i.getValue().getZExtValue())
                    : i.getValue().getSExtValue());
    else
      return failure();
    return out;
  }
  if (isa<choir::IotaOp>(op)) {
    Values out = makeZeros(type);
    for (int64_t k = 0; k < out.size(); ++k)
      out.i[k] = wrap(k, intWidth(type.getElementType()));
    return out;
  }
  if (auto r = dyn_cast<choir::ReduceOp>(op))
    return reduce(r, in[0]);
  if (auto t = dyn_cast<choir::TransposeOp>(op)) {
    Values out = makeZeros(type);
    SmallVector<int64_t> inStrides = strides(in[0].type.getShape());
    for (int64_t k = 0; k < out.size(); ++k) {
      SmallVector<int64_t> index = unflatten(k, type.getShape());
      int64_t from = 0;
      for (auto [i, p] : llvm::enumerate(t.getPerm()))
        from += index[i] * inStrides[p];
      out.copy(k, in[0], from);
    }
    return out;
  }
  if (isa<choir::ReshapeOp>(op)) {
    Values out = in[0];
    out.type = type;
    return out;
  }
  if (isa<choir::BroadcastOp>(op)) {
    Values out = makeZeros(type);
    for (int64_t k = 0; k < out.size(); ++k) {
      int64_t from = broadcastSource(unflatten(k, type.getShape()),
                                     in[0].type.getShape());
      out.copy(k, in[0], from);
    }
    return out;
  }
  if (auto slice = dyn_cast<choir::SliceOp>(op)) {
    if (!slice.getStarts().empty() || !slice.getSizes().empty())
      return failure();
    Values out = makeZeros(type);
    SmallVector<int64_t> inStrides = strides(in[0].type.getShape());
    for (int64_t k = 0; k < out.size(); ++k) {
      SmallVector<int64_t> index = unflatten(k, type.getShape());
      int64_t from = 0;
      for (size_t d = 0; d < index.size(); ++d)
        from += (index[d] + slice.getStaticStarts()[d]) * inStrides[d];
      out.copy(k, in[0], from);
    }
    return out;
  }
  if (auto take = dyn_cast<choir::TakeOp>(op)) {
    Values out = makeZeros(type);
    ArrayRef<int64_t> inShape = in[0].type.getShape();
    int64_t axis = take.getAxis();
    int64_t idxRank = in[1].type.getRank();
    SmallVector<int64_t> inStrides = strides(inShape);
    for (int64_t k = 0; k < out.size(); ++k) {
      SmallVector<int64_t> index = unflatten(k, type.getShape());
      SmallVector<int64_t> idxIndex(index.begin() + axis,
                                    index.begin() + axis + idxRank);
      int64_t at = 0;
      for (size_t d = 0; d < idxIndex.size(); ++d)
        at = at * in[1].type.getDimSize(d) + idxIndex[d];
      int64_t pos = std::clamp<int64_t>(in[1].i[at], 0, inShape[axis] - 1);
      int64_t from = 0;
      for (int64_t d = 0; d < in[0].type.getRank(); ++d) {
        int64_t i = d < axis ? index[d]
                    : d == axis ? pos
                                : index[d - 1 + idxRank];
        from += i * inStrides[d];
      }
      out.copy(k, in[0], from);
    }
    return out;
  }
  if (auto concat = dyn_cast<choir::ConcatOp>(op)) {
    Values out = makeZeros(type);
    int64_t axis = concat.getAxis();
    SmallVector<int64_t> outStrides = strides(type.getShape());
    int64_t offset = 0;
    for (const Values &v : in) {
      for (int64_t k = 0; k < v.size(); ++k) {
        SmallVector<int64_t> index = unflatten(k, v.type.getShape());
        index[axis] += offset;
        int64_t to = 0;
        for (size_t d = 0; d < index.size(); ++d)
          to += index[d] * outStrides[d];
        out.copy(to, v, k);
      }
      offset += v.type.getDimSize(axis);
    }
    return out;
  }
  if (isa<choir::SoftmaxOp, choir::LogSoftmaxOp>(op)) {
    if (!in[0].isFloat())
      return failure();
    Values out = makeZeros(type);
    bool log = isa<choir::LogSoftmaxOp>(op);
    int64_t axis = op->getAttrOfType<IntegerAttr>("axis").getInt();
    forEachLine(type.getShape(), axis, [&](ArrayRef<int64_t> line) {
      double m = -std::numeric_limits<double>::infinity();
      for (int64_t k : line)
        m = std::max(m, in[0].f[k]);
      double s = 0;
      for (int64_t k : line)
        s += std::exp(in[0].f[k] - m);
      for (int64_t k : line)
        out.f[k] = log ? in[0].f[k] - m - std::log(s)
                       : std::exp(in[0].f[k] - m) / s;
    });
    return out;
  }
  if (auto scan = dyn_cast<choir::ScanOp>(op)) {
    Values out = makeZeros(type);
    bool sum = scan.getKind() == choir::ScanKind::cumsum;
    unsigned width = in[0].isFloat() ? 0 : intWidth(type.getElementType());
    forEachLine(type.getShape(), scan.getAxis(), [&](ArrayRef<int64_t> line) {
      for (auto [p, k] : llvm::enumerate(line)) {
        if (in[0].isFloat()) {
          double x = in[0].f[k];
          double prev = p ? out.f[line[p - 1]] : 0;
          out.f[k] = p == 0 ? x
                     : sum  ? prev + x
                     : (std::isnan(prev) || std::isnan(x)) ? NAN
                                                           : std::max(prev, x);
        } else {
          int64_t x = in[0].i[k];
          int64_t prev = p ? out.i[line[p - 1]] : 0;
          out.i[k] = p == 0 ? x
                     : sum  ? wrap(static_cast<uint64_t>(prev) +
                                       static_cast<uint64_t>(x),
                                   width)
                            : std::max(prev, x);
        }
      }
    });
    return out;
  }
  return failure();
}

} // namespace

namespace {

/// Evaluates choir ops on constant operands, looking through operands that
/// are themselves choir ops of constants (so `sum(iota(4))` folds even when
/// the iota alone is not replaced).
class Evaluator {
public:
  explicit Evaluator(int64_t budget) : budget(budget) {}

  std::optional<Values> valueOf(Value v, unsigned depth) {
    if (std::optional<Values> values = readConstant(v, budget))
      return values;
    Operation *def = v.getDefiningOp();
    if (!def || depth >= kMaxDepth)
      return std::nullopt;
    return evaluateOp(def, depth + 1);
  }

  std::optional<Values> evaluateOp(Operation *op, unsigned depth) {
    if (!isa<choir::ChoirDialect>(op->getDialect()) ||
        isa<choir::ConstantOp, choir::EinsumOp>(op) || op->getNumResults() != 1)
      return std::nullopt;
    auto it = memo.find(op);
    if (it != memo.end())
      return it->second;
    std::optional<Values> result;
    SmallVector<Values> operands;
    bool ok = true;
    for (Value v : op->getOperands()) {
      // Size operands of ops with static results carry no information.
      if (!isa<RankedTensorType>(v.getType()))
        continue;
      std::optional<Values> values = valueOf(v, depth);
      if (!values) {
        ok = false;
        break;
      }
      operands.push_back(std::move(*values));
    }
    if (ok) {
      FailureOr<Values> value = evaluate(op, operands, budget);
      if (succeeded(value))
        result = std::move(*value);
    }
    memo[op] = result;
    return result;
  }

private:
  static constexpr unsigned kMaxDepth = 32;
  int64_t budget;
  llvm::DenseMap<Operation *, std::optional<Values>> memo;
};

} // namespace

FailureOr<DenseElementsAttr> contract::evaluateChoirOp(Operation *op,
                                                       int64_t budget) {
  Evaluator evaluator(budget);
  std::optional<Values> result = evaluator.evaluateOp(op, 0);
  if (!result)
    return failure();
  return toAttr(*result);
}
