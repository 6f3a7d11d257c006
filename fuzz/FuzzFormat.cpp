//===- FuzzFormat.cpp - libFuzzer target: accy-format's guarantees --------===//
//
// For any bytes that parse, formatting must not crash, must keep the token
// sequence (so the meaning) and every comment (compared without white
// space), and must reach its fixed point in one step. A broken guarantee
// aborts, which libFuzzer reports with the input.
//
//===----------------------------------------------------------------------===//

#include "accy/Format/Format.h"
#include "accy/Frontend/Lexer.h"

#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace accy;

static void require(bool holds, const char *guarantee) {
  if (holds)
    return;
  llvm::errs() << "accy-format broke a guarantee: " << guarantee << "\n";
  std::abort();
}

/// The text between tokens without white space: the comments, run together.
static std::string commentsOf(llvm::StringRef text,
                              const std::vector<Token> &tokens) {
  std::string comments;
  uint32_t at = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  for (const Token &token : tokens) {
    for (char c : text.slice(at, token.range.begin))
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f' &&
          c != '\v')
        comments += c;
    at = token.range.end;
  }
  return comments;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  SourceManager sm;
  DiagnosticEngine diags(sm);
  FileID input = sm.addBuffer("/fuzz/input.accy", text.str());
  llvm::Expected<FormattedFile> once = formatFile(input, diags);
  if (!once) {
    llvm::consumeError(once.takeError());
    return 0;
  }
  FileID output = sm.addBuffer("/fuzz/formatted.accy", once->text);
  DiagnosticEngine again(sm);
  llvm::Expected<FormattedFile> twice = formatFile(output, again);
  require(static_cast<bool>(twice), "the formatted text parses");
  require(twice->text == once->text, "formatting is a fixed point");
  require(twice->tokens.size() == once->tokens.size(), "same tokens");
  for (size_t i = 0; i < once->tokens.size(); ++i)
    require(once->tokens[i].kind == twice->tokens[i].kind &&
                once->tokens[i].text == twice->tokens[i].text,
            "same tokens");
  // The Eof token's position closes the last gap.
  std::vector<Token> inputTokens = once->tokens, outputTokens = twice->tokens;
  inputTokens.push_back({TokenKind::Eof, SourceRange(input, size, size), ""});
  outputTokens.push_back({TokenKind::Eof,
                          SourceRange(output, once->text.size(),
                                      once->text.size()),
                          ""});
  // The formatter drops a leading byte order mark, which the lexer skips.
  require(commentsOf(text, inputTokens) ==
              commentsOf(once->text, outputTokens),
          "every comment is kept");
  return 0;
}
