//===- SemaExpr.cpp - Names, literals, operators and calls ----------------===//

#include "SemaImpl.h"

#include "accy/Frontend/Diagnostic.h"

#include <cmath>

using namespace accy;
using namespace accy::sema;

namespace {
struct DepthGuard {
  explicit DepthGuard(unsigned &d) : d(d) { ++d; }
  ~DepthGuard() { --d; }
  unsigned &d;
};
} // namespace

ExprPtr Sema::checkExpr(const syntax::Expr &e, Scope &scope) {
  DepthGuard guard(exprDepth);
  if (exprDepth > limits.maxExprDepth) {
    if (!depthLimitReported)
      error(DiagCode::InlineLimit, e.range,
            "expression nested too deeply after inlining fn calls (the "
            "limit is " + std::to_string(limits.maxExprDepth) + " levels)");
    depthLimitReported = true;
    return makeError(e.range);
  }
  if (nodeCount - itemNodeStart > limits.maxNodesPerItem) {
    if (!nodeLimitReported)
      error(DiagCode::InlineLimit, e.range,
            "inlining fn calls makes this item larger than " +
                std::to_string(limits.maxNodesPerItem) + " expressions");
    nodeLimitReported = true;
    return makeError(e.range);
  }

  switch (e.getKind()) {
  case syntax::ExprKind::IntLit: {
    int64_t v = llvm::cast<syntax::IntLitExpr>(e).value;
    bool fits = v >= INT32_MIN && v <= INT32_MAX;
    auto lit = make<LiteralExpr>(ScalarValue::ofInt(v),
                                 fits ? ElemType::I32 : ElemType::I64, e.range);
    lit->weak = true;
    return lit;
  }
  case syntax::ExprKind::FloatLit: {
    auto lit = make<LiteralExpr>(
        ScalarValue::ofFloat(llvm::cast<syntax::FloatLitExpr>(e).value),
        ElemType::F32, e.range);
    lit->weak = true;
    return lit;
  }
  case syntax::ExprKind::BoolLit: {
    auto lit = make<LiteralExpr>(
        ScalarValue::ofBool(llvm::cast<syntax::BoolLitExpr>(e).value),
        ElemType::Bool, e.range);
    lit->weak = true;
    return lit;
  }
  case syntax::ExprKind::StringLit:
    error(DiagCode::NotAValue, e.range,
          "a string is not a value; strings are only einsum specifications");
    return makeError(e.range);
  case syntax::ExprKind::Name:
    return checkName(llvm::cast<syntax::NameExpr>(e), scope);
  case syntax::ExprKind::Unary: {
    const auto &u = llvm::cast<syntax::UnaryExpr>(e);
    ExprPtr operand = checkExpr(*u.operand, scope);
    if (llvm::isa<ErrorExpr>(*operand))
      return makeError(e.range);
    if (operand->type.elem == ElemType::Bool) {
      error(DiagCode::InvalidElementType, e.range,
            "unary '-' is not defined for bool operands (" +
                operand->type.str() + ")");
      return makeError(e.range);
    }
    return make<NegExpr>(std::move(operand), e.range);
  }
  case syntax::ExprKind::Binary:
    return checkBinary(llvm::cast<syntax::BinaryExpr>(e), scope);
  case syntax::ExprKind::Call:
    return checkCall(llvm::cast<syntax::CallExpr>(e), scope);
  case syntax::ExprKind::Index:
    return checkIndex(llvm::cast<syntax::IndexExpr>(e), scope);
  case syntax::ExprKind::List:
    error(DiagCode::NotAValue, e.range,
          "a list is not a value; lists are only arguments of built-ins "
          "(axes, shapes, perm, concat operands)");
    return makeError(e.range);
  case syntax::ExprKind::Tuple:
    error(DiagCode::TupleNotAllowed, e.range,
          "a tuple can only be returned, as in 'return (a, b);'");
    return makeError(e.range);
  case syntax::ExprKind::Error:
    return makeError(e.range);
  }
  return makeError(e.range);
}

