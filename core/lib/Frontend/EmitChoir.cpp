//===- EmitChoir.cpp - From the typed AST to the choir dialect ------------===//

#include "accy/Frontend/EmitChoir.h"

#include "accy/Dialect/Choir/IR/Choir.h"
#include "accy/Frontend/AST.h"
#include "accy/ProductAttributes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

using namespace accy;
using namespace mlir;

namespace {

class ChoirEmitter {
public:
  ChoirEmitter(MLIRContext &context, const Kernel &kernel)
      : context(context), kernel(kernel), builder(&context) {}

  EmittedKernel emit();

private:
  // Types and attributes.
  Type elementType(ElemType elem);
  RankedTensorType tensorType(const accy::TensorType &type);
  Attribute dimsAttr(const Shape &shape);
  TypedAttr scalarAttr(const ScalarValue &value, ElemType elem);

  // Locations: one ordinal per node, inside the call sites being inlined.
  Location nodeLoc(SourceRange range);

  // Sizes.
  Value symbolSize(llvm::StringRef name);
  Value dimSize(const Dim &dim);
  SmallVector<Value> dynamicSizes(const Shape &shape);

  // Expressions.
  Value emitExpr(const Expr &expr);
  Value emitScalar(const ScalarValue &value, ElemType elem, Location loc);
  Value emitBinary(const BinaryExpr &expr, Location loc);
  Value emitBuiltin(const BuiltinCallExpr &expr, Location loc);
  Value emitIndex(const IndexExpr &expr, Location loc);
  Value emitInlined(const InlinedCallExpr &expr, Location loc);
  void emitLets(const Body &body);

  MLIRContext &context;
  const Kernel &kernel;
  OpBuilder builder;
  func::FuncOp func;
  std::vector<SourceRange> nodes;
  std::vector<Location> callSites;
  llvm::DenseMap<const ParamBinding *, Value> params;
  llvm::DenseMap<const LetBinding *, Value> lets;
  llvm::StringMap<Value> symbols;
};

} // namespace

Type ChoirEmitter::elementType(ElemType elem) {
  switch (elem) {
  case ElemType::F16:
    return builder.getF16Type();
  case ElemType::BF16:
    return builder.getBF16Type();
  case ElemType::F32:
    return builder.getF32Type();
  case ElemType::F64:
    return builder.getF64Type();
  case ElemType::I32:
    return builder.getI32Type();
  case ElemType::I64:
    return builder.getI64Type();
  case ElemType::Bool:
    return builder.getI1Type();
  }
  return builder.getF32Type();
}

RankedTensorType ChoirEmitter::tensorType(const accy::TensorType &type) {
  SmallVector<int64_t> shape;
  for (const Dim &d : type.shape)
    shape.push_back(d.getStatic().value_or(ShapedType::kDynamic));
  return RankedTensorType::get(shape, elementType(type.elem));
}

/// Static sizes as integers, symbols and size expressions by name.
Attribute ChoirEmitter::dimsAttr(const Shape &shape) {
  SmallVector<Attribute> dims;
  for (const Dim &d : shape) {
    if (auto s = d.getStatic())
      dims.push_back(builder.getI64IntegerAttr(*s));
    else
      dims.push_back(builder.getStringAttr(d.str()));
  }
  return builder.getArrayAttr(dims);
}

TypedAttr ChoirEmitter::scalarAttr(const ScalarValue &value, ElemType elem) {
  Type type = elementType(elem);
  if (elem == ElemType::Bool)
    return builder.getBoolAttr(value.kind == ScalarValue::Kind::Bool
                                   ? value.boolValue
                                   : value.asInt() != 0);
  if (isFloat(elem))
    return builder.getFloatAttr(type, value.asDouble());
  return builder.getIntegerAttr(type, value.asInt());
}

Location ChoirEmitter::nodeLoc(SourceRange range) {
  std::string name = kernel.name + "#" + std::to_string(nodes.size());
  nodes.push_back(range);
  Location loc = NameLoc::get(builder.getStringAttr(name));
  // Inside an inlined fn the innermost call site comes last.
  for (auto it = callSites.rbegin(); it != callSites.rend(); ++it)
    loc = CallSiteLoc::get(loc, *it);
  return loc;
}

Value ChoirEmitter::symbolSize(llvm::StringRef name) {
  if (Value v = symbols.lookup(name))
    return v;
  for (const DimSymbol &sym : kernel.symbols) {
    if (sym.name != name)
      continue;
    // Sizes are materialised once, at the top of the kernel.
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&func.getBody().front());
    Value arg = func.getArgument(sym.param);
    Value v = builder.create<tensor::DimOp>(arg.getLoc(), arg, sym.axis);
    symbols[name] = v;
    return v;
  }
  return nullptr;
}

