//===- ParseExpr.cpp - Expression parsing ---------------------------------===//
//
// Precedence, lowest first: comparison (non-associative), + -, * / @,
// unary -, postfix (call, index). Recursion depth and tree height are both
// bounded by syntax::kMaxExprDepth so that hostile inputs (100000 nested
// parentheses, a megabyte of `a + a + ...`) produce one diagnostic instead
// of a stack overflow.
//
//===----------------------------------------------------------------------===//

#include "ParserImpl.h"

#include <cstdlib>

using namespace accy;
using namespace accy::syntax;

namespace {
/// Counts one level of parser recursion for the lifetime of the guard.
struct NestingGuard {
  explicit NestingGuard(unsigned &n) : n(n) { ++n; }
  ~NestingGuard() { --n; }
  unsigned &n;
};
} // namespace

static std::string depthMessage() {
  return "expression is nested too deeply (the limit is " +
         std::to_string(kMaxExprDepth) + " levels)";
}

int64_t Parser::parseIntValue(const Token &t) {
  // The lexer only produces IntLiteral tokens whose value fits in int64.
  return std::strtoll(t.text.str().c_str(), nullptr, 10);
}

std::string Parser::stringContents(const Token &t) {
  llvm::StringRef text = t.text;
  if (text.starts_with("\""))
    text = text.drop_front();
  if (text.ends_with("\""))
    text = text.drop_back();
  return text.str();
}

ExprPtr Parser::checkDepth(ExprPtr e) {
  if (e && e->depth > kMaxExprDepth) {
    diags.error(DiagCode::NestingTooDeep, tok().range, depthMessage());
    return nullptr;
  }
  return e;
}

ExprPtr Parser::parseExpr() {
  NestingGuard guard(nesting);
  if (nesting > kMaxExprDepth) {
    diags.error(DiagCode::NestingTooDeep, tok().range, depthMessage());
    return nullptr;
  }
  return parseComparison();
}

static bool comparisonOp(TokenKind kind, BinaryOp &op) {
  switch (kind) {
  case TokenKind::Less: op = BinaryOp::Less; return true;
  case TokenKind::LessEqual: op = BinaryOp::LessEqual; return true;
  case TokenKind::Greater: op = BinaryOp::Greater; return true;
  case TokenKind::GreaterEqual: op = BinaryOp::GreaterEqual; return true;
  case TokenKind::EqualEqual: op = BinaryOp::Equal; return true;
  case TokenKind::NotEqual: op = BinaryOp::NotEqual; return true;
  default: return false;
  }
}

static ExprPtr makeBinary(BinaryOp op, SourceRange opRange, ExprPtr lhs,
                          ExprPtr rhs) {
  SourceRange range = SourceRange::cover(lhs->range, rhs->range);
  unsigned depth = 1 + std::max(lhs->depth, rhs->depth);
  auto e = std::make_unique<BinaryExpr>(range, op, opRange, std::move(lhs),
                                        std::move(rhs));
  e->depth = depth;
  return e;
}

ExprPtr Parser::parseComparison() {
  ExprPtr lhs = parseAdditive();
  if (!lhs)
    return nullptr;
  BinaryOp op;
  if (!comparisonOp(tok().kind, op))
    return lhs;
  SourceRange opRange = tok().range;
  llvm::StringRef first = tok().text;
  consume();
  ExprPtr rhs = parseAdditive();
  if (!rhs)
    return nullptr;
  BinaryOp second;
  if (comparisonOp(tok().kind, second)) {
    diags.error(DiagCode::ChainedComparison, tok().range,
                "comparison operators are non-associative: '" +
                    tok().text.str() + "' cannot follow '" + first.str() +
                    "' without parentheses")
        .note(opRange, "the first comparison is here");
    return nullptr;
  }
  return checkDepth(makeBinary(op, opRange, std::move(lhs), std::move(rhs)));
}

ExprPtr Parser::parseAdditive() {
  ExprPtr lhs = parseMultiplicative();
  while (lhs && (tok().is(TokenKind::Plus) || tok().is(TokenKind::Minus))) {
    BinaryOp op = tok().is(TokenKind::Plus) ? BinaryOp::Add : BinaryOp::Sub;
    SourceRange opRange = tok().range;
    consume();
    ExprPtr rhs = parseMultiplicative();
    if (!rhs)
      return nullptr;
    lhs = checkDepth(makeBinary(op, opRange, std::move(lhs), std::move(rhs)));
  }
  return lhs;
}

