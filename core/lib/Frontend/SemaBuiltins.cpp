//===- SemaBuiltins.cpp - Built-in calls ----------------------------------===//
//
// Binds arguments Python-style (positional in order, then named), evaluates
// the compile-time constant ones, checks operand types and shapes, and
// builds a BuiltinCallExpr with normalized attributes.
//
//===----------------------------------------------------------------------===//

#include "BuiltinChecker.h"

#include <algorithm>

using namespace accy;
using namespace accy::sema;

bool BuiltinChecker::bind() {
  args.params.assign(info.params.size(), nullptr);
  size_t next = 0;
  bool sawNamed = false;
  size_t positional = 0;
  for (const syntax::CallArg &arg : call.args)
    positional += arg.name.empty();
  for (const syntax::CallArg &arg : call.args) {
    if (arg.name.empty()) {
      if (sawNamed) {
        sema.error(DiagCode::PositionalAfterNamed, arg.value->range,
                   "positional argument after a named one in the call of " +
                       callName());
        return false;
      }
      if (next < info.params.size()) {
        args.params[next++] = arg.value.get();
      } else if (info.variadicTensors) {
        args.extra.push_back(arg.value.get());
      } else {
        size_t required = 0;
        for (const BuiltinParam &p : info.params)
          required += p.required;
        sema.error(DiagCode::ArgumentCount, arg.value->range,
                   callName() + " takes " +
                       (required == info.params.size() ? "" : "at most ") +
                       std::to_string(info.params.size()) +
                       (info.params.size() == 1 ? " argument" : " arguments") +
                       " but " + std::to_string(positional) +
                       " were given; usage: " + info.signature);
        return false;
      }
      continue;
    }
    sawNamed = true;
    size_t index = info.params.size();
    for (size_t i = 0; i < info.params.size(); ++i)
      if (arg.name == info.params[i].name)
        index = i;
    if (index == info.params.size()) {
      std::vector<std::string> names;
      for (const BuiltinParam &p : info.params)
        if (p.isConstant())
          names.push_back(p.name);
      sema.reportUnknown(
          DiagCode::UnknownNamedArgument, arg.nameRange, arg.name,
          callName() + " has no parameter named '" + arg.name + "'", names,
          std::string("; usage: ") + info.signature);
      return false;
    }
    if (!info.params[index].isConstant()) {
      sema.error(DiagCode::UnknownNamedArgument, arg.nameRange,
                 argName(index) + " is a tensor and must be passed by "
                 "position; only compile-time constant arguments have names");
      return false;
    }
    if (args.params[index]) {
      sema.error(DiagCode::DuplicateArgument, arg.nameRange,
                 argName(index) + " is given twice");
      return false;
    }
    args.params[index] = arg.value.get();
  }
  for (size_t i = 0; i < info.params.size(); ++i)
    if (info.params[i].required && !args.params[i]) {
      sema.error(DiagCode::ArgumentCount, call.range,
                 "missing " + argName(i) + "; usage: " + info.signature);
      return false;
    }
  return true;
}

std::optional<int64_t> BuiltinChecker::constInt(size_t i) {
  CValue v = sema.evalConst(*args.get(i), scope);
  switch (v.kind) {
  case CValue::Kind::Int:
    return v.intValue;
  case CValue::Kind::Error:
    return std::nullopt;
  case CValue::Kind::NotConst: {
    auto b = sema.error(DiagCode::NonConstantArgument, v.range,
                        argName(i) + " must be a compile-time constant");
    if (info.group == BuiltinGroup::Reduction &&
        (info.id == Builtin::Max || info.id == Builtin::Min))
      b.note(call.calleeRange,
             std::string("'") + info.name + "' is a reduction; for an "
             "elementwise " + info.name + " use select(a " +
                 (info.id == Builtin::Max ? ">" : "<") + " b, a, b)");
    return std::nullopt;
  }
  default:
    sema.error(DiagCode::ArgumentKind, v.range,
               argName(i) + " must be an integer, got " + v.describe());
    return std::nullopt;
  }
}

std::optional<bool> BuiltinChecker::constBool(size_t i, bool defaultValue) {
  if (!args.get(i))
    return defaultValue;
  CValue v = sema.evalConst(*args.get(i), scope);
  switch (v.kind) {
  case CValue::Kind::Bool:
    return v.boolValue;
  case CValue::Kind::Error:
    return std::nullopt;
  case CValue::Kind::NotConst:
    sema.error(DiagCode::NonConstantArgument, v.range,
               argName(i) + " must be a compile-time constant");
    return std::nullopt;
  default:
    sema.error(DiagCode::ArgumentKind, v.range,
               argName(i) + " must be true or false, got " + v.describe());
    return std::nullopt;
  }
}

std::optional<int64_t> BuiltinChecker::axisArg(size_t i, int64_t defaultValue,
                                               const TensorType &type) {
  int64_t axis = defaultValue;
  SourceRange range = call.range;
  if (args.get(i)) {
    std::optional<int64_t> v = constInt(i);
    if (!v)
      return std::nullopt;
    axis = *v;
    range = args.get(i)->range;
  }
  return sema.normalizeAxis(axis, type.rank(), type, range, callName());
}

