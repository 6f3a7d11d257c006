//===- Syntax.cpp - The parse tree of an Accy file ------------------------===//

#include "accy/Frontend/Syntax.h"

using namespace accy::syntax;

Expr::~Expr() = default;

llvm::StringRef accy::syntax::binaryOpSpelling(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add: return "+";
  case BinaryOp::Sub: return "-";
  case BinaryOp::Mul: return "*";
  case BinaryOp::Div: return "/";
  case BinaryOp::MatMul: return "@";
  case BinaryOp::Less: return "<";
  case BinaryOp::LessEqual: return "<=";
  case BinaryOp::Greater: return ">";
  case BinaryOp::GreaterEqual: return ">=";
  case BinaryOp::Equal: return "==";
  case BinaryOp::NotEqual: return "!=";
  }
  return "?";
}

bool accy::syntax::isComparison(BinaryOp op) {
  return op >= BinaryOp::Less;
}
