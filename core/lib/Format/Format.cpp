//===- Format.cpp - The canonical layout of Accy source -------------------===//
//
// The layout is decided token by token from the token kinds and the open
// brackets: statements and items start lines, a line break the author wrote
// after a comma, an operator or an opening bracket is kept (continuation
// lines align after the innermost open bracket), every other break is
// dropped. Comments keep their place relative to the tokens and to line
// breaks, blank-line groups between statements and items shrink to one blank
// line. Everything the layout reads about line breaks it also writes, which
// is why one pass reaches the fixed point.
//
//===----------------------------------------------------------------------===//

#include "accy/Format/Format.h"

#include "Trivia.h"

#include "accy/Frontend/Lexer.h"
#include "accy/Frontend/Parser.h"

using namespace accy;
using namespace accy::format;

namespace {
enum class Break : uint8_t {
  Never,     ///< The two tokens share a line unless a comment intervenes.
  IfWritten, ///< Kept where the source breaks the line.
  Always,    ///< A statement or item boundary.
};

class Layout {
public:
  Layout(llvm::StringRef source, std::vector<Token> tokens,
         const FormatOptions &options)
      : source(source), tokens(std::move(tokens)),
        width(options.indentWidth) {
    markTypeArguments();
  }

  FormattedFile run();

private:
  struct OpenBracket {
    size_t tokenIndex;
    unsigned columnAfter; ///< Where items align when the line goes on.
    unsigned lineIndent;  ///< Indent of the line that opened it.
    bool brokeAfter = false; ///< The bracket ended its line.
  };

  void markTypeArguments();
  bool isUnaryMinus(size_t i) const;
  bool isBinaryOperator(size_t i) const;
  Break breakBefore(size_t i) const;
  bool needsSpace(size_t i) const;
  unsigned blockIndent() const { return braceDepth * width; }
  unsigned continuationIndent() const;
  unsigned indentBefore(size_t i, bool boundary) const;

  /// Lays out the trivia between token i-1 and token i (i == tokens.size()
  /// for the end of the file).
  void placeGap(size_t i);
  void emitToken(size_t i);
  void startLine(bool blankLine, size_t nextIndex);
  void indentTo(unsigned column);
  void append(llvm::StringRef text);
  bool atLineStart() const { return out.empty() || out.back() == '\n'; }
  unsigned column() const { return out.size() - lineStart; }

  llvm::StringRef source;
  std::vector<Token> tokens;
  unsigned width;
  std::vector<bool> typeArgBracket; ///< The < and > of cast<T>.
  std::vector<uint32_t> offsets;
  std::vector<OpenBracket> brackets;
  unsigned braceDepth = 0;
  unsigned currentLineIndent = 0;
  size_t lineStart = 0;
  std::string out;
};
} // namespace

void Layout::markTypeArguments() {
  typeArgBracket.assign(tokens.size(), false);
  for (size_t i = 1; i + 1 < tokens.size(); ++i) {
    if (!tokens[i].is(TokenKind::Less) ||
        !tokens[i - 1].is(TokenKind::Identifier) ||
        !isElementTypeKeyword(tokens[i + 1].kind))
      continue;
    typeArgBracket[i] = true;
    for (size_t j = i + 1; j < tokens.size(); ++j)
      if (tokens[j].is(TokenKind::Greater)) {
        typeArgBracket[j] = true;
        break;
      }
  }
}

bool Layout::isUnaryMinus(size_t i) const {
  if (!tokens[i].is(TokenKind::Minus))
    return false;
  if (i == 0)
    return true;
  switch (tokens[i - 1].kind) {
  case TokenKind::Identifier:
  case TokenKind::IntLiteral:
  case TokenKind::FloatLiteral:
  case TokenKind::StringLiteral:
  case TokenKind::KwTrue:
  case TokenKind::KwFalse:
  case TokenKind::RParen:
  case TokenKind::RBracket:
    return false;
  default:
    return true;
  }
}

