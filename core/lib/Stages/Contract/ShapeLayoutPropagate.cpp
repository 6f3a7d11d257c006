//===- ShapeLayoutPropagate.cpp - accy-choir-shape-layout-propagate -------===//
//
// Every tensor dimension of a kernel function belongs to one class of equal
// sizes (union-find). Argument dimensions start from their `choir.dims`
// names; ops join classes (broadcasting joins only sizes other than 1). A
// class may hold at most one symbol or one constant: anything else is a
// mismatch, reported at the op that joins the two.
//
// With the classes known, the pass tightens result types, makes implicit
// broadcasts explicit and folds transposes into einsum specs.
//
//===----------------------------------------------------------------------===//

#include "ContractUtils.h"
#include "accy/Stages/Contract/Passes.h"

#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"

#include <map>

namespace accy::contract {
#define GEN_PASS_DEF_CHOIRSHAPELAYOUTPROPAGATE
#include "accy/Stages/Contract/Passes.h.inc"
} // namespace accy::contract

using namespace mlir;
using namespace accy;
using namespace accy::contract;

namespace {

/// What a class of equal dimensions is known to be.
struct DimClass {
  int64_t size = ShapedType::kDynamic;
  std::string symbol;
  /// The first kernel argument dimension in the class (argument number and
  /// dimension), whose tensor.dim materializes the size; -1 when none.
  int64_t bindArg = -1;
  int64_t bindDim = -1;
};

/// A dimension name that is a symbol (not a size expression like "N+M",
/// which names no class of its own).
bool isSymbolName(StringRef name) {
  if (name.empty() || !(llvm::isAlpha(name[0]) || name[0] == '_'))
    return false;
  return llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

std::string describe(const DimClass &c) {
  if (!c.symbol.empty())
    return "'" + c.symbol + "'";
  if (!ShapedType::isDynamic(c.size))
    return std::to_string(c.size);
  return "a dynamic size";
}

class ShapeUnifier {
public:
  explicit ShapeUnifier(func::FuncOp func) : func(func) {}

  /// Builds the classes; emits an error and fails at the first mismatch.
  LogicalResult run();

  const DimClass &classOf(Value v, int64_t d) {
    return data[find(dimsOf(v)[d])];
  }
  bool sameClass(Value a, int64_t da, Value b, int64_t db) {
    return find(dimsOf(a)[da]) == find(dimsOf(b)[db]);
  }
  /// The shape `v`'s type would have with every known size filled in.
  SmallVector<int64_t> refinedShape(Value v) {
    auto type = tensorType(v);
    SmallVector<int64_t> shape(type.getShape());
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (ShapedType::isDynamic(shape[d]))
        shape[d] = classOf(v, d).size;
    return shape;
  }

private:
  unsigned find(unsigned v) {
    while (parent[v] != v)
      v = parent[v] = parent[parent[v]];
    return v;
  }
  unsigned fresh(int64_t size = ShapedType::kDynamic) {
    parent.push_back(parent.size());
    DimClass c;
    c.size = size;
    data.push_back(c);
    return parent.size() - 1;
  }
  unsigned symbolVar(StringRef name) {
    auto it = symbols.find(name);
    if (it != symbols.end())
      return it->second;
    unsigned v = fresh();
    data[v].symbol = name.str();
    symbols[name] = v;
    return v;
  }

  /// Joins two classes; on a mismatch returns the two descriptions.
  std::optional<std::pair<std::string, std::string>> join(unsigned a,
                                                          unsigned b) {
    a = find(a);
    b = find(b);
    if (a == b)
      return std::nullopt;
    DimClass &x = data[a], &y = data[b];
    bool xs = !ShapedType::isDynamic(x.size), ys = !ShapedType::isDynamic(y.size);
    bool conflict = (xs && ys && x.size != y.size) ||
                    (!x.symbol.empty() && !y.symbol.empty() &&
                     x.symbol != y.symbol) ||
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

  SmallVector<unsigned> &dimsOf(Value v) {
    auto it = dims.find(v);
    if (it != dims.end())
      return it->second;
    SmallVector<unsigned> vars;
    if (auto type = dyn_cast<RankedTensorType>(v.getType()))
      for (int64_t size : type.getShape())
        vars.push_back(fresh(size));
    return dims[v] = vars;
  }

  /// The class of an index value used as a size: a tensor.dim of a known
  /// dimension, a constant, or something new.
  unsigned traceSize(Value size) {
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

  /// Result dims from the type, dynamic ones from `sizes` in order.
  void assignSized(Value result, ValueRange sizes) {
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

  LogicalResult equal(Operation *op, unsigned a, unsigned b,
                      const Twine &what) {
    if (auto conflict = join(a, b)) {
      op->emitOpError() << what << " is " << conflict->first << " but "
                        << conflict->second;
      return failure();
    }
    return success();
  }

  LogicalResult visitBroadcasting(Operation *op, ValueRange operands,
                                  Value result);
  LogicalResult visitEinsum(choir::EinsumOp op);
  LogicalResult visitReturn(func::ReturnOp op);
  LogicalResult visit(Operation *op);

  func::FuncOp func;
  SmallVector<unsigned> parent;
  SmallVector<DimClass> data;
  llvm::DenseMap<Value, SmallVector<unsigned>> dims;
  llvm::StringMap<unsigned> symbols;
};

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
  WalkResult walk = func.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    return failed(visit(op)) ? WalkResult::interrupt() : WalkResult::advance();
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
               << "cannot broadcast dimension " << r << ": "
               << conflict->first << " against " << conflict->second
               << " (sizes must be equal or 1)";
    }
    if (!result)
      continue;
    unsigned out = dimsOf(result)[r];
    if (anchor) {
      if (failed(equal(op, out, *anchor,
                       "result dimension " + Twine(r))))
        return failure();
    } else if (sawOne) {
      if (failed(equal(op, out, fresh(1), "result dimension " + Twine(r))))
        return failure();
    }
  }
  return success();
}

LogicalResult ShapeUnifier::visitEinsum(choir::EinsumOp op) {
  SmallVector<int64_t> ranks;
  for (Value v : op.getInputs())
    ranks.push_back(tensorType(v).getRank());
  auto spec = choir::EinsumSpec::parse(op.getSpec(), ranks);
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
               << conflict->first << " in one operand but "
               << conflict->second << " in another";
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
    for (int64_t d = 0; d < type.getRank() &&
                        d < static_cast<int64_t>(names.size());
         ++d) {
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
  if (isa<choir::AddOp, choir::SubOp, choir::MulOp, choir::DivOp,
          choir::CmpOp>(op))
    return visitBroadcasting(op, op->getOperands().take_back(2),
                             op->getResult(0));
  if (auto select = dyn_cast<choir::SelectOp>(op))
    return visitBroadcasting(op, select->getOperands(), select.getResult());
  if (auto mse = dyn_cast<choir::MseOp>(op))
    return visitBroadcasting(op, mse->getOperands(), Value());
  if (isa<choir::CrossEntropyOp, choir::NllOp>(op)) {
    if (auto conflict = join(dimsOf(op->getOperand(0))[0],
                             dimsOf(op->getOperand(1))[0]))
      return op->emitOpError() << "has " << conflict->first
                               << " rows of scores but " << conflict->second
                               << " labels";
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
        return op->emitOpError()
               << "cannot broadcast dimension " << d << " of the input: "
               << conflict->second << " to " << conflict->first;
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
      if (auto conflict =
              join(var, fresh(slice.getType().getDimSize(d))))
        return op->emitOpError() << "result dimension " << d << " is "
                                 << conflict->first << " but "
                                 << conflict->second;
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
    if (refined == type || !castCompatible(refined.getShape(), type.getShape()))
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
struct FoldTransposeIntoEinsum : OpRewritePattern<choir::EinsumOp> {
  FoldTransposeIntoEinsum(MLIRContext *ctx, RewriteCounter *counter)
      : OpRewritePattern(ctx), counter(counter) {}
  LogicalResult matchAndRewrite(choir::EinsumOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<int64_t> ranks;
    for (Value v : op.getInputs())
      ranks.push_back(tensorType(v).getRank());
    auto spec = choir::EinsumSpec::parse(op.getSpec(), ranks);
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
  RewriteCounter *counter;
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