ExprPtr Parser::parseMultiplicative() {
  ExprPtr lhs = parseUnary();
  while (lhs && (tok().is(TokenKind::Star) || tok().is(TokenKind::Slash) ||
                 tok().is(TokenKind::At))) {
    BinaryOp op = tok().is(TokenKind::Star)    ? BinaryOp::Mul
                  : tok().is(TokenKind::Slash) ? BinaryOp::Div
                                               : BinaryOp::MatMul;
    SourceRange opRange = tok().range;
    consume();
    ExprPtr rhs = parseUnary();
    if (!rhs)
      return nullptr;
    lhs = checkDepth(makeBinary(op, opRange, std::move(lhs), std::move(rhs)));
  }
  return lhs;
}

ExprPtr Parser::parseUnary() {
  if (!tok().is(TokenKind::Minus))
    return parsePostfix();
  NestingGuard guard(nesting);
  if (nesting > kMaxExprDepth) {
    diags.error(DiagCode::NestingTooDeep, tok().range, depthMessage());
    return nullptr;
  }
  uint32_t begin = tok().range.begin;
  consume();
  ExprPtr operand = parseUnary();
  if (!operand)
    return nullptr;
  unsigned depth = operand->depth + 1;
  auto e = std::make_unique<UnaryExpr>(
      SourceRange(file, begin, operand->range.end), std::move(operand));
  e->depth = depth;
  return checkDepth(std::move(e));
}

ExprPtr Parser::parsePostfix() {
  ExprPtr e = parsePrimary();
  while (e && tok().is(TokenKind::LBracket))
    e = parseIndex(std::move(e));
  return e;
}

ExprPtr Parser::parsePrimary() {
  const Token &t = tok();
  switch (t.kind) {
  case TokenKind::IntLiteral: {
    consume();
    return std::make_unique<IntLitExpr>(t.range, parseIntValue(t));
  }
  case TokenKind::FloatLiteral: {
    consume();
    return std::make_unique<FloatLitExpr>(
        t.range, std::strtod(t.text.str().c_str(), nullptr), t.text.str());
  }
  case TokenKind::StringLiteral:
    consume();
    return std::make_unique<StringLitExpr>(t.range, stringContents(t));
  case TokenKind::KwTrue:
  case TokenKind::KwFalse:
    consume();
    return std::make_unique<BoolLitExpr>(t.range, t.is(TokenKind::KwTrue));
  case TokenKind::Identifier:
    if (peekTok(1).is(TokenKind::LParen) ||
        (peekTok(1).is(TokenKind::Less) &&
         isElementTypeKeyword(peekTok(2).kind)))
      return parseCall(t);
    consume();
    return std::make_unique<NameExpr>(t.range, t.text.str());
  case TokenKind::LParen:
    return parseParenOrTuple();
  case TokenKind::LBracket:
    return parseList();
  case TokenKind::Error:
    // Already diagnosed by the lexer; keep parsing around it.
    consume();
    return std::make_unique<ErrorExpr>(t.range);
  default:
    errorExpected("an expression");
    return nullptr;
  }
}

ExprPtr Parser::parseCall(const Token &name) {
  auto call = std::make_unique<CallExpr>(name.range);
  call->callee = name.text.str();
  call->calleeRange = name.range;
  consume();
  if (tok().is(TokenKind::Less)) {
    consume();
    call->hasTypeArg = true;
    if (!parseType(call->typeArg))
      return nullptr;
    if (!tok().is(TokenKind::Greater)) {
      errorExpected("'>' after the type argument");
      return nullptr;
    }
    consume();
  }
  if (!tok().is(TokenKind::LParen)) {
    errorExpected("'(' to start the arguments");
    return nullptr;
  }
  consume();
  unsigned depth = 0;
  while (!tok().is(TokenKind::RParen)) {
    CallArg arg;
    if (tok().is(TokenKind::Identifier) && peekTok(1).is(TokenKind::Assign)) {
      arg.name = tok().text.str();
      arg.nameRange = tok().range;
      consume();
      consume();
    }
    arg.value = parseExpr();
    if (!arg.value)
      return nullptr;
    depth = std::max(depth, arg.value->depth);
    call->args.push_back(std::move(arg));
    if (tok().is(TokenKind::Comma)) {
      consume();
      continue;
    }
    if (!tok().is(TokenKind::RParen)) {
      errorExpected("',' or ')' in the argument list");
      return nullptr;
    }
  }
  consume();
  call->range = SourceRange(file, name.range.begin, prevEnd());
  call->depth = depth + 1;
  return checkDepth(std::move(call));
}

