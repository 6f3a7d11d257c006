//===- SemaBuiltinShapes.cpp - Contractions, indexing, shapes, losses -----===//
//
// The built-ins whose result shape is computed from their operands' shapes:
// einsum, take, transpose, reshape, broadcast, concat, and the losses.
//
//===----------------------------------------------------------------------===//

#include "BuiltinChecker.h"

#include <algorithm>

using namespace accy;
using namespace accy::sema;

ExprPtr BuiltinChecker::einsum() {
  const syntax::Expr *specExpr = args.get(0);
  const auto *spec = llvm::dyn_cast<syntax::StringLitExpr>(specExpr);
  if (!spec) {
    if (!llvm::isa<syntax::ErrorExpr>(specExpr))
      sema.error(DiagCode::ArgumentKind, specExpr->range,
                 "the first argument of 'einsum' must be a string literal "
                 "spec, like \"bi,ij->bj\"");
    return fail();
  }
  if (args.extra.empty()) {
    sema.error(DiagCode::ArgumentCount, call.range,
               callName() + " needs at least one operand; usage: " +
                   info.signature);
    return fail();
  }
  std::vector<ExprPtr> operands;
  bool failed = false;
  for (const syntax::Expr *e : args.extra) {
    operands.push_back(sema.checkExpr(*e, scope));
    failed |= isError(operands.back());
  }
  if (failed)
    return fail();
  // All operands share one element type; weak scalars adopt it.
  Expr *strong = nullptr;
  for (auto &op : operands)
    if (!op->weak && !strong)
      strong = op.get();
  for (auto &op : operands) {
    Expr &ref = strong ? *strong : *operands.front();
    if (op.get() != &ref && !sema.unifyElem(ref, *op, "'einsum'", op->range))
      return fail();
  }
  if (!sema.requireNumeric(*operands.front(), "'einsum'", false))
    return fail();
  std::vector<const Expr *> views;
  for (auto &op : operands)
    views.push_back(op.get());
  EinsumSpec checked;
  std::optional<Shape> shape =
      sema.checkEinsum(spec->value, spec->range, views, checked);
  if (!shape)
    return fail();
  auto n = node(TensorType(operands.front()->type.elem, std::move(*shape)));
  n->attrs.einsum = std::move(checked);
  n->operands = std::move(operands);
  return n;
}

ExprPtr BuiltinChecker::take() {
  ExprPtr x = value(0);
  ExprPtr idx = value(1);
  if (isError(x) || isError(idx))
    return fail();
  if (idx->weak && isInteger(idx->type.elem))
    sema.coerceWeak(*idx, ElemType::I32);
  if (idx->type.elem != ElemType::I32) {
    sema.error(DiagCode::InvalidIndex, idx->range,
               "the indices of 'take' must be an i32 tensor, got " +
                   idx->type.str());
    return fail();
  }
  std::optional<int64_t> axis = axisArg(2, 0, x->type);
  if (!axis)
    return fail();
  Shape shape(x->type.shape.begin(), x->type.shape.begin() + *axis);
  shape.insert(shape.end(), idx->type.shape.begin(), idx->type.shape.end());
  shape.insert(shape.end(), x->type.shape.begin() + *axis + 1,
               x->type.shape.end());
  auto n = node(TensorType(x->type.elem, std::move(shape)));
  n->attrs.axes = {*axis};
  n->operands.push_back(std::move(x));
  n->operands.push_back(std::move(idx));
  return n;
}

ExprPtr BuiltinChecker::transpose() {
  ExprPtr x = value(0);
  if (isError(x))
    return fail();
  unsigned rank = x->type.rank();
  std::vector<int64_t> perm;
  if (!args.get(1)) {
    for (unsigned a = rank; a > 0; --a)
      perm.push_back(a - 1);
  } else {
    CValue v = sema.evalConst(*args.get(1), scope);
    if (v.kind == CValue::Kind::Error)
      return fail();
    if (v.kind == CValue::Kind::NotConst) {
      sema.error(DiagCode::NonConstantArgument, v.range,
                 argName(1) + " must be a compile-time constant");
      return fail();
    }
    if (v.kind != CValue::Kind::List) {
      sema.error(DiagCode::ArgumentKind, v.range,
                 argName(1) + " must be a list of axes, like [1, 0]; got " +
                     v.describe());
      return fail();
    }
    if (v.list.size() != rank) {
      sema.error(DiagCode::InvalidPermutation, v.range,
                 "perm has " + std::to_string(v.list.size()) +
                     " entries but the operand " + x->type.str() + " has " +
                     std::to_string(rank) + " axes");
      return fail();
    }
    for (const CValue &item : v.list) {
      std::optional<int64_t> a = listedAxis(1, item, x->type);
      if (!a)
        return fail();
      if (std::find(perm.begin(), perm.end(), *a) != perm.end()) {
        sema.error(DiagCode::InvalidPermutation, item.range,
                   "perm is not a permutation: axis " + std::to_string(*a) +
                       " appears twice");
        return fail();
      }
      perm.push_back(*a);
    }
  }
  Shape shape;
  for (int64_t a : perm)
    shape.push_back(x->type.shape[a]);
  auto n = node(TensorType(x->type.elem, std::move(shape)));
  n->attrs.perm = std::move(perm);
  n->operands.push_back(std::move(x));
  return n;
}

