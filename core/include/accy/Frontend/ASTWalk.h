//===- ASTWalk.h - Deterministic traversal of the typed AST -----*- C++ -*-===//
//
// The pre-order walk numbers nodes the same way on every run; the emitter
// uses that numbering to build its source map. Order:
//  - a body: each let's value in order, then each returned value;
//  - an expression: the node itself, then its children in order:
//      Neg: operand;  Binary: lhs, rhs;  BuiltinCall / Index: operands;
//      InlinedCall: args, then its body (lets' values, then results);
//      Literal, ConstRef, ParamRef, LetRef, Error: none.
// The walks are iterative, so deep trees cannot overflow the stack.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_FRONTEND_ASTWALK_H
#define ACCY_FRONTEND_ASTWALK_H

#include "accy/Frontend/AST.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace accy {

/// The direct children of `e`, in walk order.
llvm::SmallVector<const Expr *, 4> children(const Expr &e);

/// Visits `root` and everything below it in pre-order.
void walkPreOrder(const Expr &root,
                  llvm::function_ref<void(const Expr &)> visit);
/// Visits a body in pre-order (lets' values, then results).
void walkPreOrder(const Body &body,
                  llvm::function_ref<void(const Expr &)> visit);
/// Visits a kernel's (or fn's) typed body in pre-order.
void walkPreOrder(const FunctionBase &item,
                  llvm::function_ref<void(const Expr &)> visit);

/// The innermost expression of a body whose range contains `offset` in
/// `file` (for hover); null if none.
const Expr *findInnermostExpr(const Body &body, FileID file, uint32_t offset);

} // namespace accy

#endif // ACCY_FRONTEND_ASTWALK_H
