//===- SemaInline.cpp - Inlining calls of fn helpers ----------------------===//
//
// A call of a fn is checked against the fn's signature (binding the fn's
// dimension names to the caller's sizes), then the fn's body is checked
// again with those sizes, producing a typed copy that keeps the original
// source ranges. Errors that only appear with the caller's sizes are
// reported inside the fn with a note at each call on the way.
//
//===----------------------------------------------------------------------===//

#include "SemaImpl.h"

using namespace accy;
using namespace accy::sema;

ExprPtr Sema::instantiateFn(FnState &fs, const syntax::CallExpr &call,
                            Scope &caller) {
  const syntax::FunctionDecl &decl = *fs.decl;
  std::string fnName = quote(decl.name);
  if (fs.status == FnState::Status::Checking) {
    error(DiagCode::RecursiveFn, call.calleeRange,
          "fn " + fnName + " calls itself (directly or through other fns); "
          "fn helpers are inlined and cannot be recursive")
        .note(decl.nameRange, "the fn is defined here");
    return makeError(call.range);
  }
  for (const InstFrame &frame : instStack)
    if (frame.fn == &fs) {
      error(DiagCode::RecursiveFn, call.calleeRange,
            "fn " + fnName + " calls itself (directly or through other fns); "
            "fn helpers are inlined and cannot be recursive")
          .note(decl.nameRange, "the fn is defined here");
      return makeError(call.range);
    }
  ensureFnChecked(fs);

  for (const syntax::CallArg &arg : call.args)
    if (!arg.name.empty()) {
      error(DiagCode::UnknownNamedArgument, arg.nameRange,
            "fn " + fnName + " has no named parameters; pass '" + arg.name +
                "' by position");
      return makeError(call.range);
    }
  if (call.args.size() != decl.params.size()) {
    error(DiagCode::ArgumentCount, call.range,
          "fn " + fnName + " takes " + std::to_string(decl.params.size()) +
              (decl.params.size() == 1 ? " argument" : " arguments") +
              " but " + std::to_string(call.args.size()) +
              (call.args.size() == 1 ? " was" : " were") + " given")
        .note(decl.nameRange, "the fn is defined here");
    return makeError(call.range);
  }
  std::vector<ExprPtr> args;
  bool failed = false;
  for (const syntax::CallArg &arg : call.args) {
    args.push_back(checkExpr(*arg.value, caller));
    failed |= llvm::isa<ErrorExpr>(*args.back());
  }
  // A fn with errors was reported where it is defined; stay quiet here.
  if (failed || !fs.ok)
    return makeError(call.range);

  // Bind the fn's dimension names to the caller's sizes.
  std::map<std::string, Dim> bindings;
  std::map<std::string, size_t> boundBy;
  std::vector<std::pair<std::string, Dim>> orderedBindings;
  for (size_t i = 0; i < args.size(); ++i) {
    const TensorType &want = fs.paramTypes[i];
    Expr &arg = *args[i];
    if (arg.weak && want.isScalar() && arg.type.isScalar()) {
      if (!coerceWeak(arg, want.elem))
        return makeError(call.range);
    }
    const TensorType &got = arg.type;
    std::string what = "argument " + std::to_string(i) + " of " + fnName;
    std::string paramText =
        "parameter " + quote(decl.params[i].name) + " is " + want.str();
    if (got.elem != want.elem || got.rank() != want.rank()) {
      error(DiagCode::FnArgumentType, arg.range,
            what + " is " + got.str() + " but the " + paramText)
          .note(decl.params[i].range, "the parameter is declared here");
      return makeError(call.range);
    }
    for (size_t axis = 0; axis < want.rank(); ++axis) {
      const Dim &d = want.shape[axis];
      const Dim &actual = got.shape[axis];
      if (!d.isSymbol()) {
        if (d != actual) {
          error(DiagCode::FnArgumentType, arg.range,
                what + " is " + got.str() + " but the " + paramText +
                    ": axis " + std::to_string(axis) + " must be " + d.str())
              .note(decl.params[i].range, "the parameter is declared here");
          return makeError(call.range);
        }
        continue;
      }
      std::string name = d.getSymbol().str();
      auto it = bindings.find(name);
      if (it == bindings.end()) {
        bindings[name] = actual;
        boundBy[name] = i;
        orderedBindings.push_back({name, actual});
      } else if (it->second != actual) {
        error(DiagCode::FnDimConflict, arg.range,
              "in the call of " + fnName + ": " + quote(name) + " is " +
                  it->second.str() + " in argument " +
                  std::to_string(boundBy[name]) + " but " + actual.str() +
                  " in argument " + std::to_string(i))
            .note(decl.params[i].range, "the parameter is declared here");
        return makeError(call.range);
      }
    }
  }
  if (instStack.size() >= limits.maxInlineDepth) {
    error(DiagCode::InlineLimit, call.calleeRange,
          "fn calls are nested more than " +
              std::to_string(limits.maxInlineDepth) + " deep");
    return makeError(call.range);
  }

  TensorType resultType = fs.resultTypes.front();
  for (Dim &d : resultType.shape) {
    std::optional<Dim> s = d.substitute(bindings);
    if (!s) {
      error(DiagCode::SizeOverflow, call.range,
            "the result size of " + fnName + " overflows 64-bit integers");
      return makeError(call.range);
    }
    d = *s;
  }
  auto node = make<InlinedCallExpr>(fs.fn, resultType, call.range,
                                    call.calleeRange);
  node->dimBindings = orderedBindings;
  Scope scope;
  scope.module = fs.home;
  scope.dims = bindings;
  for (size_t i = 0; i < decl.params.size(); ++i) {
    auto param = std::make_unique<ParamBinding>();
    param->name = decl.params[i].name;
    param->index = i;
    param->type = args[i]->type;
    param->range = decl.params[i].range;
    param->nameRange = decl.params[i].nameRange;
    param->owner = node.get();
    scope.params.push_back(param.get());
    scope.dimRanges.clear();
    node->params.push_back(std::move(param));
  }
  node->args = std::move(args);

  uint64_t errorExprsBefore = errorExprCount;
  instStack.push_back({&fs, call.range});
  TensorType declared[] = {resultType};
  checkBody(decl.body, scope, node->body, declared, decl.name,
            /*isKernel=*/false, decl.hadParseError, decl.bodyRange);
  instStack.pop_back();
  if (errorExprCount != errorExprsBefore)
    return makeError(call.range);
  return node;
}
