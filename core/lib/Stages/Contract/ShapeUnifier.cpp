//===- ShapeUnifier.cpp - Classes of equal dimensions in a kernel ---------===//

#include "ShapeUnifier.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace accy;
using namespace accy::contract;

namespace {
/// A dimension name that is a symbol (not a size expression like "N+M",
/// which names no class of its own).
bool isSymbolName(StringRef name) {
  if (name.empty() || !(llvm::isAlpha(name[0]) || name[0] == '_'))
    return false;
  return llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

std::string describe(const DimClass &c) {
  if (!c.symbol.empty())
    return "'" + c.symbol + "'";
  if (!ShapedType::isDynamic(c.size))
    return std::to_string(c.size);
  return "a dynamic size";
}

} // namespace

const DimClass &ShapeUnifier::classOf(Value v, int64_t d) {
  return data[find(dimsOf(v)[d])];
}

bool ShapeUnifier::sameClass(Value a, int64_t da, Value b, int64_t db) {
  return find(dimsOf(a)[da]) == find(dimsOf(b)[db]);
}

SmallVector<int64_t> ShapeUnifier::refinedShape(Value v) {
  auto type = tensorType(v);
  SmallVector<int64_t> shape(type.getShape());
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (ShapedType::isDynamic(shape[d]))
      shape[d] = classOf(v, d).size;
  return shape;
}

unsigned ShapeUnifier::find(unsigned v) {
  while (parent[v] != v)
    v = parent[v] = parent[parent[v]];
  return v;
}

unsigned ShapeUnifier::fresh(int64_t size) {
  parent.push_back(parent.size());
  DimClass c;
  c.size = size;
  data.push_back(c);
  return parent.size() - 1;
}

unsigned ShapeUnifier::symbolVar(StringRef name) {
  auto it = symbols.find(name);
  if (it != symbols.end())
    return it->second;
  unsigned v = fresh();
  data[v].symbol = name.str();
  symbols[name] = v;
  return v;
}

std::optional<std::pair<std::string, std::string>>
ShapeUnifier::join(unsigned a, unsigned b) {
  a = find(a);
  b = find(b);
  if (a == b)
    return std::nullopt;
  DimClass &x = data[a], &y = data[b];
  bool xs = !ShapedType::isDynamic(x.size), ys = !ShapedType::isDynamic(y.size);
  bool conflict =
      (xs && ys && x.size != y.size) ||
      (!x.symbol.empty() && !y.symbol.empty() && x.symbol != y.symbol) ||
      (!x.symbol.empty() && ys) || (!y.symbol.empty() && xs);
  if (conflict)
    return std::make_pair(describe(x), describe(y));
  // Keep the lower class number as the root: deterministic merges.
  if (b < a)
    std::swap(a, b);
  DimClass &root = data[a], &other = data[b];
  if (ShapedType::isDynamic(root.size))
    root.size = other.size;
  if (root.symbol.empty())
    root.symbol = other.symbol;
  if (other.bindArg >= 0 &&
      (root.bindArg < 0 || std::make_pair(other.bindArg, other.bindDim) <
                               std::make_pair(root.bindArg, root.bindDim))) {
    root.bindArg = other.bindArg;
    root.bindDim = other.bindDim;
  }
  parent[b] = a;
  return std::nullopt;
}

SmallVector<unsigned> &ShapeUnifier::dimsOf(Value v) {
  auto it = dims.find(v);
  if (it != dims.end())
    return it->second;
  SmallVector<unsigned> vars;
  if (auto type = dyn_cast<RankedTensorType>(v.getType()))
    for (int64_t size : type.getShape())
      vars.push_back(fresh(size));
  return dims[v] = vars;
}

unsigned ShapeUnifier::traceSize(Value size) {
  if (auto dim = size.getDefiningOp<tensor::DimOp>())
    if (auto index = dim.getConstantIndex())
      if (auto type = dyn_cast<RankedTensorType>(dim.getSource().getType()))
        if (*index >= 0 && *index < type.getRank())
          return dimsOf(dim.getSource())[*index];
  APInt value;
  if (matchPattern(size, m_ConstantInt(&value)))
    return fresh(value.getSExtValue());
  return fresh();
}

void ShapeUnifier::assignSized(Value result, ValueRange sizes) {
  auto type = tensorType(result);
  SmallVector<unsigned> vars;
  unsigned next = 0;
  for (int64_t size : type.getShape()) {
    if (ShapedType::isDynamic(size) && next < sizes.size())
      vars.push_back(traceSize(sizes[next++]));
    else
      vars.push_back(fresh(size));
  }
  dims[result] = vars;
}

LogicalResult ShapeUnifier::equal(Operation *op, unsigned a, unsigned b,
                                  const Twine &what) {
  if (auto conflict = join(a, b)) {
    op->emitOpError() << what << " is " << conflict->first << " but "
                      << conflict->second;
    return failure();
  }
  return success();
}

LogicalResult ShapeUnifier::run() {
  for (BlockArgument arg : func.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type)
      continue;
    auto names = func.getArgAttrOfType<ArrayAttr>(arg.getArgNumber(),
                                                  choir::kDimsAttrName);
    SmallVector<unsigned> vars;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      unsigned v = fresh(type.getDimSize(d));
      data[v].bindArg = arg.getArgNumber();
      data[v].bindDim = d;
      if (names && d < static_cast<int64_t>(names.size())) {
        Attribute name = names[d];
        std::optional<std::pair<std::string, std::string>> conflict;
        auto s = dyn_cast<StringAttr>(name);
        if (s && isSymbolName(s.getValue()))
          conflict = join(v, symbolVar(s.getValue()));
        else if (auto i = dyn_cast<IntegerAttr>(name))
          conflict = join(v, fresh(i.getInt()));
        if (conflict)
          return emitError(arg.getLoc())
                 << "argument " << arg.getArgNumber() << " dimension " << d
                 << " is " << conflict->first << " but declared "
                 << conflict->second;
      }
      vars.push_back(v);
    }
    dims[arg] = vars;
  }
  WalkResult walk =
      func.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
        return failed(visit(op)) ? WalkResult::interrupt()
                                 : WalkResult::advance();
      });
  return failure(walk.wasInterrupted());
}