ExprPtr Sema::checkName(const syntax::NameExpr &e, Scope &scope) {
  if (auto it = scope.lets.find(e.name); it != scope.lets.end()) {
    if (llvm::isa<ErrorExpr>(*it->second->value))
      return makeError(e.range);
    return make<LetRefExpr>(it->second, e.range);
  }
  for (const ParamBinding *p : scope.params)
    if (p->name == e.name)
      return make<ParamRefExpr>(p, e.range);
  if (auto it = scope.module->names.find(e.name);
      it != scope.module->names.end()) {
    NamedItem &item = *it->second;
    switch (item.kind) {
    case NamedItem::Kind::Const: {
      ConstDecl *c = ensureConst(item);
      if (!c)
        return makeError(e.range);
      auto ref = make<ConstRefExpr>(c, c->defaultType, e.range);
      ref->weak = true;
      return ref;
    }
    case NamedItem::Kind::Fn:
      error(DiagCode::NotAValue, e.range,
            quote(e.name) + " is a fn, not a value; call it: " + e.name +
                "(...)")
          .note(item.nameRange, "the fn is defined here");
      return makeError(e.range);
    case NamedItem::Kind::Kernel:
      error(DiagCode::NotAValue, e.range,
            quote(e.name) + " is a kernel and cannot be used as a value")
          .note(item.nameRange, "the kernel is defined here");
      return makeError(e.range);
    }
  }
  if (auto it = scope.dims.find(e.name); it != scope.dims.end()) {
    auto b = error(DiagCode::NotAValue, e.range,
                   quote(e.name) + " is a dimension, not a value; dimensions "
                   "can be used in shapes, slice bounds and iota");
    if (auto r = scope.dimRanges.find(e.name); r != scope.dimRanges.end())
      b.note(r->second, "the dimension is bound here");
    return makeError(e.range);
  }
  if (lookupBuiltin(e.name)) {
    error(DiagCode::NotAValue, e.range,
          quote(e.name) + " is a built-in function, not a value; call it: " +
              e.name + "(...)");
    return makeError(e.range);
  }
  std::vector<std::string> candidates;
  for (const auto &entry : scope.lets)
    candidates.push_back(entry.first);
  for (const ParamBinding *p : scope.params)
    candidates.push_back(p->name);
  for (const auto &entry : scope.module->names)
    if (entry.second->kind == NamedItem::Kind::Const)
      candidates.push_back(entry.first);
  reportUnknown(DiagCode::UnknownName, e.range, e.name,
                "unknown name " + quote(e.name), candidates);
  return makeError(e.range);
}

//===----------------------------------------------------------------------===//
// Element types and broadcasting
//===----------------------------------------------------------------------===//

/// Largest finite value of a float type.
static double maxFinite(ElemType t) {
  switch (t) {
  case ElemType::F16: return 65504.0;
  case ElemType::BF16: return 3.3895313892515355e38;
  case ElemType::F32: return 3.4028234663852886e38;
  default: return INFINITY;
  }
}

/// Why `v` cannot take type `t`, or "" when it can.
static std::string representability(const ScalarValue &v, ElemType t) {
  std::string type = elemTypeName(t).str();
  switch (v.kind) {
  case ScalarValue::Kind::Bool:
    if (t != ElemType::Bool)
      return "a bool cannot take the element type " + type;
    return "";
  case ScalarValue::Kind::Int:
    if (t == ElemType::Bool)
      return "an integer cannot take the element type bool";
    if (t == ElemType::I32 && (v.intValue < INT32_MIN || v.intValue > INT32_MAX))
      return "it is out of range for i32";
    if (isFloat(t) && std::fabs(static_cast<double>(v.intValue)) > maxFinite(t))
      return "it is out of range for " + type;
    return "";
  case ScalarValue::Kind::Float:
    if (!isFloat(t))
      return "a float cannot take the integer or bool element type " + type +
             "; use cast<T>(...) or an integer literal";
    if (std::fabs(v.floatValue) > maxFinite(t))
      return "it is out of range for " + type;
    return "";
  }
  return "";
}

