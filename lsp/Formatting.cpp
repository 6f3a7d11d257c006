//===- Formatting.cpp - textDocument/formatting and rangeFormatting -------===//

#include "Formatting.h"

#include "accy/Format/Format.h"

using namespace accy;
using namespace accy::lsp;

namespace {
/// [begin, end) of the original text and of the formatted text.
struct Span {
  uint32_t begin, end;
};

struct Replacement {
  Span original, formatted;
};
} // namespace

static bool isUtf8Continuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

/// Narrows a replacement to the bytes that differ, so the editor keeps its
/// cursor and marks outside them; the ends stay on character boundaries.
static Replacement narrow(std::string_view original, std::string_view formatted,
                          Replacement r) {
  while (r.original.begin < r.original.end &&
         r.formatted.begin < r.formatted.end &&
         original[r.original.begin] == formatted[r.formatted.begin]) {
    ++r.original.begin;
    ++r.formatted.begin;
  }
  while (r.original.begin > 0 && isUtf8Continuation(original[r.original.begin])) {
    --r.original.begin;
    --r.formatted.begin;
  }
  while (r.original.end > r.original.begin &&
         r.formatted.end > r.formatted.begin &&
         original[r.original.end - 1] == formatted[r.formatted.end - 1]) {
    --r.original.end;
    --r.formatted.end;
  }
  while (r.original.end < original.size() &&
         isUtf8Continuation(original[r.original.end])) {
    ++r.original.end;
    ++r.formatted.end;
  }
  return r;
}

/// Moves `begin` back over the blanks that start its line, so an item's
/// old indentation is replaced too.
static uint32_t lineStartIfBlank(std::string_view text, uint32_t begin) {
  uint32_t at = begin;
  while (at > 0 && (text[at - 1] == ' ' || text[at - 1] == '\t'))
    --at;
  return at == 0 || text[at - 1] == '\n' ? at : begin;
}

/// The span of the top-level items that `range` (byte offsets) touches, in
/// the original and in the formatted text; nullopt when it touches none.
static std::optional<Replacement> itemsTouching(const FormattedFile &file,
                                                Span range) {
  std::optional<size_t> first, last;
  size_t itemBegin = 0;
  unsigned depth = 0;
  for (size_t i = 0; i < file.tokens.size(); ++i) {
    const Token &token = file.tokens[i];
    if (token.is(TokenKind::LBrace))
      ++depth;
    else if (token.is(TokenKind::RBrace) && depth > 0)
      --depth;
    bool endsItem = depth == 0 && (token.is(TokenKind::Semicolon) ||
                                   token.is(TokenKind::RBrace));
    if (!endsItem)
      continue;
    if (file.tokens[itemBegin].range.begin <= range.end &&
        token.range.end >= range.begin) {
      if (!first)
        first = itemBegin;
      last = i;
    }
    itemBegin = i + 1;
  }
  if (!first)
    return std::nullopt;
  const Token &lastToken = file.tokens[*last];
  return Replacement{
      {file.tokens[*first].range.begin, lastToken.range.end},
      {file.formattedOffsets[*first],
       file.formattedOffsets[*last] + static_cast<uint32_t>(lastToken.text.size())}};
}

std::vector<TextEdit> accy::lsp::findFormattingEdits(const Analysis &analysis,
                                                     std::optional<Range> range) {
  const std::string &text = analysis.document().text;
  SourceManager sm;
  FileID file = sm.addBuffer(analysis.document().uri, text);
  DiagnosticEngine diags(sm);
  llvm::Expected<FormattedFile> formatted = formatFile(file, diags);
  if (!formatted) {
    // The diagnostics are already published; a broken file is not touched.
    llvm::consumeError(formatted.takeError());
    return {};
  }
  std::string_view original = sm.getText(file);
  const std::string &result = formatted->text;
  Replacement replacement{{0, static_cast<uint32_t>(original.size())},
                          {0, static_cast<uint32_t>(result.size())}};
  if (range) {
    std::optional<Replacement> items = itemsTouching(
        *formatted, {analysis.offsetOf(range->start), analysis.offsetOf(range->end)});
    if (!items)
      return {};
    replacement = *items;
    replacement.original.begin = lineStartIfBlank(original, replacement.original.begin);
    replacement.formatted.begin = lineStartIfBlank(result, replacement.formatted.begin);
  }
  replacement = narrow(original, result, replacement);
  if (replacement.original.begin == replacement.original.end &&
      replacement.formatted.begin == replacement.formatted.end)
    return {};
  return {TextEdit{analysis.index().rangeOf(replacement.original.begin,
                                            replacement.original.end),
                   result.substr(replacement.formatted.begin,
                                 replacement.formatted.end -
                                     replacement.formatted.begin)}};
}
