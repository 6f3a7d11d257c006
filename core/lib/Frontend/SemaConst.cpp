//===- SemaConst.cpp - Compile-time constants, dimensions and axes --------===//

#include "SemaImpl.h"

using namespace accy;
using namespace accy::sema;

std::string CValue::describe() const {
  switch (kind) {
  case Kind::Int: return "the integer " + std::to_string(intValue);
  case Kind::Float: return "the float " + ScalarValue::ofFloat(floatValue).str();
  case Kind::Bool: return std::string("the bool ") + (boolValue ? "true" : "false");
  case Kind::String: return "a string";
  case Kind::List: return "a list";
  case Kind::Dim: return "the dimension " + dim.str();
  case Kind::NotConst: return "a run-time value";
  case Kind::Error: return "an invalid value";
  }
  return "a value";
}

static CValue intValue(int64_t v, SourceRange r) {
  CValue c;
  c.kind = CValue::Kind::Int;
  c.intValue = v;
  c.range = r;
  return c;
}

static CValue dimValue(const Dim &d, SourceRange r) {
  if (auto s = d.getStatic())
    return intValue(*s, r);
  CValue c;
  c.kind = CValue::Kind::Dim;
  c.dim = d;
  c.range = r;
  return c;
}

static CValue kindValue(CValue::Kind kind, SourceRange r) {
  CValue c;
  c.kind = kind;
  c.range = r;
  return c;
}

CValue Sema::evalConst(const syntax::Expr &e, Scope &scope,
                       bool dimContext) {
  switch (e.getKind()) {
  case syntax::ExprKind::IntLit:
    return intValue(llvm::cast<syntax::IntLitExpr>(e).value, e.range);
  case syntax::ExprKind::FloatLit: {
    CValue c = kindValue(CValue::Kind::Float, e.range);
    c.floatValue = llvm::cast<syntax::FloatLitExpr>(e).value;
    return c;
  }
  case syntax::ExprKind::BoolLit: {
    CValue c = kindValue(CValue::Kind::Bool, e.range);
    c.boolValue = llvm::cast<syntax::BoolLitExpr>(e).value;
    return c;
  }
  case syntax::ExprKind::StringLit: {
    CValue c = kindValue(CValue::Kind::String, e.range);
    c.stringValue = llvm::cast<syntax::StringLitExpr>(e).value;
    return c;
  }
  case syntax::ExprKind::Name: {
    const std::string &name = llvm::cast<syntax::NameExpr>(e).name;
    if (scope.lets.count(name))
      return kindValue(CValue::Kind::NotConst, e.range);
    for (const ParamBinding *p : scope.params)
      if (p->name == name)
        return kindValue(CValue::Kind::NotConst, e.range);
    if (auto it = scope.module->names.find(name);
        it != scope.module->names.end()) {
      if (it->second->kind != NamedItem::Kind::Const)
        return kindValue(CValue::Kind::NotConst, e.range);
      ConstDecl *c = ensureConst(*it->second);
      if (!c)
        return kindValue(CValue::Kind::Error, e.range);
      switch (c->value.kind) {
      case ScalarValue::Kind::Int:
        return intValue(c->value.intValue, e.range);
      case ScalarValue::Kind::Float: {
        CValue v = kindValue(CValue::Kind::Float, e.range);
        v.floatValue = c->value.floatValue;
        return v;
      }
      case ScalarValue::Kind::Bool: {
        CValue v = kindValue(CValue::Kind::Bool, e.range);
        v.boolValue = c->value.boolValue;
        return v;
      }
      }
    }
    if (auto it = scope.dims.find(name); it != scope.dims.end())
      return dimValue(it->second, e.range);
    if (lookupBuiltin(name))
      return kindValue(CValue::Kind::NotConst, e.range);
    if (dimContext) {
      std::vector<std::string> dims;
      for (const auto &entry : scope.dims)
        dims.push_back(entry.first);
      std::string listed;
      if (!dims.empty()) {
        listed = "; the dimensions here are";
        for (size_t i = 0; i < dims.size(); ++i)
          listed += (i ? ", " : " ") + dims[i];
      }
      reportUnknown(DiagCode::UnknownDimension, e.range, name,
                    "unknown dimension " + quote(name), dims, listed);
      return kindValue(CValue::Kind::Error, e.range);
    }
    // Let checkName report the unknown name with its suggestions.
    checkName(llvm::cast<syntax::NameExpr>(e), scope);
    return kindValue(CValue::Kind::Error, e.range);
  }
  case syntax::ExprKind::Unary: {
    CValue v =
        evalConst(*llvm::cast<syntax::UnaryExpr>(e).operand, scope, dimContext);
    v.range = e.range;
    switch (v.kind) {
    case CValue::Kind::Int:
      if (v.intValue == INT64_MIN)
        return kindValue(CValue::Kind::NotConst, e.range);
      v.intValue = -v.intValue;
      return v;
    case CValue::Kind::Float:
      v.floatValue = -v.floatValue;
      return v;
    case CValue::Kind::Dim: {
      std::optional<Dim> d = Dim::sub(Dim(), v.dim);
      if (!d)
        return kindValue(CValue::Kind::NotConst, e.range);
      return dimValue(*d, e.range);
    }
    case CValue::Kind::Error:
      return v;
    default:
      return kindValue(CValue::Kind::NotConst, e.range);
    }
  }
  case syntax::ExprKind::Binary: {
    const auto &b = llvm::cast<syntax::BinaryExpr>(e);
    if (b.op != syntax::BinaryOp::Add && b.op != syntax::BinaryOp::Sub &&
        b.op != syntax::BinaryOp::Mul)
      return kindValue(CValue::Kind::NotConst, e.range);
    CValue l = evalConst(*b.lhs, scope, dimContext);
    CValue r = evalConst(*b.rhs, scope, dimContext);
    if (l.kind == CValue::Kind::Error || r.kind == CValue::Kind::Error)
      return kindValue(CValue::Kind::Error, e.range);
    if (!l.isIntLike() || !r.isIntLike())
      return kindValue(CValue::Kind::NotConst, e.range);
    std::optional<Dim> d =
        b.op == syntax::BinaryOp::Add   ? Dim::add(l.asDim(), r.asDim())
        : b.op == syntax::BinaryOp::Sub ? Dim::sub(l.asDim(), r.asDim())
                                        : Dim::mul(l.asDim(), r.asDim());
    if (!d) {
      error(DiagCode::SizeOverflow, e.range,
            "size arithmetic overflows 64-bit integers");
      return kindValue(CValue::Kind::Error, e.range);
    }
    return dimValue(*d, e.range);
  }
  case syntax::ExprKind::List: {
    CValue c = kindValue(CValue::Kind::List, e.range);
    bool notConst = false;
    for (const auto &elem : llvm::cast<syntax::ListExpr>(e).elements) {
      CValue v = evalConst(*elem, scope, dimContext);
      if (v.kind == CValue::Kind::Error)
        return v;
      notConst |= v.kind == CValue::Kind::NotConst;
      c.list.push_back(std::move(v));
    }
    if (notConst)
      return kindValue(CValue::Kind::NotConst, e.range);
    return c;
  }
  case syntax::ExprKind::Error:
    return kindValue(CValue::Kind::Error, e.range);
  case syntax::ExprKind::Call:
  case syntax::ExprKind::Index:
  case syntax::ExprKind::Tuple:
    return kindValue(CValue::Kind::NotConst, e.range);
  }
  return kindValue(CValue::Kind::NotConst, e.range);
}

