//===- AST.cpp - The typed AST produced by sema ---------------------------===//

#include "accy/Frontend/AST.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace accy;

double ScalarValue::asDouble() const {
  switch (kind) {
  case Kind::Int: return static_cast<double>(intValue);
  case Kind::Float: return floatValue;
  case Kind::Bool: return boolValue ? 1.0 : 0.0;
  }
  return 0;
}

int64_t ScalarValue::asInt() const {
  switch (kind) {
  case Kind::Int: return intValue;
  case Kind::Float: return static_cast<int64_t>(floatValue);
  case Kind::Bool: return boolValue ? 1 : 0;
  }
  return 0;
}

std::string ScalarValue::str() const {
  switch (kind) {
  case Kind::Int:
    return std::to_string(intValue);
  case Kind::Bool:
    return boolValue ? "true" : "false";
  case Kind::Float: {
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.17g", floatValue);
    // Prefer the shortest spelling that round-trips.
    for (int precision = 1; precision <= 17; ++precision) {
      char shorter[64];
      std::snprintf(shorter, sizeof(shorter), "%.*g", precision, floatValue);
      if (std::strtod(shorter, nullptr) == floatValue)
        return shorter;
    }
    return buf;
  }
  }
  return "?";
}

const TensorType &LetBinding::type() const { return value->type; }

llvm::StringRef accy::exprKindName(ExprKind kind) {
  switch (kind) {
  case ExprKind::Literal: return "literal";
  case ExprKind::ConstRef: return "const";
  case ExprKind::ParamRef: return "param";
  case ExprKind::LetRef: return "let-ref";
  case ExprKind::Neg: return "neg";
  case ExprKind::Binary: return "binary";
  case ExprKind::BuiltinCall: return "call";
  case ExprKind::Index: return "index";
  case ExprKind::InlinedCall: return "inline";
  case ExprKind::Error: return "error";
  }
  return "?";
}

Expr::~Expr() = default;

NegExpr::NegExpr(ExprPtr operandIn, SourceRange range)
    : Expr(ExprKind::Neg, operandIn->type, range),
      operand(std::move(operandIn)) {
  weak = operand->weak;
}

llvm::StringRef accy::binaryOpKindSpelling(BinaryOpKind op) {
  switch (op) {
  case BinaryOpKind::Add: return "+";
  case BinaryOpKind::Sub: return "-";
  case BinaryOpKind::Mul: return "*";
  case BinaryOpKind::Div: return "/";
  case BinaryOpKind::Less: return "<";
  case BinaryOpKind::LessEqual: return "<=";
  case BinaryOpKind::Greater: return ">";
  case BinaryOpKind::GreaterEqual: return ">=";
  case BinaryOpKind::Equal: return "==";
  case BinaryOpKind::NotEqual: return "!=";
  }
  return "?";
}

bool accy::isComparison(BinaryOpKind op) { return op >= BinaryOpKind::Less; }

const Dim *EinsumSpec::sizeOf(char label) const {
  for (const auto &entry : labelSizes)
    if (entry.first == label)
      return &entry.second;
  return nullptr;
}