bool Sema::coerceWeak(Expr &e, ElemType elem) {
  if (!e.weak)
    return e.type.elem == elem;
  bool ok = true;
  if (auto *lit = llvm::dyn_cast<LiteralExpr>(&e)) {
    std::string why = representability(lit->value, elem);
    if (!why.empty()) {
      error(DiagCode::LiteralNotRepresentable, e.range,
            "literal " + lit->value.str() + " cannot be used as " +
                elemTypeName(elem).str() + ": " + why);
      ok = false;
    }
  } else if (auto *ref = llvm::dyn_cast<ConstRefExpr>(&e)) {
    std::string why = representability(ref->decl->value, elem);
    if (!why.empty()) {
      error(DiagCode::LiteralNotRepresentable, e.range,
            "const " + quote(ref->decl->name) + " = " +
                ref->decl->value.str() + " cannot be used as " +
                elemTypeName(elem).str() + ": " + why)
          .note(ref->decl->nameRange, "the const is defined here");
      ok = false;
    }
  } else if (auto *neg = llvm::dyn_cast<NegExpr>(&e)) {
    ok = coerceWeak(*neg->operand, elem);
  } else if (auto *bin = llvm::dyn_cast<BinaryExpr>(&e)) {
    ok = coerceWeak(*bin->lhs, elem);
    ok = coerceWeak(*bin->rhs, elem) && ok;
  }
  e.type.elem = elem;
  return ok;
}

bool Sema::unifyElem(Expr &a, Expr &b, llvm::StringRef what,
                     SourceRange range) {
  ElemType ea = a.type.elem, eb = b.type.elem;
  if (ea == eb)
    return true;
  if (a.weak && !b.weak)
    return coerceWeak(a, eb);
  if (b.weak && !a.weak)
    return coerceWeak(b, ea);
  if (a.weak && b.weak && ea != ElemType::Bool && eb != ElemType::Bool) {
    ElemType target = isFloat(ea) || isFloat(eb) ? ElemType::F32
                                                 : ElemType::I64;
    bool ok = coerceWeak(a, target);
    return coerceWeak(b, target) && ok;
  }
  auto diag = error(DiagCode::ElementTypeMismatch, range,
                    "mismatched element types in " + what.str() + ": " +
                        a.type.str() + " and " + b.type.str() +
                        "; convert one with cast<" + elemTypeName(ea).str() +
                        ">(...)");
  if (std::optional<FixIt> fix = castFix(a, b))
    diag.fixIt(std::move(fix->title), std::move(fix->edits));
  return false;
}

std::optional<Dim> accy::sema::broadcastDim(const Dim &a, const Dim &b) {
  Dim one = Dim::constant(1);
  if (a == b || b == one)
    return a;
  if (a == one)
    return b;
  return std::nullopt;
}

/// Broadcasts `a` and `b` into `out`; on failure, the failing axis counted
/// from the right.
static std::optional<size_t> broadcastInto(const Shape &a, const Shape &b,
                                           Shape &out) {
  size_t ra = a.size(), rb = b.size(), r = std::max(ra, rb);
  out.assign(r, Dim());
  for (size_t i = 0; i < r; ++i) {
    const Dim *da = i < ra ? &a[ra - 1 - i] : nullptr;
    const Dim *db = i < rb ? &b[rb - 1 - i] : nullptr;
    std::optional<Dim> d = !da || !db ? (da ? *da : *db)
                                      : broadcastDim(*da, *db);
    if (!d)
      return i;
    out[r - 1 - i] = *d;
  }
  return std::nullopt;
}

std::optional<Shape> accy::sema::tryBroadcast(const Shape &a, const Shape &b) {
  Shape out;
  if (broadcastInto(a, b, out))
    return std::nullopt;
  return out;
}

std::optional<Shape>
Sema::broadcastShapes(const TensorType &a, const TensorType &b,
                      llvm::StringRef what, SourceRange range,
                      llvm::function_ref<std::optional<FixIt>()> fixIt) {
  Shape out;
  if (std::optional<size_t> failed = broadcastInto(a.shape, b.shape, out)) {
    size_t ra = a.rank(), rb = b.rank(), i = *failed;
    const Dim *da = &a.shape[ra - 1 - i], *db = &b.shape[rb - 1 - i];
    std::string message =
        "cannot broadcast " + a.str() + " and " + b.str() + " in " +
        what.str() + ": size " + da->str() + " (axis " +
        std::to_string(ra - 1 - i) + " of the first operand) does not "
        "match " + db->str() + " (axis " + std::to_string(rb - 1 - i) +
        " of the second)";
    if (!da->isStatic() || !db->isStatic())
      message += "; a symbolic size broadcasts only against itself or 1";
    auto diag = error(DiagCode::BroadcastMismatch, range, message);
    if (std::optional<FixIt> fix = fixIt ? fixIt() : std::nullopt)
      diag.fixIt(std::move(fix->title), std::move(fix->edits));
    return std::nullopt;
  }
  return out;
}

