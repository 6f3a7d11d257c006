//===- ParserImpl.h - The parser class (internal) ---------------*- C++ -*-===//
#ifndef ACCY_LIB_FRONTEND_PARSERIMPL_H
#define ACCY_LIB_FRONTEND_PARSERIMPL_H

#include "accy/Frontend/Parser.h"

#include <algorithm>

namespace accy {

class Parser {
public:
  Parser(FileID file, const std::vector<Token> &tokens, DiagnosticEngine &diags)
      : file(file), tokens(tokens), diags(diags) {}

  std::unique_ptr<syntax::Module> parseModule();

private:
  // Token access. The list always ends with Eof, which is never consumed.
  const Token &tok() const { return tokens[pos]; }
  const Token &peekTok(size_t ahead) const {
    return tokens[std::min(pos + ahead, tokens.size() - 1)];
  }
  void consume() {
    if (tokens[pos].is(TokenKind::Error))
      afterLexError = true;
    if (pos + 1 < tokens.size()) {
      lastEnd = tokens[pos].range.end;
      ++pos;
    }
  }
  /// End offset of the last consumed token.
  uint32_t prevEnd() const { return lastEnd; }

  // Diagnostics and recovery.
  static std::string describe(const Token &t);
  void errorExpected(llvm::StringRef what);
  bool expect(TokenKind kind, llvm::StringRef context);
  bool atItemStart() const;
  void syncItem();
  void syncStmt();

  // Items and statements (Parser.cpp).
  void parseImport(syntax::Module &module);
  void parseConst(syntax::Module &module);
  void parseFunction(syntax::Module &module);
  bool parseParams(syntax::FunctionDecl &fn);
  bool parseResults(syntax::FunctionDecl &fn);
  bool parseType(syntax::TypeSyntax &type);
  bool parseStmt(syntax::FunctionDecl &fn);

  // Expressions (ParseExpr.cpp). Each returns null after a (reported or
  // already reported) error; callers then return null too, without adding
  // diagnostics.
  syntax::ExprPtr parseExpr();
  syntax::ExprPtr parseComparison();
  syntax::ExprPtr parseAdditive();
  syntax::ExprPtr parseMultiplicative();
  syntax::ExprPtr parseUnary();
  syntax::ExprPtr parsePostfix();
  syntax::ExprPtr parsePrimary();
  syntax::ExprPtr parseCall(const Token &name);
  syntax::ExprPtr parseIndex(syntax::ExprPtr base);
  syntax::ExprPtr parseParenOrTuple();
  syntax::ExprPtr parseList();
  /// Checks the depth of a freshly built node; reports and returns null
  /// when it exceeds the limit.
  syntax::ExprPtr checkDepth(syntax::ExprPtr e);

  static int64_t parseIntValue(const Token &t);
  static std::string stringContents(const Token &t);

  FileID file;
  const std::vector<Token> &tokens;
  DiagnosticEngine &diags;
  size_t pos = 0;
  uint32_t lastEnd = 0;
  /// Current recursion depth of the expression parser.
  unsigned nesting = 0;
  /// Set once an Error token (already diagnosed by the lexer) is consumed,
  /// cleared at the start of each statement and item: syntax errors it
  /// causes in the same statement are not reported again.
  bool afterLexError = false;
};

} // namespace accy

#endif // ACCY_LIB_FRONTEND_PARSERIMPL_H