/// The number of elements of a shape as a Dim (nullopt on overflow).
static std::optional<Dim> elementCount(llvm::ArrayRef<Dim> shape) {
  Dim total = Dim::constant(1);
  for (const Dim &d : shape) {
    std::optional<Dim> next = Dim::mul(total, d);
    if (!next)
      return std::nullopt;
    total = std::move(*next);
  }
  return total;
}

ExprPtr BuiltinChecker::reshape() {
  ExprPtr x = value(0);
  if (isError(x))
    return fail();
  int minusOneAt;
  std::optional<Shape> shape = shapeArg(1, /*allowMinusOne=*/true, minusOneAt);
  if (!shape)
    return fail();
  std::optional<Dim> total = elementCount(x->type.shape);
  Shape known = *shape;
  if (minusOneAt >= 0)
    known.erase(known.begin() + minusOneAt);
  std::optional<Dim> knownCount = elementCount(known);
  if (!total || !knownCount) {
    sema.error(DiagCode::SizeOverflow, call.range,
               "the element count of the reshape overflows 64-bit integers");
    return fail();
  }
  if (minusOneAt >= 0) {
    std::optional<Dim> inferred = Dim::divExact(*total, *knownCount);
    if (!inferred || (inferred->isStatic() && inferred->getStatic() <= 0)) {
      sema.error(DiagCode::ReshapeMismatch, args.get(1)->range,
                 "cannot infer the -1 in the reshape of " + x->type.str() +
                     " (" + total->str() + " elements) to " +
                     shapeStr(*shape) + ": " + total->str() +
                     " is not a multiple of " + knownCount->str());
      return fail();
    }
    (*shape)[minusOneAt] = *inferred;
  } else if (*total != *knownCount) {
    sema.error(DiagCode::ReshapeMismatch, args.get(1)->range,
               "reshape of " + x->type.str() + " (" + total->str() +
                   " elements) to " + shapeStr(*shape) + " (" +
                   knownCount->str() + " elements) changes the element count");
    return fail();
  }
  auto n = node(TensorType(x->type.elem, *shape));
  n->attrs.shape = std::move(*shape);
  n->operands.push_back(std::move(x));
  return n;
}

ExprPtr BuiltinChecker::broadcast() {
  ExprPtr x = value(0);
  if (isError(x))
    return fail();
  int minusOneAt;
  std::optional<Shape> shape = shapeArg(1, false, minusOneAt);
  if (!shape)
    return fail();
  const Shape &from = x->type.shape;
  if (from.size() > shape->size()) {
    sema.error(DiagCode::BroadcastToMismatch, args.get(1)->range,
               "cannot broadcast " + x->type.str() + " to " +
                   shapeStr(*shape) + ": the target has fewer axes");
    return fail();
  }
  Dim one = Dim::constant(1);
  size_t offset = shape->size() - from.size();
  for (size_t a = 0; a < from.size(); ++a) {
    const Dim &target = (*shape)[offset + a];
    if (from[a] != target && from[a] != one) {
      sema.error(DiagCode::BroadcastToMismatch, args.get(1)->range,
                 "cannot broadcast " + x->type.str() + " to " +
                     shapeStr(*shape) + ": axis " + std::to_string(a) +
                     " has size " + from[a].str() + ", which is neither " +
                     target.str() + " nor 1");
      return fail();
    }
  }
  auto n = node(TensorType(x->type.elem, *shape));
  n->attrs.shape = std::move(*shape);
  n->operands.push_back(std::move(x));
  return n;
}