Value ChoirEmitter::dimSize(const Dim &dim) {
  Location loc = builder.getUnknownLoc();
  Value total;
  for (const Dim::Term &term : dim.terms()) {
    Value v = builder.create<arith::ConstantIndexOp>(loc, term.coeff);
    for (const std::string &sym : term.symbols)
      v = builder.create<arith::MulIOp>(loc, v, symbolSize(sym));
    total = total ? builder.create<arith::AddIOp>(loc, total, v).getResult() : v;
  }
  return total ? total : builder.create<arith::ConstantIndexOp>(loc, 0);
}

SmallVector<Value> ChoirEmitter::dynamicSizes(const Shape &shape) {
  SmallVector<Value> sizes;
  for (const Dim &d : shape)
    if (!d.isStatic())
      sizes.push_back(dimSize(d));
  return sizes;
}

Value ChoirEmitter::emitScalar(const ScalarValue &value, ElemType elem,
                               Location loc) {
  auto type = RankedTensorType::get({}, elementType(elem));
  return builder.create<choir::ConstantOp>(
      loc, DenseElementsAttr::get(type, scalarAttr(value, elem)));
}

Value ChoirEmitter::emitExpr(const Expr &expr) {
  Location loc = nodeLoc(expr.range);
  switch (expr.getKind()) {
  case ExprKind::Literal: {
    auto &lit = llvm::cast<LiteralExpr>(expr);
    return emitScalar(lit.value, lit.type.elem, loc);
  }
  case ExprKind::ConstRef: {
    auto &ref = llvm::cast<ConstRefExpr>(expr);
    return emitScalar(ref.decl->value, ref.type.elem, loc);
  }
  case ExprKind::ParamRef:
    return params.lookup(llvm::cast<ParamRefExpr>(expr).param);
  case ExprKind::LetRef:
    return lets.lookup(llvm::cast<LetRefExpr>(expr).let);
  case ExprKind::Neg: {
    Value operand = emitExpr(*llvm::cast<NegExpr>(expr).operand);
    return builder.create<choir::NegOp>(loc, operand);
  }
  case ExprKind::Binary:
    return emitBinary(llvm::cast<BinaryExpr>(expr), loc);
  case ExprKind::BuiltinCall:
    return emitBuiltin(llvm::cast<BuiltinCallExpr>(expr), loc);
  case ExprKind::Index:
    return emitIndex(llvm::cast<IndexExpr>(expr), loc);
  case ExprKind::InlinedCall:
    return emitInlined(llvm::cast<InlinedCallExpr>(expr), loc);
  case ExprKind::Error:
    break;
  }
  return nullptr; // only in invalid kernels, which are never emitted
}

Value ChoirEmitter::emitBinary(const BinaryExpr &expr, Location loc) {
  Value lhs = emitExpr(*expr.lhs), rhs = emitExpr(*expr.rhs);
  RankedTensorType type = tensorType(expr.type);
  auto compare = [&](choir::CmpPredicate p) -> Value {
    return builder.create<choir::CmpOp>(loc, type, p, lhs, rhs);
  };
  switch (expr.op) {
  case BinaryOpKind::Add:
    return builder.create<choir::AddOp>(loc, type, lhs, rhs);
  case BinaryOpKind::Sub:
    return builder.create<choir::SubOp>(loc, type, lhs, rhs);
  case BinaryOpKind::Mul:
    return builder.create<choir::MulOp>(loc, type, lhs, rhs);
  case BinaryOpKind::Div:
    return builder.create<choir::DivOp>(loc, type, lhs, rhs);
  case BinaryOpKind::Less:
    return compare(choir::CmpPredicate::lt);
  case BinaryOpKind::LessEqual:
    return compare(choir::CmpPredicate::le);
  case BinaryOpKind::Greater:
    return compare(choir::CmpPredicate::gt);
  case BinaryOpKind::GreaterEqual:
    return compare(choir::CmpPredicate::ge);
  case BinaryOpKind::Equal:
    return compare(choir::CmpPredicate::eq);
  case BinaryOpKind::NotEqual:
    return compare(choir::CmpPredicate::ne);
  }
  return nullptr;
}

