//===- Lexer.cpp - Tokenizer for Accy sources -----------------------------===//

#include "accy/Frontend/Lexer.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

using namespace accy;

llvm::StringRef accy::tokenKindName(TokenKind kind) {
  switch (kind) {
  case TokenKind::Eof: return "end of file";
  case TokenKind::Error: return "invalid token";
  case TokenKind::Identifier: return "identifier";
  case TokenKind::IntLiteral: return "integer literal";
  case TokenKind::FloatLiteral: return "float literal";
  case TokenKind::StringLiteral: return "string literal";
  case TokenKind::KwKernel: return "'kernel'";
  case TokenKind::KwFn: return "'fn'";
  case TokenKind::KwLet: return "'let'";
  case TokenKind::KwReturn: return "'return'";
  case TokenKind::KwImport: return "'import'";
  case TokenKind::KwConst: return "'const'";
  case TokenKind::KwTrue: return "'true'";
  case TokenKind::KwFalse: return "'false'";
  case TokenKind::KwF16: return "'f16'";
  case TokenKind::KwBF16: return "'bf16'";
  case TokenKind::KwF32: return "'f32'";
  case TokenKind::KwF64: return "'f64'";
  case TokenKind::KwI32: return "'i32'";
  case TokenKind::KwI64: return "'i64'";
  case TokenKind::KwBool: return "'bool'";
  case TokenKind::LParen: return "'('";
  case TokenKind::RParen: return "')'";
  case TokenKind::LBracket: return "'['";
  case TokenKind::RBracket: return "']'";
  case TokenKind::LBrace: return "'{'";
  case TokenKind::RBrace: return "'}'";
  case TokenKind::Comma: return "','";
  case TokenKind::Colon: return "':'";
  case TokenKind::Semicolon: return "';'";
  case TokenKind::Arrow: return "'->'";
  case TokenKind::Assign: return "'='";
  case TokenKind::Plus: return "'+'";
  case TokenKind::Minus: return "'-'";
  case TokenKind::Star: return "'*'";
  case TokenKind::Slash: return "'/'";
  case TokenKind::At: return "'@'";
  case TokenKind::Less: return "'<'";
  case TokenKind::LessEqual: return "'<='";
  case TokenKind::Greater: return "'>'";
  case TokenKind::GreaterEqual: return "'>='";
  case TokenKind::EqualEqual: return "'=='";
  case TokenKind::NotEqual: return "'!='";
  }
  return "token";
}

bool accy::isElementTypeKeyword(TokenKind kind) {
  return kind >= TokenKind::KwF16 && kind <= TokenKind::KwBool;
}

TokenKind accy::keywordKind(llvm::StringRef s) {
  return llvm::StringSwitch<TokenKind>(s)
      .Case("kernel", TokenKind::KwKernel)
      .Case("fn", TokenKind::KwFn)
      .Case("let", TokenKind::KwLet)
      .Case("return", TokenKind::KwReturn)
      .Case("import", TokenKind::KwImport)
      .Case("const", TokenKind::KwConst)
      .Case("true", TokenKind::KwTrue)
      .Case("false", TokenKind::KwFalse)
      .Case("f16", TokenKind::KwF16)
      .Case("bf16", TokenKind::KwBF16)
      .Case("f32", TokenKind::KwF32)
      .Case("f64", TokenKind::KwF64)
      .Case("i32", TokenKind::KwI32)
      .Case("i64", TokenKind::KwI64)
      .Case("bool", TokenKind::KwBool)
      .Default(TokenKind::Identifier);
}

namespace {
class Lexer {
public:
  Lexer(FileID file, DiagnosticEngine &diags)
      : file(file), diags(diags),
        text(diags.getSourceManager().getText(file)) {}

  std::vector<Token> run();

private:
  static bool isIdentStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  }
  static bool isDigit(char c) { return c >= '0' && c <= '9'; }
  static bool isIdentChar(char c) { return isIdentStart(c) || isDigit(c); }
  char peek(size_t ahead = 0) const {
    return pos + ahead < text.size() ? text[pos + ahead] : '\0';
  }
  bool atEnd() const { return pos >= text.size(); }
  SourceRange rangeFrom(size_t begin) const {
    return SourceRange(file, begin, pos);
  }
  void push(TokenKind kind, size_t begin) {
    tokens.push_back(
        {kind, rangeFrom(begin), text.substr(begin, pos - begin)});
  }

  bool skipTrivia();
  void lexNumber();
  void lexString();
  void lexInvalidRun();
  /// Length of a valid UTF-8 sequence at `i`, 0 if invalid.
  unsigned utf8Length(size_t i) const;
  /// True if the byte at `i` cannot start any token.
  bool isInvalidStart(size_t i) const;

  FileID file;
  DiagnosticEngine &diags;
  llvm::StringRef text;
  size_t pos = 0;
  std::vector<Token> tokens;
};
} // namespace

