//===- BuiltinChecker.h - Checking one built-in call (internal) -*- C++ -*-===//
//
// Shared by SemaBuiltins.cpp (argument binding, constants, elementwise and
// reduction built-ins) and SemaBuiltinShapes.cpp (contractions, indexing,
// shape manipulation and losses).
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LIB_FRONTEND_BUILTINCHECKER_H
#define ACCY_LIB_FRONTEND_BUILTINCHECKER_H

#include "SemaImpl.h"

namespace accy::sema {

/// The syntax bound to each parameter (null when absent) and the extra
/// variadic operands.
struct BoundArgs {
  std::vector<const syntax::Expr *> params;
  std::vector<const syntax::Expr *> extra;
  const syntax::Expr *get(size_t i) const { return params[i]; }
};

/// The state of checking one built-in call.
class BuiltinChecker {
public:
  BuiltinChecker(Sema &sema, const BuiltinInfo &info,
                 const syntax::CallExpr &call, Scope &scope)
      : sema(sema), info(info), call(call), scope(scope) {}

  ExprPtr run();

private:
  bool bind();
  std::string argName(size_t i) const {
    return "argument '" + std::string(info.params[i].name) + "' of '" +
           info.name + "'";
  }
  std::string callName() const { return "'" + std::string(info.name) + "'"; }
  ExprPtr fail() { return sema.makeError(call.range); }

  /// Checks the value operand bound to parameter i (which must be present).
  ExprPtr value(size_t i) { return sema.checkExpr(*args.get(i), scope); }
  static bool isError(const ExprPtr &e) { return llvm::isa<ErrorExpr>(*e); }

  std::optional<int64_t> constInt(size_t i);
  std::optional<bool> constBool(size_t i, bool defaultValue);
  /// A single axis parameter, normalized against `type` (default when the
  /// argument is absent).
  std::optional<int64_t> axisArg(size_t i, int64_t defaultValue,
                                 const TensorType &type);
  /// One item of the list of axes passed as parameter i: an integer,
  /// normalized against `type`.
  std::optional<int64_t> listedAxis(size_t i, const CValue &item,
                                    const TensorType &type);
  std::optional<Shape> shapeArg(size_t i, bool allowMinusOne,
                                int &minusOneAt);
  std::unique_ptr<BuiltinCallExpr> node(TensorType type) {
    return sema.make<BuiltinCallExpr>(info.id, std::move(type), call.range,
                                      call.calleeRange);
  }

  ExprPtr activation();
  /// softmax, log_softmax (float only, axis -1 by default) and the scans
  /// (axis 0 by default): one tensor and one axis, same type out.
  ExprPtr alongOneAxis(bool floatOnly, int64_t defaultAxis);
  ExprPtr reduction();
  ExprPtr einsum();
  ExprPtr take();
  ExprPtr transpose();
  ExprPtr reshape();
  ExprPtr broadcast();
  ExprPtr concat();
  ExprPtr mse();
  ExprPtr classLoss();
  ExprPtr select();
  ExprPtr cast();
  ExprPtr full();
  ExprPtr iota();

  Sema &sema;
  const BuiltinInfo &info;
  const syntax::CallExpr &call;
  Scope &scope;
  BoundArgs args;
};

} // namespace accy::sema

#endif // ACCY_LIB_FRONTEND_BUILTINCHECKER_H