LogicalResult ShapeUnifier::visitBroadcasting(Operation *op,
                                              ValueRange operands,
                                              Value result) {
  int64_t rank = 0;
  for (Value v : operands)
    rank = std::max(rank, tensorType(v).getRank());
  for (int64_t r = 0; r < rank; ++r) {
    std::optional<unsigned> anchor;
    bool sawOne = false;
    for (Value v : operands) {
      int64_t d = r - (rank - tensorType(v).getRank());
      if (d < 0)
        continue;
      unsigned var = dimsOf(v)[d];
      if (data[find(var)].size == 1) {
        sawOne = true;
        continue;
      }
      if (!anchor) {
        anchor = var;
        continue;
      }
      if (auto conflict = join(*anchor, var))
        return op->emitOpError()
               << "cannot broadcast dimension " << r << ": " << conflict->first
               << " against " << conflict->second
               << " (sizes must be equal or 1)";
    }
    if (!result)
      continue;
    unsigned out = dimsOf(result)[r];
    if (anchor) {
      if (failed(equal(op, out, *anchor, "result dimension " + Twine(r))))
        return failure();
    } else if (sawOne) {
      if (failed(equal(op, out, fresh(1), "result dimension " + Twine(r))))
        return failure();
    }
  }
  return success();
}

LogicalResult ShapeUnifier::visitEinsum(choir::EinsumOp op) {
  auto spec = op.parseSpec();
  if (!spec)
    return op.emitOpError(llvm::toString(spec.takeError()));
  llvm::MapVector<char, unsigned> anchors;
  llvm::DenseSet<char> sawOne;
  for (auto [term, operand] : llvm::zip(spec->operands, op.getInputs())) {
    for (auto [d, label] : llvm::enumerate(term)) {
      unsigned var = dimsOf(operand)[d];
      bool batch = label >= 'A' && label <= 'Z';
      if (batch && data[find(var)].size == 1) {
        sawOne.insert(label);
        continue;
      }
      auto [it, inserted] = anchors.insert({label, var});
      if (inserted)
        continue;
      if (auto conflict = join(it->second, var)) {
        std::string name = batch ? "a batch dimension of '...'"
                                 : "'" + std::string(1, label) + "'";
        return op.emitOpError()
               << "einsum \"" << op.getSpec() << "\": " << name << " is "
               << conflict->first << " in one operand but " << conflict->second
               << " in another";
      }
    }
  }
  for (auto [r, label] : llvm::enumerate(spec->result)) {
    unsigned out = dimsOf(op.getResult())[r];
    auto it = anchors.find(label);
    unsigned source = it != anchors.end() ? it->second : fresh(1);
    if (failed(equal(op, out, source, "result dimension " + Twine(r))))
      return failure();
  }
  return success();
}

