//===- Parser.cpp - Parser for Accy files ---------------------------------===//
//
// Items and statements. Expressions are in ParseExpr.cpp.
//
//===----------------------------------------------------------------------===//

#include "ParserImpl.h"

#include "accy/Frontend/Lexer.h"

using namespace accy;
using namespace accy::syntax;

std::string Parser::describe(const Token &t) {
  switch (t.kind) {
  case TokenKind::Identifier:
    return "identifier '" + t.text.str() + "'";
  case TokenKind::IntLiteral:
  case TokenKind::FloatLiteral:
    return "'" + t.text.str() + "'";
  case TokenKind::StringLiteral:
    return "string literal";
  default:
    return tokenKindName(t.kind).str();
  }
}

void Parser::errorExpected(llvm::StringRef what) {
  // An Error token was already diagnosed by the lexer, and so are the
  // syntax errors that follow from it in the same statement: stay quiet.
  if (tok().is(TokenKind::Error) || afterLexError)
    return;
  diags.error(DiagCode::ExpectedToken, tok().range,
              "expected " + what.str() + ", found " + describe(tok()));
}

bool Parser::expect(TokenKind kind, llvm::StringRef context) {
  if (tok().is(kind)) {
    consume();
    return true;
  }
  std::string what = tokenKindName(kind).str();
  if (!context.empty())
    what += " " + context.str();
  if (kind == TokenKind::Semicolon && pos > 0 && !tok().is(TokenKind::Error) &&
      !afterLexError) {
    // A missing ';' belongs right after the previous token (often on the
    // line before the token that revealed it).
    diags.error(DiagCode::ExpectedToken, SourceRange(file, lastEnd, lastEnd),
                "expected " + what + ", found " + describe(tok()));
    return false;
  }
  errorExpected(what);
  return false;
}

bool Parser::atItemStart() const {
  switch (tok().kind) {
  case TokenKind::KwKernel:
  case TokenKind::KwFn:
  case TokenKind::KwImport:
  case TokenKind::KwConst:
    return true;
  default:
    return false;
  }
}

void Parser::syncItem() {
  // Item keywords never appear inside a body, so they end the skip at any
  // brace depth (a body missing its '}' does not swallow the next item).
  unsigned depth = 0;
  while (!tok().is(TokenKind::Eof)) {
    if (atItemStart())
      return;
    TokenKind kind = tok().kind;
    consume();
    if (kind == TokenKind::LBrace) {
      ++depth;
    } else if (kind == TokenKind::RBrace) {
      if (depth <= 1)
        return;
      --depth;
    } else if (kind == TokenKind::Semicolon && depth == 0) {
      return;
    }
  }
}

void Parser::syncStmt() {
  while (!tok().is(TokenKind::Eof)) {
    switch (tok().kind) {
    case TokenKind::Semicolon:
      consume();
      return;
    case TokenKind::RBrace:
    case TokenKind::KwLet:
    case TokenKind::KwReturn:
      return;
    default:
      if (atItemStart())
        return;
      consume();
    }
  }
}

std::unique_ptr<Module> Parser::parseModule() {
  auto module = std::make_unique<Module>();
  module->file = file;
  while (!tok().is(TokenKind::Eof) && !diags.limitReached()) {
    afterLexError = false;
    switch (tok().kind) {
    case TokenKind::KwImport:
      parseImport(*module);
      break;
    case TokenKind::KwConst:
      parseConst(*module);
      break;
    case TokenKind::KwFn:
    case TokenKind::KwKernel:
      parseFunction(*module);
      break;
    case TokenKind::Error:
      consume();
      break;
    default:
      errorExpected("an item ('import', 'const', 'fn' or 'kernel')");
      syncItem();
      break;
    }
  }
  return module;
}

void Parser::parseImport(Module &module) {
  uint32_t begin = tok().range.begin;
  consume();
  if (!tok().is(TokenKind::StringLiteral)) {
    errorExpected("a quoted path after 'import'");
    syncItem();
    return;
  }
  ImportDecl decl;
  decl.path = stringContents(tok());
  decl.pathRange = tok().range;
  consume();
  decl.range = SourceRange(file, begin, prevEnd());
  if (!expect(TokenKind::Semicolon, "after import")) {
    syncItem();
  } else {
    decl.range = SourceRange(file, begin, prevEnd());
  }
  module.imports.push_back(std::move(decl));
}