Value ChoirEmitter::emitBuiltin(const BuiltinCallExpr &expr, Location loc) {
  SmallVector<Value> operands;
  for (const ExprPtr &operand : expr.operands)
    operands.push_back(emitExpr(*operand));
  RankedTensorType type = tensorType(expr.type);
  const BuiltinAttrs &attrs = expr.attrs;
  auto unary = [&](auto op) -> Value {
    return builder.create<decltype(op)>(loc, operands[0]);
  };
  switch (expr.builtin) {
  case Builtin::Relu:
    return unary(choir::ReluOp());
  case Builtin::Gelu:
    return unary(choir::GeluOp());
  case Builtin::Sigmoid:
    return unary(choir::SigmoidOp());
  case Builtin::Tanh:
    return unary(choir::TanhOp());
  case Builtin::Silu:
    return unary(choir::SiluOp());
  case Builtin::Exp:
    return unary(choir::ExpOp());
  case Builtin::Log:
    return unary(choir::LogOp());
  case Builtin::Sqrt:
    return unary(choir::SqrtOp());
  case Builtin::Rsqrt:
    return unary(choir::RsqrtOp());
  case Builtin::Abs:
    return unary(choir::AbsOp());
  case Builtin::Softmax:
    return builder.create<choir::SoftmaxOp>(loc, operands[0], attrs.axis());
  case Builtin::LogSoftmax:
    return builder.create<choir::LogSoftmaxOp>(loc, operands[0], attrs.axis());
  case Builtin::Sum:
  case Builtin::Mean:
  case Builtin::Max:
  case Builtin::Min: {
    choir::ReduceKind kind =
        expr.builtin == Builtin::Sum    ? choir::ReduceKind::sum
        : expr.builtin == Builtin::Mean ? choir::ReduceKind::mean
        : expr.builtin == Builtin::Max  ? choir::ReduceKind::max
                                        : choir::ReduceKind::min;
    return builder.create<choir::ReduceOp>(loc, type, kind, operands[0],
                                           attrs.axes, attrs.keepdims);
  }
  case Builtin::Einsum:
  case Builtin::MatMul:
    return builder.create<choir::EinsumOp>(loc, type, attrs.einsum.text,
                                           operands);
  case Builtin::Take:
    return builder.create<choir::TakeOp>(loc, type, operands[0], operands[1],
                                         attrs.axis());
  case Builtin::Transpose:
    return builder.create<choir::TransposeOp>(loc, type, operands[0],
                                              attrs.perm);
  case Builtin::Reshape:
    return builder.create<choir::ReshapeOp>(loc, type, operands[0],
                                            dynamicSizes(attrs.shape));
  case Builtin::Broadcast:
    return builder.create<choir::BroadcastOp>(loc, type, operands[0],
                                              dynamicSizes(attrs.shape));
  case Builtin::Concat:
    return builder.create<choir::ConcatOp>(loc, type, operands, attrs.axis());
  case Builtin::Cumsum:
  case Builtin::Cummax:
    return builder.create<choir::ScanOp>(
        loc, expr.builtin == Builtin::Cumsum ? choir::ScanKind::cumsum
                                             : choir::ScanKind::cummax,
        operands[0], attrs.axis());
  case Builtin::Mse:
    return builder.create<choir::MseOp>(loc, type, operands[0], operands[1]);
  case Builtin::CrossEntropy:
    return builder.create<choir::CrossEntropyOp>(loc, type, operands[0],
                                                 operands[1]);
  case Builtin::Nll:
    return builder.create<choir::NllOp>(loc, type, operands[0], operands[1]);
  case Builtin::Select:
    return builder.create<choir::SelectOp>(loc, type, operands[0], operands[1],
                                           operands[2]);
  case Builtin::Cast:
    return builder.create<choir::CastOp>(loc, type, operands[0]);
  case Builtin::Full: {
    // A constant fill value stays an attribute; any other scalar is
    // broadcast.
    auto constant = operands[0].getDefiningOp<choir::ConstantOp>();
    if (constant)
      if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
        return builder.create<choir::FullOp>(
            loc, type, cast<TypedAttr>(dense.getSplatValue<Attribute>()),
            dynamicSizes(attrs.shape));
    return builder.create<choir::BroadcastOp>(loc, type, operands[0],
                                              dynamicSizes(attrs.shape));
  }
  case Builtin::Iota: {
    SmallVector<Value> size = dynamicSizes(attrs.shape);
    return builder.create<choir::IotaOp>(
        loc, type, size.empty() ? Value() : size.front());
  }
  }
  return nullptr;
}