bool Layout::isBinaryOperator(size_t i) const {
  switch (tokens[i].kind) {
  case TokenKind::Plus:
  case TokenKind::Star:
  case TokenKind::Slash:
  case TokenKind::At:
  case TokenKind::LessEqual:
  case TokenKind::GreaterEqual:
  case TokenKind::EqualEqual:
  case TokenKind::NotEqual:
    return true;
  case TokenKind::Less:
  case TokenKind::Greater:
    return !typeArgBracket[i];
  case TokenKind::Minus:
    return !isUnaryMinus(i);
  default:
    return false;
  }
}

Break Layout::breakBefore(size_t i) const {
  if (i == 0 || i == tokens.size())
    return Break::Always;
  TokenKind prev = tokens[i - 1].kind;
  if (prev == TokenKind::Semicolon || prev == TokenKind::LBrace ||
      prev == TokenKind::RBrace || tokens[i].is(TokenKind::RBrace))
    return Break::Always;
  if (prev == TokenKind::Comma || prev == TokenKind::LParen ||
      prev == TokenKind::LBracket || prev == TokenKind::Assign ||
      prev == TokenKind::Arrow || tokens[i].is(TokenKind::Arrow) ||
      isBinaryOperator(i - 1))
    return Break::IfWritten;
  return Break::Never;
}

bool Layout::needsSpace(size_t i) const {
  TokenKind prev = tokens[i - 1].kind, next = tokens[i].kind;
  switch (next) {
  case TokenKind::RParen:
  case TokenKind::RBracket:
  case TokenKind::Comma:
  case TokenKind::Semicolon:
    return false;
  case TokenKind::Colon: // `x[:, :-2]`, but `x[a:b]` and `x: f32`.
    return prev == TokenKind::Comma;
  default:
    break;
  }
  if (prev == TokenKind::LParen || prev == TokenKind::LBracket ||
      typeArgBracket[i - 1] || typeArgBracket[i])
    return false;
  bool inParens =
      !brackets.empty() && tokens[brackets.back().tokenIndex].is(TokenKind::LParen);
  // `x: f32` in a parameter list, `x[a:b]` in a slice.
  if (prev == TokenKind::Colon)
    return inParens;
  // `let y = x;` but `sum(x, axis=1)`.
  if (prev == TokenKind::Assign || next == TokenKind::Assign)
    return !inParens;
  // `-x`, and `- -x` rather than `--x`.
  if (isUnaryMinus(i - 1))
    return next == TokenKind::Minus;
  if (next == TokenKind::LParen)
    return prev != TokenKind::Identifier;
  if (next == TokenKind::LBracket)
    return prev != TokenKind::Identifier && !isElementTypeKeyword(prev) &&
           prev != TokenKind::RParen && prev != TokenKind::RBracket;
  return true;
}

unsigned Layout::continuationIndent() const {
  if (brackets.empty())
    return blockIndent() + 2 * width;
  const OpenBracket &open = brackets.back();
  return open.brokeAfter ? open.lineIndent + width : open.columnAfter;
}

unsigned Layout::indentBefore(size_t i, bool boundary) const {
  bool closesBlock = i < tokens.size() && tokens[i].is(TokenKind::RBrace);
  if (boundary)
    return closesBlock && braceDepth > 0 ? blockIndent() - width
                                         : blockIndent();
  bool closesBracket = i < tokens.size() &&
                       (tokens[i].is(TokenKind::RParen) ||
                        tokens[i].is(TokenKind::RBracket));
  if (closesBracket && !brackets.empty()) {
    const OpenBracket &open = brackets.back();
    return open.brokeAfter ? open.lineIndent : open.columnAfter;
  }
  return continuationIndent();
}

void Layout::append(llvm::StringRef text) {
  out.append(text.begin(), text.end());
  size_t lastNewline = text.rfind('\n');
  if (lastNewline != llvm::StringRef::npos)
    lineStart = out.size() - (text.size() - lastNewline - 1);
}

void Layout::indentTo(unsigned indent) {
  out.append(indent, ' ');
  currentLineIndent = indent;
}

