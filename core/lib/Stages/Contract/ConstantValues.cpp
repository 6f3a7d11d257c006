//===- ConstantValues.cpp - Constant tensors the evaluator computes on ----===//

#include "ConstantValues.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace accy;
using namespace accy::contract;

unsigned contract::intWidth(Type t) { return cast<IntegerType>(t).getWidth(); }

int64_t contract::wrap(uint64_t v, unsigned width) {
  if (width >= 64)
    return static_cast<int64_t>(v);
  uint64_t mask = (uint64_t(1) << width) - 1;
  v &= mask;
  if (width > 1 && (v >> (width - 1)) & 1)
    v |= ~mask;
  return static_cast<int64_t>(v);
}

std::optional<Values> contract::readConstant(Value v, int64_t budget) {
  DenseElementsAttr attr;
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || !type.hasStaticShape() || !matchPattern(v, m_Constant(&attr)))
    return std::nullopt;
  if (type.getNumElements() > budget)
    return std::nullopt;
  Values out{type, {}, {}};
  Type elem = type.getElementType();
  if (isa<FloatType>(elem)) {
    for (APFloat x : attr.getValues<APFloat>())
      out.f.push_back(x.convertToDouble());
  } else if (auto it = dyn_cast<IntegerType>(elem)) {
    for (APInt x : attr.getValues<APInt>())
      out.i.push_back(it.getWidth() == 1
                          ? static_cast<int64_t>(x.getZExtValue())
                          : x.getSExtValue());
  } else {
    return std::nullopt;
  }
  if (out.f.size() + out.i.size() != static_cast<size_t>(out.size()))
    return std::nullopt;
  return out;
}

DenseElementsAttr contract::toAttr(const Values &v) {
  Type elem = v.type.getElementType();
  if (auto ft = dyn_cast<FloatType>(elem)) {
    SmallVector<APFloat> values;
    for (double x : v.f) {
      APFloat value(x);
      bool lost;
      value.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                    &lost);
      values.push_back(value);
    }
    return DenseElementsAttr::get(v.type, values);
  }
  unsigned width = intWidth(elem);
  SmallVector<APInt> values;
  for (int64_t x : v.i)
    values.push_back(APInt(64, static_cast<uint64_t>(x)).trunc(width));
  return DenseElementsAttr::get(v.type, values);
}

Values contract::makeZeros(RankedTensorType type) {
  Values out{type, {}, {}};
  if (out.isFloat())
    out.f.assign(out.size(), 0.0);
  else
    out.i.assign(out.size(), 0);
  return out;
}

SmallVector<int64_t> contract::strides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> s(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    s[d] = s[d + 1] * shape[d + 1];
  return s;
}

SmallVector<int64_t> contract::unflatten(int64_t linear,
                                         ArrayRef<int64_t> shape) {
  SmallVector<int64_t> index(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    index[d] = shape[d] ? linear % shape[d] : 0;
    linear = shape[d] ? linear / shape[d] : 0;
  }
  return index;
}

int64_t contract::broadcastSource(ArrayRef<int64_t> index,
                                  ArrayRef<int64_t> from) {
  int64_t offset = index.size() - from.size();
  int64_t linear = 0;
  for (size_t d = 0; d < from.size(); ++d)
    linear = linear * from[d] + (from[d] == 1 ? 0 : index[d + offset]);
  return linear;
}