std::optional<int64_t> BuiltinChecker::listedAxis(size_t i,
                                                  const CValue &item,
                                                  const TensorType &type) {
  if (item.kind != CValue::Kind::Int) {
    sema.error(DiagCode::ArgumentKind, item.range,
               argName(i) + " must list integers, got " + item.describe());
    return std::nullopt;
  }
  return sema.normalizeAxis(item.intValue, type.rank(), type, item.range,
                            callName());
}

std::optional<Shape> BuiltinChecker::shapeArg(size_t i, bool allowMinusOne,
                                              int &minusOneAt) {
  minusOneAt = -1;
  const syntax::Expr *e = args.get(i);
  const auto *list = llvm::dyn_cast<syntax::ListExpr>(e);
  if (!list) {
    if (!llvm::isa<syntax::ErrorExpr>(e))
      sema.error(DiagCode::ArgumentKind, e->range,
                 argName(i) + " must be a list of dimensions, like [N, 4]");
    return std::nullopt;
  }
  Shape shape;
  for (size_t k = 0; k < list->elements.size(); ++k) {
    bool isMinusOne = false;
    std::optional<Dim> d =
        sema.evalDimArg(*list->elements[k], scope, argName(i),
                        allowMinusOne && minusOneAt < 0, isMinusOne);
    if (!d)
      return std::nullopt;
    if (isMinusOne)
      minusOneAt = k;
    shape.push_back(*d);
  }
  return shape;
}

//===----------------------------------------------------------------------===//
// The built-ins
//===----------------------------------------------------------------------===//

ExprPtr BuiltinChecker::activation() {
  ExprPtr x = value(0);
  if (isError(x))
    return fail();
  bool floatOnly = info.id != Builtin::Relu && info.id != Builtin::Abs;
  if (x->weak && floatOnly && !isFloat(x->type.elem))
    sema.coerceWeak(*x, ElemType::F32);
  if (!sema.requireNumeric(*x, callName(), floatOnly))
    return fail();
  auto n = node(x->type);
  n->operands.push_back(std::move(x));
  return n;
}

ExprPtr BuiltinChecker::alongOneAxis(bool floatOnly, int64_t defaultAxis) {
  ExprPtr x = value(0);
  if (isError(x))
    return fail();
  if (!sema.requireNumeric(*x, callName(), floatOnly))
    return fail();
  std::optional<int64_t> axis = axisArg(1, defaultAxis, x->type);
  if (!axis)
    return fail();
  auto n = node(x->type);
  n->attrs.axes = {*axis};
  n->operands.push_back(std::move(x));
  return n;
}

ExprPtr BuiltinChecker::reduction() {
  ExprPtr x = value(0);
  if (isError(x))
    return fail();
  if (x->weak && info.id == Builtin::Mean && !isFloat(x->type.elem))
    sema.coerceWeak(*x, ElemType::F32);
  if (!sema.requireNumeric(*x, callName(), info.id == Builtin::Mean))
    return fail();
  unsigned rank = x->type.rank();
  std::vector<int64_t> axes;
  if (!args.get(1)) {
    for (unsigned a = 0; a < rank; ++a)
      axes.push_back(a);
  } else {
    CValue v = sema.evalConst(*args.get(1), scope);
    std::vector<CValue> items;
    if (v.kind == CValue::Kind::List) {
      items = v.list;
    } else if (v.kind == CValue::Kind::Int) {
      items.push_back(v);
    } else if (v.kind == CValue::Kind::Error) {
      return fail();
    } else if (v.kind == CValue::Kind::NotConst) {
      constInt(1); // Reports the non-constant argument.
      return fail();
    } else {
      sema.error(DiagCode::ArgumentKind, v.range,
                 argName(1) + " must be an integer or a list of integers, "
                 "got " + v.describe());
      return fail();
    }
    for (const CValue &item : items) {
      std::optional<int64_t> a = listedAxis(1, item, x->type);
      if (!a)
        return fail();
      if (std::find(axes.begin(), axes.end(), *a) != axes.end()) {
        sema.error(DiagCode::DuplicateAxis, item.range,
                   "axis " + std::to_string(*a) + " is listed twice in " +
                       argName(1));
        return fail();
      }
      axes.push_back(*a);
    }
    std::sort(axes.begin(), axes.end());
  }
  std::optional<bool> keepdims = constBool(2, false);
  if (!keepdims)
    return fail();
  Shape shape;
  for (unsigned a = 0; a < rank; ++a) {
    bool reduced = std::find(axes.begin(), axes.end(), a) != axes.end();
    if (!reduced)
      shape.push_back(x->type.shape[a]);
    else if (*keepdims)
      shape.push_back(Dim::constant(1));
  }
  auto n = node(TensorType(x->type.elem, std::move(shape)));
  n->attrs.axes = std::move(axes);
  n->attrs.keepdims = *keepdims;
  // A node may take the address of a freed one: always overwrite.
  if (const syntax::Expr *arg = args.get(2))
    sema.keepdimsArgs[n.get()] = arg->range;
  else
    sema.keepdimsArgs.erase(n.get());
  n->operands.push_back(std::move(x));
  return n;
}