ExprPtr BuiltinChecker::concat() {
  const syntax::Expr *listExpr = args.get(0);
  const auto *list = llvm::dyn_cast<syntax::ListExpr>(listExpr);
  if (!list || list->elements.empty()) {
    if (!llvm::isa<syntax::ErrorExpr>(listExpr))
      sema.error(DiagCode::ArgumentKind, listExpr->range,
                 "'concat' expects a non-empty list of tensors, like "
                 "concat([a, b], axis=0)");
    return fail();
  }
  std::vector<ExprPtr> operands;
  bool failed = false;
  for (const auto &e : list->elements) {
    operands.push_back(sema.checkExpr(*e, scope));
    failed |= isError(operands.back());
  }
  if (failed)
    return fail();
  const Expr &first = *operands.front();
  for (auto &op : operands)
    if (op->type.isScalar()) {
      sema.error(DiagCode::RankMismatch, op->range,
                 "'concat' operands must have rank 1 or more, got " +
                     op->type.str());
      return fail();
    }
  std::optional<int64_t> axis = axisArg(1, 0, first.type);
  if (!axis)
    return fail();
  Dim total;
  for (size_t i = 0; i < operands.size(); ++i) {
    Expr &op = *operands[i];
    if (i > 0 && !sema.unifyElem(*operands[0], op, "'concat'", op.range))
      return fail();
    bool match = op.type.rank() == first.type.rank();
    for (size_t a = 0; match && a < first.type.rank(); ++a)
      match = a == static_cast<size_t>(*axis) ||
              op.type.shape[a] == first.type.shape[a];
    if (!match) {
      sema.error(DiagCode::ConcatMismatch, op.range,
                 "'concat' operand " + std::to_string(i) + " is " +
                     op.type.str() + " but operand 0 is " + first.type.str() +
                     "; all axes except axis " + std::to_string(*axis) +
                     " must match");
      return fail();
    }
    std::optional<Dim> sum = Dim::add(total, op.type.shape[*axis]);
    if (!sum) {
      sema.error(DiagCode::SizeOverflow, call.range,
                 "the concatenated size overflows 64-bit integers");
      return fail();
    }
    total = std::move(*sum);
  }
  Shape shape = first.type.shape;
  shape[*axis] = total;
  auto n = node(TensorType(first.type.elem, std::move(shape)));
  n->attrs.axes = {*axis};
  n->operands = std::move(operands);
  return n;
}

ExprPtr BuiltinChecker::mse() {
  ExprPtr pred = value(0);
  ExprPtr target = value(1);
  if (isError(pred) || isError(target))
    return fail();
  if (!sema.unifyElem(*pred, *target, "'mse'", call.range) ||
      !sema.requireNumeric(*pred, callName(), true))
    return fail();
  if (pred->type.shape != target->type.shape) {
    sema.error(DiagCode::LossShapeMismatch, call.range,
               "'mse': pred is " + pred->type.str() + " but target is " +
                   target->type.str() + "; their shapes must be equal");
    return fail();
  }
  auto n = node(TensorType(pred->type.elem));
  n->operands.push_back(std::move(pred));
  n->operands.push_back(std::move(target));
  return n;
}

ExprPtr BuiltinChecker::classLoss() {
  ExprPtr logits = value(0);
  ExprPtr labels = value(1);
  if (isError(logits) || isError(labels))
    return fail();
  if (!sema.requireNumeric(*logits, callName(), true))
    return fail();
  if (logits->type.rank() < 1) {
    sema.error(DiagCode::RankMismatch, logits->range,
               callName() + " needs " + info.params[0].name +
                   " with a class axis (rank 1 or more), got " +
                   logits->type.str());
    return fail();
  }
  if (labels->weak && isInteger(labels->type.elem))
    sema.coerceWeak(*labels, ElemType::I32);
  if (labels->type.elem != ElemType::I32) {
    sema.error(DiagCode::InvalidElementType, labels->range,
               callName() + ": labels must be i32 class ids, got " +
                   labels->type.str());
    return fail();
  }
  Shape expected(logits->type.shape.begin(), logits->type.shape.end() - 1);
  if (labels->type.shape != expected) {
    sema.error(DiagCode::LossShapeMismatch, labels->range,
               callName() + ": labels " + labels->type.str() +
                   " do not match " + info.params[0].name + " " +
                   logits->type.str() + "; expected labels of shape " +
                   shapeStr(expected));
    return fail();
  }
  auto n = node(TensorType(logits->type.elem));
  n->operands.push_back(std::move(logits));
  n->operands.push_back(std::move(labels));
  return n;
}

