//===- ASTWalk.cpp - Deterministic traversal of the typed AST -------------===//

#include "accy/Frontend/ASTWalk.h"

using namespace accy;

static void appendBody(const Body &body,
                       llvm::SmallVectorImpl<const Expr *> &out) {
  for (const auto &let : body.lets)
    out.push_back(let->value.get());
  for (const auto &result : body.results)
    out.push_back(result.get());
}

llvm::SmallVector<const Expr *, 4> accy::children(const Expr &e) {
  llvm::SmallVector<const Expr *, 4> out;
  switch (e.getKind()) {
  case ExprKind::Neg:
    out.push_back(llvm::cast<NegExpr>(e).operand.get());
    break;
  case ExprKind::Binary: {
    const auto &b = llvm::cast<BinaryExpr>(e);
    out.push_back(b.lhs.get());
    out.push_back(b.rhs.get());
    break;
  }
  case ExprKind::BuiltinCall:
    for (const auto &op : llvm::cast<BuiltinCallExpr>(e).operands)
      out.push_back(op.get());
    break;
  case ExprKind::Index:
    for (const auto &op : llvm::cast<IndexExpr>(e).operands)
      out.push_back(op.get());
    break;
  case ExprKind::InlinedCall: {
    const auto &call = llvm::cast<InlinedCallExpr>(e);
    for (const auto &arg : call.args)
      out.push_back(arg.get());
    appendBody(call.body, out);
    break;
  }
  case ExprKind::Literal:
  case ExprKind::ConstRef:
  case ExprKind::ParamRef:
  case ExprKind::LetRef:
  case ExprKind::Error:
    break;
  }
  return out;
}

static void walkFrom(llvm::SmallVectorImpl<const Expr *> &stack,
                     llvm::function_ref<void(const Expr &)> visit) {
  while (!stack.empty()) {
    const Expr *e = stack.pop_back_val();
    if (!e)
      continue;
    visit(*e);
    auto kids = children(*e);
    for (auto it = kids.rbegin(); it != kids.rend(); ++it)
      stack.push_back(*it);
  }
}

void accy::walkPreOrder(const Expr &root,
                        llvm::function_ref<void(const Expr &)> visit) {
  llvm::SmallVector<const Expr *, 32> stack{&root};
  walkFrom(stack, visit);
}

void accy::walkPreOrder(const Body &body,
                        llvm::function_ref<void(const Expr &)> visit) {
  llvm::SmallVector<const Expr *, 32> roots;
  appendBody(body, roots);
  llvm::SmallVector<const Expr *, 32> stack(roots.rbegin(), roots.rend());
  walkFrom(stack, visit);
}

void accy::walkPreOrder(const FunctionBase &item,
                        llvm::function_ref<void(const Expr &)> visit) {
  walkPreOrder(item.body, visit);
}

const Expr *accy::findInnermostExpr(const Body &body, FileID file,
                                    uint32_t offset) {
  const Expr *best = nullptr;
  walkPreOrder(body, [&](const Expr &e) {
    if (e.range.file != file || offset < e.range.begin ||
        offset >= e.range.end)
      return;
    if (!best || e.range.size() <= best->range.size())
      best = &e;
  });
  return best;
}