ExprPtr BuiltinChecker::select() {
  ExprPtr cond = value(0);
  ExprPtr a = value(1);
  ExprPtr b = value(2);
  if (isError(cond) || isError(a) || isError(b))
    return fail();
  if (cond->type.elem != ElemType::Bool) {
    sema.error(DiagCode::InvalidElementType, cond->range,
               "the condition of 'select' must be bool, got " +
                   cond->type.str() + "; compare it, e.g. x > 0");
    return fail();
  }
  if (!sema.unifyElem(*a, *b, "'select'", call.range))
    return fail();
  std::optional<Shape> ab =
      sema.broadcastShapes(a->type, b->type, "'select'", call.range);
  if (!ab)
    return fail();
  std::optional<Shape> shape = sema.broadcastShapes(
      cond->type, TensorType(a->type.elem, *ab), "'select'", call.range);
  if (!shape)
    return fail();
  auto n = node(TensorType(a->type.elem, std::move(*shape)));
  n->weak = false;
  n->operands.push_back(std::move(cond));
  n->operands.push_back(std::move(a));
  n->operands.push_back(std::move(b));
  return n;
}

ExprPtr BuiltinChecker::cast() {
  if (!call.hasTypeArg) {
    sema.error(DiagCode::TypeArgument, call.calleeRange,
               "'cast' needs a target element type: cast<f32>(x)");
    return fail();
  }
  if (!call.typeArg.dims.empty()) {
    sema.error(DiagCode::TypeArgument, call.typeArg.range,
               "'cast' takes an element type, not a tensor type; write cast<" +
                   elemTypeName(call.typeArg.elem).str() + ">(x)");
    return fail();
  }
  ExprPtr x = value(0);
  if (isError(x))
    return fail();
  auto n = node(TensorType(call.typeArg.elem, x->type.shape));
  n->attrs.castTo = call.typeArg.elem;
  n->operands.push_back(std::move(x));
  return n;
}

ExprPtr BuiltinChecker::full() {
  int minusOneAt;
  std::optional<Shape> shape = shapeArg(0, false, minusOneAt);
  if (!shape)
    return fail();
  ExprPtr v = value(1);
  if (isError(v))
    return fail();
  if (!v->type.isScalar()) {
    sema.error(DiagCode::RankMismatch, v->range,
               "the value of 'full' must be a scalar, got " + v->type.str());
    return fail();
  }
  auto n = node(TensorType(v->type.elem, *shape));
  n->attrs.shape = std::move(*shape);
  n->operands.push_back(std::move(v));
  return n;
}

ExprPtr BuiltinChecker::iota() {
  bool isMinusOne;
  std::optional<Dim> d =
      sema.evalDimArg(*args.get(0), scope, argName(0), false, isMinusOne);
  if (!d)
    return fail();
  auto n = node(TensorType(ElemType::I32, {*d}));
  n->attrs.shape = {*d};
  return n;
}

ExprPtr BuiltinChecker::run() {
  if (!bind())
    return fail();
  switch (info.id) {
  case Builtin::Relu: case Builtin::Gelu: case Builtin::Sigmoid:
  case Builtin::Tanh: case Builtin::Silu: case Builtin::Exp: case Builtin::Log:
  case Builtin::Sqrt: case Builtin::Rsqrt: case Builtin::Abs:
    return activation();
  case Builtin::Softmax: case Builtin::LogSoftmax:
    return alongOneAxis(/*floatOnly=*/true, /*defaultAxis=*/-1);
  case Builtin::Sum: case Builtin::Mean: case Builtin::Max: case Builtin::Min:
    return reduction();
  case Builtin::Einsum:
    return einsum();
  case Builtin::MatMul:
    return fail(); // Only the operator; never looked up by name.
  case Builtin::Take:
    return take();
  case Builtin::Transpose:
    return transpose();
  case Builtin::Reshape:
    return reshape();
  case Builtin::Broadcast:
    return broadcast();
  case Builtin::Concat:
    return concat();
  case Builtin::Cumsum: case Builtin::Cummax:
    return alongOneAxis(/*floatOnly=*/false, /*defaultAxis=*/0);
  case Builtin::Mse:
    return mse();
  case Builtin::CrossEntropy: case Builtin::Nll:
    return classLoss();
  case Builtin::Select:
    return select();
  case Builtin::Cast:
    return cast();
  case Builtin::Full:
    return full();
  case Builtin::Iota:
    return iota();
  }
  return fail();
}

ExprPtr Sema::checkBuiltinCall(const BuiltinInfo &info,
                               const syntax::CallExpr &e, Scope &scope) {
  return BuiltinChecker(*this, info, e, scope).run();
}
