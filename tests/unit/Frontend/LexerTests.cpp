// Tests of the lexer: every token kind, comments, literals, lexical errors.
#include "accy/Frontend/Lexer.h"

#include <catch2/catch.hpp>

using namespace accy;

namespace {
struct Lexed {
  SourceManager sm;
  std::vector<Token> tokens;
  std::vector<Diagnostic> diags;
  std::vector<TokenKind> kinds() const {
    std::vector<TokenKind> out;
    for (const Token &t : tokens)
      out.push_back(t.kind);
    return out;
  }
};

std::unique_ptr<Lexed> lex(const std::string &text) {
  auto l = std::make_unique<Lexed>();
  FileID file = l->sm.addBuffer("lex.accy", text);
  DiagnosticEngine diags(l->sm, 0);
  l->tokens = lexFile(file, diags);
  l->diags = diags.takeDiagnostics();
  return l;
}
} // namespace

TEST_CASE("every keyword is its own token kind", "[lexer]") {
  auto l = lex("kernel fn let return import const true false "
               "f16 bf16 f32 f64 i32 i64 bool");
  using K = TokenKind;
  std::vector<K> want = {K::KwKernel, K::KwFn,  K::KwLet,   K::KwReturn,
                         K::KwImport, K::KwConst, K::KwTrue, K::KwFalse,
                         K::KwF16,    K::KwBF16, K::KwF32,  K::KwF64,
                         K::KwI32,    K::KwI64, K::KwBool, K::Eof};
  CHECK(l->kinds() == want);
  CHECK(l->diags.empty());
  for (TokenKind k : want)
    if (k >= K::KwF16 && k <= K::KwBool)
      CHECK(isElementTypeKeyword(k));
  CHECK_FALSE(isElementTypeKeyword(K::KwLet));
}

TEST_CASE("every punctuation and operator token", "[lexer]") {
  auto l = lex("( ) [ ] { } , : ; -> = + - * / @ < <= > >= == !=");
  using K = TokenKind;
  std::vector<K> want = {
      K::LParen, K::RParen,    K::LBracket, K::RBracket,   K::LBrace,
      K::RBrace, K::Comma,     K::Colon,    K::Semicolon,  K::Arrow,
      K::Assign, K::Plus,      K::Minus,    K::Star,       K::Slash,
      K::At,     K::Less,      K::LessEqual, K::Greater,   K::GreaterEqual,
      K::EqualEqual, K::NotEqual, K::Eof};
  CHECK(l->kinds() == want);
  CHECK(l->diags.empty());
  for (TokenKind k : want)
    CHECK_FALSE(tokenKindName(k).empty());
}

TEST_CASE("identifiers, literals and their spelling", "[lexer]") {
  auto l = lex("x _y Batch2 42 1.5 1e-5 .5 2E+3 7. \"bi,ij->bj\"");
  using K = TokenKind;
  std::vector<K> want = {K::Identifier,   K::Identifier,   K::Identifier,
                         K::IntLiteral,   K::FloatLiteral, K::FloatLiteral,
                         K::FloatLiteral, K::FloatLiteral, K::FloatLiteral,
                         K::StringLiteral, K::Eof};
  REQUIRE(l->kinds() == want);
  CHECK(l->tokens[2].text == "Batch2");
  CHECK(l->tokens[5].text == "1e-5");
  CHECK(l->tokens[6].text == ".5");
  CHECK(l->tokens[9].text == "\"bi,ij->bj\"");
  CHECK(l->diags.empty());
}

TEST_CASE("token ranges are byte offsets", "[lexer]") {
  auto l = lex("let  x = 1;");
  REQUIRE(l->tokens.size() == 6);
  CHECK(l->tokens[1].range.begin == 5);
  CHECK(l->tokens[1].range.end == 6);
  CHECK(l->tokens.back().is(TokenKind::Eof));
  CHECK(l->tokens.back().range.begin == 11);
}