LogicalResult ShapeUnifier::visitReturn(func::ReturnOp op) {
  for (auto [i, value] : llvm::enumerate(op.getOperands())) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    auto names = func.getResultAttrOfType<ArrayAttr>(i, choir::kDimsAttrName);
    if (!type || !names)
      continue;
    for (int64_t d = 0;
         d < type.getRank() && d < static_cast<int64_t>(names.size()); ++d) {
      unsigned declared;
      auto s = dyn_cast<StringAttr>(names[d]);
      if (s && isSymbolName(s.getValue()))
        declared = symbolVar(s.getValue());
      else if (auto n = dyn_cast<IntegerAttr>(names[d]))
        declared = fresh(n.getInt());
      else
        continue;
      if (auto conflict = join(dimsOf(value)[d], declared))
        return op.emitOpError()
               << "result " << i << " dimension " << d << " is "
               << conflict->first << " but the kernel declares "
               << conflict->second;
    }
  }
  return success();
}

LogicalResult ShapeUnifier::visit(Operation *op) {
  auto sameShape = [&](Value in, Value out, StringRef what) {
    for (int64_t d = 0; d < tensorType(out).getRank(); ++d)
      if (failed(equal(op, dimsOf(out)[d], dimsOf(in)[d],
                       Twine(what) + " dimension " + Twine(d))))
        return failure();
    return success();
  };
  if (isa<choir::NegOp, choir::ReluOp, choir::GeluOp, choir::SigmoidOp,
          choir::TanhOp, choir::SiluOp, choir::ExpOp, choir::LogOp,
          choir::SqrtOp, choir::RsqrtOp, choir::AbsOp, choir::SoftmaxOp,
          choir::LogSoftmaxOp, choir::ScanOp, choir::CastOp, tensor::CastOp>(
          op))
    return sameShape(op->getOperand(0), op->getResult(0), "result");
  if (isa<choir::AddOp, choir::SubOp, choir::MulOp, choir::DivOp, choir::CmpOp>(
          op))
    return visitBroadcasting(op, op->getOperands().take_back(2),
                             op->getResult(0));
  if (auto select = dyn_cast<choir::SelectOp>(op))
    return visitBroadcasting(op, select->getOperands(), select.getResult());
  if (auto mse = dyn_cast<choir::MseOp>(op))
    return visitBroadcasting(op, mse->getOperands(), Value());
  if (isa<choir::CrossEntropyOp, choir::NllOp>(op)) {
    if (auto conflict =
            join(dimsOf(op->getOperand(0))[0], dimsOf(op->getOperand(1))[0]))
      return op->emitOpError()
             << "has " << conflict->first << " rows of scores but "
             << conflict->second << " labels";
    return success();
  }
  if (auto reduce = dyn_cast<choir::ReduceOp>(op)) {
    int64_t r = 0;
    for (int64_t d = 0; d < tensorType(reduce.getInput()).getRank(); ++d) {
      bool reduced = llvm::is_contained(reduce.getAxes(), d);
      if (reduced && !reduce.getKeepdims())
        continue;
      unsigned source = reduced ? fresh(1) : dimsOf(reduce.getInput())[d];
      if (failed(equal(op, dimsOf(reduce.getResult())[r++], source,
                       "result dimension " + Twine(r - 1))))
        return failure();
    }
    return success();
  }
  if (auto einsum = dyn_cast<choir::EinsumOp>(op))
    return visitEinsum(einsum);
  if (auto bcast = dyn_cast<choir::BroadcastOp>(op)) {
    assignSized(bcast.getResult(), bcast.getSizes());
    auto in = tensorType(bcast.getInput());
    int64_t offset = bcast.getType().getRank() - in.getRank();
    for (int64_t d = 0; d < in.getRank(); ++d) {
      unsigned var = dimsOf(bcast.getInput())[d];
      if (data[find(var)].size == 1)
        continue;
      if (auto conflict = join(dimsOf(bcast.getResult())[d + offset], var))
        return op->emitOpError() << "cannot broadcast dimension " << d
                                 << " of the input: " << conflict->second
                                 << " to " << conflict->first;
    }
    return success();
  }
  if (auto transpose = dyn_cast<choir::TransposeOp>(op)) {
    for (auto [i, p] : llvm::enumerate(transpose.getPerm()))
      if (failed(equal(op, dimsOf(transpose.getResult())[i],
                       dimsOf(transpose.getInput())[p],
                       "result dimension " + Twine(i))))
        return failure();
    return success();
  }
  if (auto reshape = dyn_cast<choir::ReshapeOp>(op)) {
    assignSized(reshape.getResult(), reshape.getSizes());
    return success();
  }
  if (auto full = dyn_cast<choir::FullOp>(op)) {
    assignSized(full.getResult(), full.getSizes());
    return success();
  }
  if (auto iota = dyn_cast<choir::IotaOp>(op)) {
    SmallVector<Value> sizes;
    if (iota.getSize())
      sizes.push_back(iota.getSize());
    assignSized(iota.getResult(), sizes);
    return success();
  }
  if (auto slice = dyn_cast<choir::SliceOp>(op)) {
    SmallVector<unsigned> vars;
    unsigned next = 0;
    for (auto [d, size] : llvm::enumerate(slice.getStaticSizes())) {
      unsigned var = ShapedType::isDynamic(size)
                         ? traceSize(slice.getSizes()[next++])
                         : fresh(size);
      if (auto conflict = join(var, fresh(slice.getType().getDimSize(d))))
        return op->emitOpError()
               << "result dimension " << d << " is " << conflict->first
               << " but " << conflict->second;
      vars.push_back(var);
    }
    dims[slice.getResult()] = vars;
    return success();
  }
  if (auto take = dyn_cast<choir::TakeOp>(op)) {
    SmallVector<unsigned> sources;
    auto &in = dimsOf(take.getInput());
    int64_t axis = take.getAxis();
    sources.append(in.begin(), in.begin() + axis);
    auto &idx = dimsOf(take.getIndices());
    sources.append(idx.begin(), idx.end());
    sources.append(in.begin() + axis + 1, in.end());
    for (auto [r, source] : llvm::enumerate(sources))
      if (failed(equal(op, dimsOf(take.getResult())[r], source,
                       "result dimension " + Twine(r))))
        return failure();
    return success();
  }
  if (auto concat = dyn_cast<choir::ConcatOp>(op)) {
    int64_t rank = concat.getType().getRank();
    for (Value v : concat.getInputs())
      for (int64_t d = 0; d < rank; ++d)
        if (d != concat.getAxis() &&
            failed(equal(op, dimsOf(concat.getResult())[d], dimsOf(v)[d],
                         "dimension " + Twine(d) + " of the inputs")))
          return failure();
    return success();
  }
  if (auto ret = dyn_cast<func::ReturnOp>(op))
    return ret->getParentOp() == func ? visitReturn(ret) : success();
  return success();
}
