//===- ContractUtils.cpp - Helpers shared by the contract passes ----------===//

#include "ContractUtils.h"

#include "accy/Stages/Contract/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace accy;

bool contract::isPureCast(ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
  if (failed(verifyCompatibleShape(from, to)))
    return false;
  for (auto [x, y] : llvm::zip(from, to))
    if (x == 1 && y != 1)
      return false;
  return true;
}

std::optional<double> contract::splatValue(Value v) {
  DenseElementsAttr attr;
  if (!v || !matchPattern(v, m_Constant(&attr)) || !attr.isSplat())
    return std::nullopt;
  Type elem = attr.getElementType();
  if (isa<FloatType>(elem))
    return attr.getSplatValue<APFloat>().convertToDouble();
  if (auto intType = dyn_cast<IntegerType>(elem)) {
    APInt value = attr.getSplatValue<APInt>();
    return intType.getWidth() == 1
               ? static_cast<double>(value.getZExtValue())
               : static_cast<double>(value.getSExtValue());
  }
  return std::nullopt;
}

Value contract::reshapeByBroadcast(OpBuilder &b, Location loc, Value value,
                                   RankedTensorType type, ValueRange sizes) {
  auto from = tensorType(value);
  if (from == type)
    return value;
  if (isPureCast(from.getShape(), type.getShape()))
    return b.create<tensor::CastOp>(loc, type, value);
  int64_t offset = type.getRank() - from.getRank();
  if (offset < 0)
    return {};
  SmallVector<Value> dynamic(sizes.begin(), sizes.end());
  if (sizes.empty()) {
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (!type.isDynamicDim(d))
        continue;
      int64_t s = d - offset;
      if (s < 0 || !from.isDynamicDim(s))
        return {};
      dynamic.push_back(b.create<tensor::DimOp>(loc, value, s));
    }
  }
  if (static_cast<int64_t>(dynamic.size()) != type.getNumDynamicDims())
    return {};
  return b.create<choir::BroadcastOp>(loc, type, value, dynamic);
}

std::optional<std::string>
contract::sourceSpec(const choir::EinsumSpec &spec) {
  std::string labels = spec.labels();
  llvm::DenseMap<char, char> rename;
  char next = 'a';
  auto used = [&](char c) { return labels.find(c) != std::string::npos; };
  for (char c : labels) {
    if (c >= 'a' && c <= 'z')
      continue;
    while (next <= 'z' && used(next))
      ++next;
    if (next > 'z')
      return std::nullopt;
    rename[c] = next++;
  }
  auto term = [&](const std::string &t) {
    std::string out;
    for (char c : t)
      out.push_back(rename.count(c) ? rename.lookup(c) : c);
    return out;
  };
  std::string out;
  for (auto [i, op] : llvm::enumerate(spec.operands)) {
    if (i)
      out += ",";
    out += term(op);
  }
  return out + "->" + term(spec.result);
}

llvm::DenseMap<char, int64_t>
contract::einsumLabelSizes(const choir::EinsumSpec &spec, ValueRange operands) {
  llvm::DenseMap<char, int64_t> sizes;
  for (auto [term, operand] : llvm::zip(spec.operands, operands)) {
    auto type = tensorType(operand);
    for (auto [d, label] : llvm::enumerate(term)) {
      int64_t size = type.getDimSize(d);
      auto [it, inserted] = sizes.try_emplace(label, size);
      if (inserted)
        continue;
      if (it->second == 1 || (ShapedType::isDynamic(it->second) && size != 1))
        it->second = size;
    }
  }
  return sizes;
}

bool contract::einsumBroadcasts(const choir::EinsumSpec &spec,
                                ValueRange operands) {
  auto sizes = einsumLabelSizes(spec, operands);
  for (auto [term, operand] : llvm::zip(spec.operands, operands)) {
    auto type = tensorType(operand);
    for (auto [d, label] : llvm::enumerate(term))
      if (type.getDimSize(d) == 1 && sizes.lookup(label) != 1)
        return true;
  }
  return false;
}

void accy::contract::noteRewrite(RewriteCounter *counter) {
  if (counter)
    ++counter->rewrites;
}