unsigned Lexer::utf8Length(size_t i) const {
  unsigned char c = text[i];
  unsigned len = c < 0x80 ? 1 : c >= 0xC2 && c < 0xE0 ? 2
                 : c >= 0xE0 && c < 0xF0             ? 3
                 : c >= 0xF0 && c < 0xF5             ? 4
                                                     : 0;
  if (len == 0 || i + len > text.size())
    return 0;
  for (unsigned k = 1; k < len; ++k)
    if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80)
      return 0;
  // Reject overlong forms and surrogates via LLVM's validator.
  const auto *p = reinterpret_cast<const llvm::UTF8 *>(text.data() + i);
  if (!llvm::isLegalUTF8Sequence(p, p + len))
    return 0;
  return len;
}

bool Lexer::isInvalidStart(size_t i) const {
  unsigned char c = text[i];
  if (c >= 0x80)
    return true;
  if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
    return false;
  if (c < 0x20 || c == 0x7F)
    return true;
  switch (c) {
  case '#': case '$': case '%': case '^': case '&': case '|': case '~':
  case '?': case '\'': case '`': case '\\':
    return true;
  case '!':
    return !(i + 1 < text.size() && text[i + 1] == '=');
  case '.':
    return !(i + 1 < text.size() && isDigit(text[i + 1]));
  default:
    return false;
  }
}

bool Lexer::skipTrivia() {
  while (!atEnd()) {
    char c = peek();
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++pos;
    } else if (c == '/' && peek(1) == '/') {
      while (!atEnd() && peek() != '\n')
        ++pos;
    } else if (c == '/' && peek(1) == '*') {
      size_t begin = pos;
      size_t close = text.find("*/", pos + 2);
      if (close == llvm::StringRef::npos) {
        pos = text.size();
        diags.error(DiagCode::UnterminatedComment,
                    SourceRange(file, begin, begin + 2),
                    "unterminated block comment; '/*' has no matching '*/'");
        return false;
      }
      pos = close + 2;
    } else {
      return true;
    }
  }
  return false;
}

void Lexer::lexNumber() {
  size_t begin = pos;
  bool isFloat = false;
  while (isDigit(peek()))
    ++pos;
  if (peek() == '.' && peek(1) != '.') {
    isFloat = true;
    ++pos;
    while (isDigit(peek()))
      ++pos;
  }
  bool badExponent = false;
  if (peek() == 'e' || peek() == 'E') {
    size_t save = pos;
    ++pos;
    if (peek() == '+' || peek() == '-')
      ++pos;
    if (isDigit(peek())) {
      isFloat = true;
      while (isDigit(peek()))
        ++pos;
    } else {
      badExponent = true;
      (void)save;
    }
  }
  if (badExponent || isIdentChar(peek())) {
    size_t suffixBegin = pos;
    while (isIdentChar(peek()))
      ++pos;
    llvm::StringRef spelling = text.substr(begin, pos - begin);
    if (badExponent)
      diags.error(DiagCode::InvalidNumber, rangeFrom(begin),
                  "malformed numeric literal '" + spelling.str() +
                      "': the exponent has no digits");
    else
      diags.error(DiagCode::InvalidNumber, rangeFrom(begin),
                  "malformed numeric literal '" + spelling.str() +
                      "': invalid suffix '" +
                      text.substr(suffixBegin, pos - suffixBegin).str() + "'");
    push(TokenKind::Error, begin);
    return;
  }
  llvm::StringRef spelling = text.substr(begin, pos - begin);
  if (isFloat) {
    std::string copy = spelling.str();
    errno = 0;
    double value = std::strtod(copy.c_str(), nullptr);
    if (std::isinf(value) || errno == ERANGE) {
      if (std::isinf(value) || value != 0) {
        diags.error(DiagCode::InvalidNumber, rangeFrom(begin),
                    "float literal '" + copy + "' is out of range for f64");
        push(TokenKind::Error, begin);
        return;
      }
    }
    push(TokenKind::FloatLiteral, begin);
    return;
  }
  uint64_t value = 0;
  for (char c : spelling) {
    unsigned digit = c - '0';
    if (value > (uint64_t(INT64_MAX) - digit) / 10) {
      diags.error(DiagCode::IntegerTooLarge, rangeFrom(begin),
                  "integer literal '" + spelling.str() +
                      "' is too large; the maximum is 9223372036854775807");
      push(TokenKind::Error, begin);
      return;
    }
    value = value * 10 + digit;
  }
  push(TokenKind::IntLiteral, begin);
}

void Lexer::lexString() {
  size_t begin = pos;
  ++pos; // Opening quote.
  bool badUtf8 = false;
  size_t badAt = 0;
  while (!atEnd() && peek() != '"' && peek() != '\n') {
    if (static_cast<unsigned char>(peek()) >= 0x80) {
      unsigned len = utf8Length(pos);
      if (len == 0) {
        if (!badUtf8)
          badAt = pos;
        badUtf8 = true;
        ++pos;
        continue;
      }
      pos += len;
      continue;
    }
    ++pos;
  }
  if (badUtf8)
    diags.error(DiagCode::InvalidUtf8, SourceRange(file, badAt, badAt + 1),
                "invalid UTF-8 in string literal");
  if (peek() != '"') {
    size_t end = pos;
    if (end > begin && text[end - 1] == '\r')
      --end;
    diags.error(DiagCode::UnterminatedString, SourceRange(file, begin, end),
                "unterminated string literal; add a closing '\"'");
    push(TokenKind::Error, begin);
    return;
  }
  ++pos; // Closing quote.
  push(TokenKind::StringLiteral, begin);
}