void Parser::parseConst(Module &module) {
  uint32_t begin = tok().range.begin;
  consume();
  ConstDecl decl;
  if (!tok().is(TokenKind::Identifier)) {
    errorExpected("a name after 'const'");
    syncItem();
    return;
  }
  decl.name = tok().text.str();
  decl.nameRange = tok().range;
  consume();
  if (!expect(TokenKind::Assign, "after the const name")) {
    syncItem();
    return;
  }
  decl.value = parseExpr();
  bool ok = decl.value && expect(TokenKind::Semicolon, "after const");
  if (!decl.value)
    decl.value = std::make_unique<ErrorExpr>(SourceRange(file, begin, prevEnd()));
  decl.range = SourceRange(file, begin, prevEnd());
  module.consts.push_back(std::move(decl));
  if (!ok)
    syncStmt();
}

bool Parser::parseType(TypeSyntax &type) {
  if (!isElementTypeKeyword(tok().kind)) {
    errorExpected("an element type (f16, bf16, f32, f64, i32, i64 or bool)");
    return false;
  }
  type.elem = static_cast<ElemType>(static_cast<unsigned>(tok().kind) -
                                    static_cast<unsigned>(TokenKind::KwF16));
  type.elemRange = tok().range;
  type.range = tok().range;
  consume();
  if (tok().is(TokenKind::LBracket)) {
    consume();
    while (!tok().is(TokenKind::RBracket)) {
      TypeSyntax::DimSyntax dim;
      dim.range = tok().range;
      if (tok().is(TokenKind::IntLiteral)) {
        dim.value = parseIntValue(tok());
      } else if (tok().is(TokenKind::Identifier)) {
        dim.isName = true;
        dim.name = tok().text.str();
      } else {
        errorExpected("a dimension (an integer or a name)");
        return false;
      }
      consume();
      type.dims.push_back(std::move(dim));
      if (tok().is(TokenKind::Comma)) {
        consume();
        continue;
      }
      if (!tok().is(TokenKind::RBracket)) {
        errorExpected("',' or ']' in the shape");
        return false;
      }
    }
    consume();
    type.range = SourceRange(file, type.range.begin, prevEnd());
  }
  type.valid = true;
  return true;
}

bool Parser::parseParams(FunctionDecl &fn) {
  if (!expect(TokenKind::LParen, "after the name"))
    return false;
  while (!tok().is(TokenKind::RParen)) {
    Param param;
    param.range = tok().range;
    if (!tok().is(TokenKind::Identifier)) {
      errorExpected("a parameter name");
      return false;
    }
    param.name = tok().text.str();
    param.nameRange = tok().range;
    consume();
    if (!expect(TokenKind::Colon, "after the parameter name"))
      return false;
    if (!parseType(param.type))
      return false;
    param.range = SourceRange(file, param.range.begin, prevEnd());
    fn.params.push_back(std::move(param));
    if (tok().is(TokenKind::Comma)) {
      consume();
      continue;
    }
    if (!tok().is(TokenKind::RParen)) {
      errorExpected("',' or ')' after the parameter");
      return false;
    }
  }
  consume();
  return true;
}

bool Parser::parseResults(FunctionDecl &fn) {
  if (!expect(TokenKind::Arrow, "and the result type"))
    return false;
  uint32_t begin = tok().range.begin;
  if (tok().is(TokenKind::LParen)) {
    consume();
    fn.resultIsTuple = true;
    while (true) {
      TypeSyntax type;
      if (!parseType(type))
        return false;
      fn.results.push_back(std::move(type));
      if (tok().is(TokenKind::Comma)) {
        consume();
        continue;
      }
      if (!expect(TokenKind::RParen, "after the result types"))
        return false;
      break;
    }
    if (fn.results.size() == 1)
      fn.resultIsTuple = false;
  } else {
    TypeSyntax type;
    if (!parseType(type))
      return false;
    fn.results.push_back(std::move(type));
  }
  fn.resultRange = SourceRange(file, begin, prevEnd());
  return true;
}

