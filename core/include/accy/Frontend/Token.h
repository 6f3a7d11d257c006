//===- Token.h - Tokens of the Accy language --------------------*- C++ -*-===//
#ifndef ACCY_FRONTEND_TOKEN_H
#define ACCY_FRONTEND_TOKEN_H

#include "accy/Frontend/Source.h"

#include "llvm/ADT/StringRef.h"

namespace accy {

enum class TokenKind : uint8_t {
  Eof,
  Error, ///< Bytes the lexer could not make sense of (already diagnosed).

  Identifier,
  IntLiteral,
  FloatLiteral,
  StringLiteral,

  // Keywords.
  KwKernel,
  KwFn,
  KwLet,
  KwReturn,
  KwImport,
  KwConst,
  KwTrue,
  KwFalse,
  // Element type keywords.
  KwF16,
  KwBF16,
  KwF32,
  KwF64,
  KwI32,
  KwI64,
  KwBool,

  // Punctuation.
  LParen,    ///< (
  RParen,    ///< )
  LBracket,  ///< [
  RBracket,  ///< ]
  LBrace,    ///< {
  RBrace,    ///< }
  Comma,     ///< ,
  Colon,     ///< :
  Semicolon, ///< ;
  Arrow,     ///< ->
  Assign,    ///< =

  // Operators.
  Plus,         ///< +
  Minus,        ///< -
  Star,         ///< *
  Slash,        ///< /
  At,           ///< @
  Less,         ///< <
  LessEqual,    ///< <=
  Greater,      ///< >
  GreaterEqual, ///< >=
  EqualEqual,   ///< ==
  NotEqual,     ///< !=
};

/// How a token kind is shown in messages: "identifier", "'->'", "'kernel'".
llvm::StringRef tokenKindName(TokenKind kind);
/// True for f16 bf16 f32 f64 i32 i64 bool.
bool isElementTypeKeyword(TokenKind kind);

struct Token {
  TokenKind kind = TokenKind::Eof;
  SourceRange range;
  /// The token's bytes in the buffer (for a string literal, with quotes).
  llvm::StringRef text;

  bool is(TokenKind k) const { return kind == k; }
  bool isNot(TokenKind k) const { return kind != k; }
};

} // namespace accy

#endif // ACCY_FRONTEND_TOKEN_H