/// x[...] is a slice of every axis (points are slices of size 1), then a
/// reshape that drops the point axes, then a take for a gather axis.
Value ChoirEmitter::emitIndex(const IndexExpr &expr, Location loc) {
  Value base = emitExpr(expr.base());
  Value gather = expr.gatherIndex() ? emitExpr(*expr.gatherIndex()) : Value();
  const accy::TensorType &astBase = expr.base().type;

  SmallVector<int64_t> staticStarts, staticSizes;
  SmallVector<Value> starts, sizes;
  Shape sliced, kept;
  bool slices = false;
  std::optional<unsigned> gatherAxis;
  for (auto [axis, item] : llvm::enumerate(expr.axes)) {
    Dim start = Dim::constant(0), size = astBase.shape[axis];
    if (item.kind == IndexAxis::Kind::Slice) {
      start = item.start;
      size = Dim::sub(item.stop, item.start).value_or(size);
      slices = true;
    } else if (item.kind == IndexAxis::Kind::Point) {
      start = item.start;
      size = Dim::constant(1);
      slices = true;
    }
    auto pushMixed = [&](const Dim &d, SmallVector<int64_t> &stat,
                         SmallVector<Value> &dyn) {
      if (auto s = d.getStatic()) {
        stat.push_back(*s);
      } else {
        stat.push_back(ShapedType::kDynamic);
        dyn.push_back(dimSize(d));
      }
    };
    pushMixed(start, staticStarts, starts);
    pushMixed(size, staticSizes, sizes);
    sliced.push_back(size);
    if (item.kind != IndexAxis::Kind::Point) {
      if (item.kind == IndexAxis::Kind::Gather)
        gatherAxis = kept.size();
      kept.push_back(size);
    }
  }

  Value v = base;
  if (slices) {
    auto slicedType = tensorType(accy::TensorType(astBase.elem, sliced));
    v = builder.create<choir::SliceOp>(loc, slicedType, v, starts, sizes,
                                       staticStarts, staticSizes);
  }
  if (kept.size() != sliced.size())
    v = builder.create<choir::ReshapeOp>(
        loc, tensorType(accy::TensorType(astBase.elem, kept)), v,
        dynamicSizes(kept));
  if (gatherAxis)
    v = builder.create<choir::TakeOp>(loc, tensorType(expr.type), v, gather,
                                      *gatherAxis);
  return v;
}

Value ChoirEmitter::emitInlined(const InlinedCallExpr &expr, Location loc) {
  for (auto [param, arg] : llvm::zip(expr.params, expr.args))
    params[param.get()] = emitExpr(*arg);
  callSites.push_back(loc);
  emitLets(expr.body);
  Value result = emitExpr(*expr.body.results.front());
  callSites.pop_back();
  return result;
}

void ChoirEmitter::emitLets(const Body &body) {
  for (const auto &let : body.lets)
    lets[let.get()] = emitExpr(*let->value);
}

EmittedKernel ChoirEmitter::emit() {
  Location kernelLoc = nodeLoc(kernel.nameRange);
  EmittedKernel out;
  out.module = ModuleOp::create(kernelLoc, llvm::StringRef(kernel.name));
  (*out.module)->setAttr(kKernelAttr, builder.getStringAttr(kernel.name));

  SmallVector<Type> argTypes, resultTypes;
  for (const auto &param : kernel.params)
    argTypes.push_back(tensorType(param->type));
  for (const accy::TensorType &result : kernel.results)
    resultTypes.push_back(tensorType(result));
  builder.setInsertionPointToEnd(out.module->getBody());
  func = builder.create<func::FuncOp>(
      kernelLoc, kernel.name, builder.getFunctionType(argTypes, resultTypes));
  func->setAttr(choir::kKernelAttrName, builder.getUnitAttr());
  for (auto [i, param] : llvm::enumerate(kernel.params)) {
    func.setArgAttr(i, choir::kDimsAttrName, dimsAttr(param->type.shape));
    func.setArgAttr(i, kParamNameAttr, builder.getStringAttr(param->name));
  }
  for (auto [i, result] : llvm::enumerate(kernel.results))
    func.setResultAttr(i, choir::kDimsAttrName, dimsAttr(result.shape));

  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToEnd(entry);
  for (auto [i, param] : llvm::enumerate(kernel.params))
    params[param.get()] = entry->getArgument(i);
  emitLets(kernel.body);
  SmallVector<Value> results;
  for (const ExprPtr &result : kernel.body.results)
    results.push_back(emitExpr(*result));
  builder.create<func::ReturnOp>(nodeLoc(kernel.body.returnRange), results);
  out.nodes = std::move(nodes);
  return out;
}

EmittedKernel accy::emitChoir(MLIRContext &context, const Kernel &kernel) {
  context.loadDialect<choir::ChoirDialect, func::FuncDialect,
                      tensor::TensorDialect, arith::ArithDialect>();
  return ChoirEmitter(context, kernel).emit();
}