std::optional<Dim> Sema::evalDimArg(const syntax::Expr &e, Scope &scope,
                                    llvm::StringRef what, bool allowMinusOne,
                                    bool &isMinusOne) {
  isMinusOne = false;
  CValue v = evalConst(e, scope, /*dimContext=*/true);
  switch (v.kind) {
  case CValue::Kind::Error:
    return std::nullopt;
  case CValue::Kind::Int:
    if (allowMinusOne && v.intValue == -1) {
      isMinusOne = true;
      return Dim::constant(-1);
    }
    if (v.intValue <= 0) {
      error(DiagCode::InvalidDimension, e.range,
            "dimension size must be positive, got " +
                std::to_string(v.intValue) + " in " + what.str() +
                (v.intValue == -1 && allowMinusOne == false &&
                         what.contains("reshape")
                     ? " (only one entry may be -1)"
                     : ""));
      return std::nullopt;
    }
    return Dim::constant(v.intValue);
  case CValue::Kind::Dim:
    return v.dim;
  case CValue::Kind::NotConst:
    error(DiagCode::NonConstantArgument, e.range,
          what.str() + " must be a compile-time constant: an integer, an "
          "integer const or a dimension name");
    return std::nullopt;
  default:
    error(DiagCode::ArgumentKind, e.range,
          what.str() + " must be an integer or a dimension, got " +
              v.describe());
    return std::nullopt;
  }
}

std::optional<int64_t> Sema::normalizeAxis(int64_t axis, unsigned rank,
                                           const TensorType &type,
                                           SourceRange range,
                                           llvm::StringRef what) {
  int64_t r = rank;
  if (axis < -r || axis >= r) {
    error(DiagCode::AxisOutOfRange, range,
          "axis " + std::to_string(axis) + " is out of range for " +
              type.str() + " (rank " + std::to_string(rank) + ") in " +
              what.str() +
              (rank ? "; valid axes are " + std::to_string(-r) + " to " +
                          std::to_string(r - 1)
                    : std::string("; a scalar has no axes")));
    return std::nullopt;
  }
  return axis < 0 ? axis + r : axis;
}