void Layout::startLine(bool blankLine, size_t nextIndex) {
  // Breaking right after an opening bracket indents its items one level
  // instead of aligning them after the bracket.
  if (!brackets.empty() && brackets.back().tokenIndex + 1 == nextIndex)
    brackets.back().brokeAfter = true;
  append(blankLine ? "\n\n" : "\n");
}

void Layout::placeGap(size_t i) {
  uint32_t begin = i == 0 ? 0 : tokens[i - 1].range.end;
  uint32_t end = i < tokens.size() ? tokens[i].range.begin : source.size();
  Gap gap = scanGap(source.slice(begin, end));
  Break brk = breakBefore(i);
  bool boundary = brk == Break::Always;
  bool blankAllowed =
      boundary && !(i > 0 && tokens[i - 1].is(TokenKind::LBrace));
  bool lineCommentOpen = false;
  // A block comment that starts the line of a statement stays in front of
  // it: `/* why */ const B = 2;`.
  bool commentLeadsLine = false;
  for (const Comment &comment : gap.comments) {
    commentLeadsLine = out.empty() || comment.newlinesBefore > 0 ||
                       lineCommentOpen;
    if (out.empty()) {
      // The file starts with a comment.
    } else if (commentLeadsLine) {
      startLine(blankAllowed && comment.newlinesBefore >= 2, i);
      indentTo(boundary ? blockIndent() : continuationIndent());
    } else {
      append(" ");
    }
    append(comment.text);
    lineCommentOpen = comment.isLineComment;
    blankAllowed = boundary;
  }
  if (i == tokens.size()) {
    if (!out.empty())
      append("\n");
    return;
  }
  bool keepsLeadingComment = commentLeadsLine && !lineCommentOpen &&
                             gap.newlinesAfter == 0;
  bool newline = !out.empty() &&
                 ((boundary && i > 0 && !keepsLeadingComment) ||
                  lineCommentOpen ||
                  (gap.newlinesAfter > 0 &&
                   (brk == Break::IfWritten || (boundary && i == 0))));
  if (newline) {
    bool blank = blankAllowed && gap.newlinesAfter >= 2 &&
                 !tokens[i].is(TokenKind::RBrace);
    startLine(blank, i);
    indentTo(indentBefore(i, boundary));
  } else if (!gap.comments.empty() && !out.empty()) {
    append(" ");
  } else if (i > 0 && needsSpace(i)) {
    append(" ");
  }
}

void Layout::emitToken(size_t i) {
  const Token &token = tokens[i];
  if (token.is(TokenKind::RBrace) && braceDepth > 0)
    --braceDepth;
  if ((token.is(TokenKind::RParen) || token.is(TokenKind::RBracket)) &&
      !brackets.empty())
    brackets.pop_back();
  offsets.push_back(out.size());
  append(token.text);
  if (token.is(TokenKind::LBrace))
    ++braceDepth;
  if (token.is(TokenKind::LParen) || token.is(TokenKind::LBracket))
    brackets.push_back({i, column(), currentLineIndent});
}

FormattedFile Layout::run() {
  out.reserve(source.size() + source.size() / 8);
  for (size_t i = 0; i < tokens.size(); ++i) {
    placeGap(i);
    emitToken(i);
  }
  placeGap(tokens.size());
  return {std::move(out), std::move(tokens), std::move(offsets)};
}

llvm::Expected<FormattedFile> accy::formatFile(FileID file,
                                               DiagnosticEngine &diags,
                                               const FormatOptions &options) {
  std::vector<Token> tokens = lexFile(file, diags);
  if (!diags.hasErrors())
    parseTokens(file, tokens, diags);
  const SourceManager &sm = diags.getSourceManager();
  if (diags.hasErrors())
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "%s does not parse; it is left as it is",
        sm.getPath(file).str().c_str());
  tokens.pop_back(); // Eof
  return Layout(sm.getText(file), std::move(tokens), options).run();
}