TEST_CASE("comments and whitespace are skipped", "[lexer]") {
  auto l = lex("// line comment\nlet /* block\n comment */ x\r\n\t= 1; // end");
  using K = TokenKind;
  CHECK(l->kinds() == std::vector<K>{K::KwLet, K::Identifier, K::Assign,
                                     K::IntLiteral, K::Semicolon, K::Eof});
  CHECK(l->diags.empty());
}

TEST_CASE("a byte order mark is ignored", "[lexer]") {
  auto l = lex("\xEF\xBB\xBFlet");
  CHECK(l->kinds() == std::vector<TokenKind>{TokenKind::KwLet, TokenKind::Eof});
}

TEST_CASE("block comments do not nest", "[lexer]") {
  auto l = lex("/* a /* b */ x */");
  // "x" and "*" and "/" follow the first "*/".
  CHECK(l->kinds() == std::vector<TokenKind>{TokenKind::Identifier,
                                             TokenKind::Star, TokenKind::Slash,
                                             TokenKind::Eof});
}

TEST_CASE("lexical errors", "[lexer]") {
  SECTION("invalid character (E0001)") {
    auto l = lex("let x = 1 $ 2;");
    REQUIRE(l->diags.size() == 1);
    CHECK(l->diags[0].code == DiagCode::InvalidCharacter);
    CHECK(l->diags[0].message == "invalid character '$' in the source");
    CHECK(l->diags[0].begin.col == 11);
    CHECK(l->diags[0].end.col == 12);
  }
  SECTION("a non-ASCII character names its code point (E0001)") {
    auto l = lex("let \xC3\xA9 = 1;");
    REQUIRE(l->diags.size() == 1);
    CHECK(l->diags[0].code == DiagCode::InvalidCharacter);
    CHECK(l->diags[0].message ==
          "invalid character '\xC3\xA9' (U+00E9) in the source");
  }
  SECTION("a run of bad bytes is one diagnostic (E0002)") {
    auto l = lex("let x\xFF\xFE\x80 = 1;");
    REQUIRE(l->diags.size() == 1);
    CHECK(l->diags[0].code == DiagCode::InvalidUtf8);
    CHECK(l->diags[0].range.size() == 3);
  }
  SECTION("unterminated string (E0003)") {
    auto l = lex("import \"a.accy;\nlet");
    REQUIRE(l->diags.size() == 1);
    CHECK(l->diags[0].code == DiagCode::UnterminatedString);
    CHECK(l->tokens[1].is(TokenKind::Error));
    CHECK(l->tokens[2].is(TokenKind::KwLet));
  }
  SECTION("unterminated block comment (E0004)") {
    auto l = lex("let x /* never closed");
    REQUIRE(l->diags.size() == 1);
    CHECK(l->diags[0].code == DiagCode::UnterminatedComment);
    CHECK(l->diags[0].range.begin == 6);
  }
  SECTION("malformed numbers (E0005)") {
    auto l = lex("1e 12abc 1e999");
    REQUIRE(l->diags.size() == 3);
    for (const Diagnostic &d : l->diags)
      CHECK(d.code == DiagCode::InvalidNumber);
    CHECK(l->diags[0].message ==
          "malformed numeric literal '1e': the exponent has no digits");
    CHECK(l->diags[1].message ==
          "malformed numeric literal '12abc': invalid suffix 'abc'");
  }
  SECTION("integer too large (E0006)") {
    auto l = lex("9223372036854775807 9223372036854775808");
    REQUIRE(l->diags.size() == 1);
    CHECK(l->diags[0].code == DiagCode::IntegerTooLarge);
    CHECK(l->tokens[0].is(TokenKind::IntLiteral));
    CHECK(l->tokens[1].is(TokenKind::Error));
  }
  SECTION("a lone '!' or '.' is invalid") {
    auto l = lex("a ! b . c");
    CHECK(l->diags.size() == 2);
  }
}

TEST_CASE("keywordKind maps spellings", "[lexer]") {
  CHECK(keywordKind("kernel") == TokenKind::KwKernel);
  CHECK(keywordKind("bf16") == TokenKind::KwBF16);
  CHECK(keywordKind("Kernel") == TokenKind::Identifier);
}