bool Sema::requireNumeric(const Expr &e, llvm::StringRef what,
                          bool floatOnly) {
  ElemType t = e.type.elem;
  if (t == ElemType::Bool || (floatOnly && !isFloat(t))) {
    error(DiagCode::InvalidElementType, e.range,
          what.str() + " requires " +
              (floatOnly ? "a floating-point operand" : "a numeric operand") +
              ", got " + e.type.str() +
              (t == ElemType::Bool ? "" : "; use cast<f32>(...)"));
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------===//

static BinaryOpKind opKind(syntax::BinaryOp op) {
  switch (op) {
  case syntax::BinaryOp::Add: return BinaryOpKind::Add;
  case syntax::BinaryOp::Sub: return BinaryOpKind::Sub;
  case syntax::BinaryOp::Mul: return BinaryOpKind::Mul;
  case syntax::BinaryOp::Div: return BinaryOpKind::Div;
  case syntax::BinaryOp::Less: return BinaryOpKind::Less;
  case syntax::BinaryOp::LessEqual: return BinaryOpKind::LessEqual;
  case syntax::BinaryOp::Greater: return BinaryOpKind::Greater;
  case syntax::BinaryOp::GreaterEqual: return BinaryOpKind::GreaterEqual;
  case syntax::BinaryOp::Equal: return BinaryOpKind::Equal;
  case syntax::BinaryOp::NotEqual: return BinaryOpKind::NotEqual;
  case syntax::BinaryOp::MatMul: break;
  }
  return BinaryOpKind::Add;
}

ExprPtr Sema::checkBinary(const syntax::BinaryExpr &e, Scope &scope) {
  ExprPtr lhs = checkExpr(*e.lhs, scope);
  ExprPtr rhs = checkExpr(*e.rhs, scope);
  if (llvm::isa<ErrorExpr>(*lhs) || llvm::isa<ErrorExpr>(*rhs))
    return makeError(e.range);
  if (e.op == syntax::BinaryOp::MatMul)
    return checkMatMul(std::move(lhs), std::move(rhs), e.range, e.opRange);

  BinaryOpKind op = opKind(e.op);
  std::string what = "'" + syntax::binaryOpSpelling(e.op).str() + "'";
  if (!unifyElem(*lhs, *rhs, what, e.range))
    return makeError(e.range);
  ElemType elem = lhs->type.elem;
  bool comparison = isComparison(op);
  bool equality = op == BinaryOpKind::Equal || op == BinaryOpKind::NotEqual;
  if (elem == ElemType::Bool && !equality) {
    error(DiagCode::InvalidElementType, e.opRange,
          "operator " + what + " is not defined for bool operands (" +
              lhs->type.str() + " and " + rhs->type.str() + ")");
    return makeError(e.range);
  }
  if (op == BinaryOpKind::Div && isInteger(elem)) {
    error(DiagCode::InvalidElementType, e.opRange,
          "operator '/' is not defined for integer operands (" +
              lhs->type.str() + " and " + rhs->type.str() +
              "); convert them with cast<f32>(...)");
    return makeError(e.range);
  }
  const Expr &l = *lhs, &r = *rhs;
  std::optional<Shape> shape =
      broadcastShapes(lhs->type, rhs->type, what, e.range, [&] {
        std::optional<FixIt> fix = keepdimsFix(l, r.type.shape);
        return fix ? fix : keepdimsFix(r, l.type.shape);
      });
  if (!shape)
    return makeError(e.range);
  bool weak = lhs->weak && rhs->weak && !comparison;
  auto node = make<BinaryExpr>(
      op, std::move(lhs), std::move(rhs),
      TensorType(comparison ? ElemType::Bool : elem, std::move(*shape)),
      e.range, e.opRange);
  node->weak = weak;
  return node;
}

ExprPtr Sema::checkMatMul(ExprPtr lhs, ExprPtr rhs, SourceRange range,
                          SourceRange opRange) {
  for (const Expr *operand : {lhs.get(), rhs.get()})
    if (operand->type.rank() < 2) {
      error(DiagCode::RankMismatch, operand->range,
            "the operands of '@' must have rank 2 or more; the " +
                std::string(operand == lhs.get() ? "left" : "right") +
                " operand is " + operand->type.str());
      return makeError(range);
    }
  if (!unifyElem(*lhs, *rhs, "'@'", range) ||
      !requireNumeric(*lhs, "'@'", /*floatOnly=*/false))
    return makeError(range);
  const Shape &a = lhs->type.shape, &b = rhs->type.shape;
  size_t ra = a.size(), rb = b.size();
  if (a[ra - 1] != b[rb - 2]) {
    auto diag = error(DiagCode::MatmulMismatch, opRange,
                      "'@': the left operand " + lhs->type.str() + " has " +
                          a[ra - 1].str() + " columns but the right operand " +
                          rhs->type.str() + " has " + b[rb - 2].str() +
                          " rows");
    if (std::optional<FixIt> fix = matmulTransposeFix(*lhs, *rhs))
      diag.fixIt(std::move(fix->title), std::move(fix->edits));
    return makeError(range);
  }
  TensorType batchA(lhs->type.elem, Shape(a.begin(), a.end() - 2));
  TensorType batchB(rhs->type.elem, Shape(b.begin(), b.end() - 2));
  std::optional<Shape> batch =
      broadcastShapes(batchA, batchB, "the batch axes of '@'", range);
  if (!batch)
    return makeError(range);

  EinsumSpec spec;
  spec.text = "...ij,...jk->...ik";
  spec.inputs.push_back({"ij", 0, static_cast<unsigned>(ra - 2), ""});
  spec.inputs.push_back({"jk", 0, static_cast<unsigned>(rb - 2), ""});
  spec.output = {"ik", 0, static_cast<unsigned>(batch->size()), ""};
  const Expr *operands[] = {lhs.get(), rhs.get()};
  std::optional<Shape> shape = finishEinsum(spec, operands, range, "'@'");
  if (!shape)
    return makeError(range);
  auto node = make<BuiltinCallExpr>(
      Builtin::MatMul, TensorType(lhs->type.elem, std::move(*shape)), range,
      opRange);
  node->attrs.einsum = std::move(spec);
  node->operands.push_back(std::move(lhs));
  node->operands.push_back(std::move(rhs));
  return node;
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

ExprPtr Sema::checkCall(const syntax::CallExpr &e, Scope &scope) {
  if (const BuiltinInfo *info = lookupBuiltin(e.callee)) {
    if (e.hasTypeArg && info->id != Builtin::Cast) {
      error(DiagCode::TypeArgument, e.typeArg.range,
            quote(e.callee) + " takes no type argument; only cast<T>(x) does");
      return makeError(e.range);
    }
    return checkBuiltinCall(*info, e, scope);
  }
  auto it = scope.module->names.find(e.callee);
  if (it != scope.module->names.end()) {
    NamedItem &item = *it->second;
    if (item.kind == NamedItem::Kind::Fn) {
      if (e.hasTypeArg) {
        error(DiagCode::TypeArgument, e.typeArg.range,
              "fn " + quote(e.callee) + " takes no type argument");
        return makeError(e.range);
      }
      return instantiateFn(*item.fn, e, scope);
    }
    error(DiagCode::NotCallable, e.calleeRange,
          quote(e.callee) + " is a " +
              (item.kind == NamedItem::Kind::Kernel
                   ? "kernel; kernels cannot be called, only fn helpers and "
                     "built-in functions"
                   : "const, not a function"))
        .note(item.nameRange, "it is defined here");
    return makeError(e.range);
  }
  bool isValue = scope.lets.count(e.callee) != 0 || scope.dims.count(e.callee);
  for (const ParamBinding *p : scope.params)
    isValue |= p->name == e.callee;
  if (isValue) {
    error(DiagCode::NotCallable, e.calleeRange,
          quote(e.callee) + " is not a function");
    return makeError(e.range);
  }
  std::vector<std::string> candidates = builtinNames();
  for (const auto &entry : scope.module->names)
    if (entry.second->kind == NamedItem::Kind::Fn)
      candidates.push_back(entry.first);
  reportUnknown(DiagCode::UnknownFunction, e.calleeRange, e.callee,
                "unknown function " + quote(e.callee), candidates);
  return makeError(e.range);
}