void Parser::parseFunction(Module &module) {
  FunctionDecl fn;
  fn.isKernel = tok().is(TokenKind::KwKernel);
  uint32_t begin = tok().range.begin;
  consume();
  bool headerOk = false;
  if (!tok().is(TokenKind::Identifier)) {
    errorExpected(fn.isKernel ? "a kernel name" : "a fn name");
  } else {
    fn.name = tok().text.str();
    fn.nameRange = tok().range;
    consume();
    headerOk = parseParams(fn) && parseResults(fn);
  }
  if (!headerOk) {
    // The parameters are incomplete, so checking the body would only
    // produce follow-on errors: skip it.
    fn.hadParseError = true;
    syncItem();
    fn.range = SourceRange(file, begin, prevEnd());
    if (!fn.name.empty())
      module.functions.push_back(std::move(fn));
    return;
  }
  uint32_t bodyBegin = tok().range.begin;
  if (!expect(TokenKind::LBrace, "to start the body")) {
    fn.hadParseError = true;
    syncItem();
    fn.range = SourceRange(file, begin, prevEnd());
    module.functions.push_back(std::move(fn));
    return;
  }
  while (!tok().is(TokenKind::RBrace) && !tok().is(TokenKind::Eof) &&
         !diags.limitReached()) {
    if (atItemStart())
      break;
    if (!parseStmt(fn))
      fn.hadParseError = true;
  }
  if (!expect(TokenKind::RBrace, "at the end of the body"))
    fn.hadParseError = true;
  fn.bodyRange = SourceRange(file, bodyBegin, prevEnd());
  fn.range = SourceRange(file, begin, prevEnd());
  module.functions.push_back(std::move(fn));
}

bool Parser::parseStmt(FunctionDecl &fn) {
  afterLexError = false;
  Stmt stmt;
  uint32_t begin = tok().range.begin;
  if (tok().is(TokenKind::KwLet)) {
    stmt.kind = Stmt::Kind::Let;
    consume();
    if (!tok().is(TokenKind::Identifier)) {
      errorExpected("a name after 'let'");
      syncStmt();
      return false;
    }
    stmt.name = tok().text.str();
    stmt.nameRange = tok().range;
    consume();
    if (!expect(TokenKind::Assign, "after the let name")) {
      syncStmt();
      stmt.value = std::make_unique<ErrorExpr>(stmt.nameRange);
      stmt.range = SourceRange(file, begin, prevEnd());
      fn.body.push_back(std::move(stmt));
      return false;
    }
  } else if (tok().is(TokenKind::KwReturn)) {
    stmt.kind = Stmt::Kind::Return;
    consume();
  } else {
    if (tok().is(TokenKind::Error))
      consume();
    else
      errorExpected("a statement ('let' or 'return')");
    syncStmt();
    return false;
  }
  stmt.value = parseExpr();
  bool ok = stmt.value != nullptr;
  if (ok)
    ok = expect(TokenKind::Semicolon, stmt.kind == Stmt::Kind::Let
                                          ? "after the let statement"
                                          : "after the return value");
  if (!stmt.value)
    stmt.value = std::make_unique<ErrorExpr>(
        SourceRange(file, begin, std::max(begin, prevEnd())));
  stmt.range = SourceRange(file, begin, std::max(begin, prevEnd()));
  fn.body.push_back(std::move(stmt));
  if (!ok)
    syncStmt();
  return ok;
}

std::unique_ptr<Module> accy::parseTokens(FileID file,
                                          const std::vector<Token> &tokens,
                                          DiagnosticEngine &diags) {
  Parser parser(file, tokens, diags);
  return parser.parseModule();
}

std::unique_ptr<Module> accy::parseFile(FileID file, DiagnosticEngine &diags) {
  std::vector<Token> tokens = lexFile(file, diags);
  return parseTokens(file, tokens, diags);
}