static std::string describeBytes(llvm::StringRef bytes) {
  std::string out;
  llvm::raw_string_ostream os(out);
  for (unsigned char c : bytes.take_front(8))
    os << llvm::format("\\x%02X", c);
  if (bytes.size() > 8)
    os << "...";
  return os.str();
}

void Lexer::lexInvalidRun() {
  size_t begin = pos;
  bool badUtf8 = false;
  // Always consume at least one byte so lexing makes progress.
  while (!atEnd() && (pos == begin || isInvalidStart(pos))) {
    unsigned len = utf8Length(pos);
    if (len == 0) {
      badUtf8 = true;
      ++pos;
    } else {
      pos += len;
    }
  }
  llvm::StringRef run = text.substr(begin, pos - begin);
  if (badUtf8) {
    diags.error(DiagCode::InvalidUtf8, rangeFrom(begin),
                "invalid UTF-8 byte sequence " + describeBytes(run) +
                    "; Accy sources must be UTF-8");
  } else {
    // Name the first character: printable ASCII as itself, the rest as
    // its code point.
    std::string what;
    unsigned char c = run[0];
    if (c >= 0x20 && c < 0x7F) {
      what = "'" + std::string(1, c) + "'";
    } else {
      unsigned len = utf8Length(begin);
      llvm::UTF32 cp = 0;
      const auto *p = reinterpret_cast<const llvm::UTF8 *>(run.data());
      const llvm::UTF8 *src = p;
      llvm::UTF32 *dst = &cp;
      llvm::ConvertUTF8toUTF32(&src, p + len, &dst, dst + 1,
                               llvm::strictConversion);
      char buf[16];
      std::snprintf(buf, sizeof(buf), "U+%04X", static_cast<unsigned>(cp));
      what = c >= 0x80 ? "'" + run.substr(0, len).str() + "' (" + buf + ")"
                       : std::string(buf);
    }
    diags.error(DiagCode::InvalidCharacter, rangeFrom(begin),
                "invalid character " + what + " in the source");
  }
  push(TokenKind::Error, begin);
}

std::vector<Token> Lexer::run() {
  // Skip a UTF-8 byte order mark.
  if (text.starts_with("\xEF\xBB\xBF"))
    pos = 3;
  while (true) {
    if (diags.limitReached())
      break;
    if (!skipTrivia())
      break;
    size_t begin = pos;
    char c = peek();
    if (isIdentStart(c)) {
      while (isIdentChar(peek()))
        ++pos;
      push(keywordKind(text.substr(begin, pos - begin)), begin);
      continue;
    }
    if (isDigit(c) || (c == '.' && isDigit(peek(1)))) {
      lexNumber();
      continue;
    }
    if (c == '"') {
      lexString();
      continue;
    }
    if (isInvalidStart(pos)) {
      lexInvalidRun();
      continue;
    }
    TokenKind kind;
    size_t len = 1;
    switch (c) {
    case '(': kind = TokenKind::LParen; break;
    case ')': kind = TokenKind::RParen; break;
    case '[': kind = TokenKind::LBracket; break;
    case ']': kind = TokenKind::RBracket; break;
    case '{': kind = TokenKind::LBrace; break;
    case '}': kind = TokenKind::RBrace; break;
    case ',': kind = TokenKind::Comma; break;
    case ':': kind = TokenKind::Colon; break;
    case ';': kind = TokenKind::Semicolon; break;
    case '+': kind = TokenKind::Plus; break;
    case '*': kind = TokenKind::Star; break;
    case '/': kind = TokenKind::Slash; break;
    case '@': kind = TokenKind::At; break;
    case '-':
      kind = peek(1) == '>' ? (len = 2, TokenKind::Arrow) : TokenKind::Minus;
      break;
    case '=':
      kind = peek(1) == '=' ? (len = 2, TokenKind::EqualEqual)
                            : TokenKind::Assign;
      break;
    case '<':
      kind = peek(1) == '=' ? (len = 2, TokenKind::LessEqual)
                            : TokenKind::Less;
      break;
    case '>':
      kind = peek(1) == '=' ? (len = 2, TokenKind::GreaterEqual)
                            : TokenKind::Greater;
      break;
    case '!': kind = TokenKind::NotEqual; len = 2; break;
    default:
      // isInvalidStart covers every other byte; be safe anyway.
      lexInvalidRun();
      continue;
    }
    pos += len;
    push(kind, begin);
  }
  pos = text.size();
  push(TokenKind::Eof, pos);
  return std::move(tokens);
}

std::vector<Token> accy::lexFile(FileID file, DiagnosticEngine &diags) {
  return Lexer(file, diags).run();
}