ExprPtr Parser::parseIndex(ExprPtr base) {
  uint32_t begin = base->range.begin;
  unsigned depth = base->depth;
  auto index = std::make_unique<IndexExpr>(base->range, std::move(base));
  consume(); // '['
  if (tok().is(TokenKind::RBracket)) {
    errorExpected("an index");
    return nullptr;
  }
  while (true) {
    IndexItem item;
    uint32_t itemBegin = tok().range.begin;
    if (!tok().is(TokenKind::Colon)) {
      item.index = parseExpr();
      if (!item.index)
        return nullptr;
      depth = std::max(depth, item.index->depth);
    }
    if (tok().is(TokenKind::Colon)) {
      item.isSlice = true;
      item.start = std::move(item.index);
      consume();
      if (!tok().is(TokenKind::Comma) && !tok().is(TokenKind::RBracket) &&
          !tok().is(TokenKind::Colon)) {
        item.stop = parseExpr();
        if (!item.stop)
          return nullptr;
        depth = std::max(depth, item.stop->depth);
      }
      if (tok().is(TokenKind::Colon)) {
        diags.error(DiagCode::SliceStep, tok().range,
                    "slice steps ('start:stop:step') are not supported");
        return nullptr;
      }
    }
    item.range = SourceRange(file, itemBegin, prevEnd());
    index->items.push_back(std::move(item));
    if (tok().is(TokenKind::Comma)) {
      consume();
      if (!tok().is(TokenKind::RBracket))
        continue; // A trailing comma is allowed, as in Python.
    }
    if (!tok().is(TokenKind::RBracket)) {
      errorExpected("',' or ']' in the index");
      return nullptr;
    }
    consume();
    break;
  }
  index->range = SourceRange(file, begin, prevEnd());
  index->depth = depth + 1;
  return checkDepth(std::move(index));
}

ExprPtr Parser::parseParenOrTuple() {
  uint32_t begin = tok().range.begin;
  consume(); // '('
  ExprPtr first = parseExpr();
  if (!first)
    return nullptr;
  if (tok().is(TokenKind::RParen)) {
    consume();
    // Parentheses are not nodes; widen the range so diagnostics cover them.
    first->range = SourceRange(file, begin, prevEnd());
    return first;
  }
  if (!tok().is(TokenKind::Comma)) {
    errorExpected("')'");
    return nullptr;
  }
  auto tuple = std::make_unique<TupleExpr>(SourceRange());
  unsigned depth = first->depth;
  tuple->elements.push_back(std::move(first));
  while (tok().is(TokenKind::Comma)) {
    consume();
    if (tok().is(TokenKind::RParen))
      break;
    ExprPtr e = parseExpr();
    if (!e)
      return nullptr;
    depth = std::max(depth, e->depth);
    tuple->elements.push_back(std::move(e));
  }
  if (!tok().is(TokenKind::RParen)) {
    errorExpected("',' or ')' in the tuple");
    return nullptr;
  }
  consume();
  tuple->range = SourceRange(file, begin, prevEnd());
  tuple->depth = depth + 1;
  return checkDepth(std::move(tuple));
}

ExprPtr Parser::parseList() {
  uint32_t begin = tok().range.begin;
  consume(); // '['
  auto list = std::make_unique<ListExpr>(SourceRange());
  unsigned depth = 0;
  while (!tok().is(TokenKind::RBracket)) {
    ExprPtr e = parseExpr();
    if (!e)
      return nullptr;
    depth = std::max(depth, e->depth);
    list->elements.push_back(std::move(e));
    if (tok().is(TokenKind::Comma)) {
      consume();
      continue;
    }
    if (!tok().is(TokenKind::RBracket)) {
      errorExpected("',' or ']' in the list");
      return nullptr;
    }
  }
  consume();
  list->range = SourceRange(file, begin, prevEnd());
  list->depth = depth + 1;
  return checkDepth(std::move(list));
}
