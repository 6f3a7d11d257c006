// Tests of formatFile: what the language server relies on (token offsets,
// refusal as a value) and inputs the lit tests do not spell (CRLF, empty
// files, comments inside expressions).
#include "accy/Format/Format.h"

#include <catch2/catch.hpp>

using namespace accy;

namespace {
struct Formatted {
  SourceManager sm;
  std::optional<FormattedFile> file;
  std::string error;
  std::vector<Diagnostic> diags;
};

std::unique_ptr<Formatted> format(const std::string &text,
                                  FormatOptions options = {}) {
  auto f = std::make_unique<Formatted>();
  FileID file = f->sm.addBuffer("fmt.accy", text);
  DiagnosticEngine diags(f->sm);
  llvm::Expected<FormattedFile> result = formatFile(file, diags, options);
  if (result)
    f->file = std::move(*result);
  else
    f->error = llvm::toString(result.takeError());
  f->diags = diags.takeDiagnostics();
  return f;
}

std::string formatted(const std::string &text, FormatOptions options = {}) {
  auto f = format(text, options);
  REQUIRE(f->file);
  return f->file->text;
}
} // namespace

TEST_CASE("each token's offset in the output points at its text", "[format]") {
  auto f = format("kernel  k(x:f32[N])->f32[N]{let y=x*2.0;return y;}\n");
  REQUIRE(f->file);
  const FormattedFile &out = *f->file;
  REQUIRE(out.tokens.size() == out.formattedOffsets.size());
  REQUIRE(out.tokens.size() == 27);
  for (size_t i = 0; i < out.tokens.size(); ++i)
    CHECK(llvm::StringRef(out.text).substr(out.formattedOffsets[i]).starts_with(
        out.tokens[i].text));
}

TEST_CASE("a file that does not parse is an error, with diagnostics", "[format]") {
  auto f = format("kernel k(x: f32[N]) -> f32[N] {\n  return x +;\n}\n");
  CHECK_FALSE(f->file);
  CHECK(f->error == "fmt.accy does not parse; it is left as it is");
  REQUIRE(f->diags.size() == 1);
  CHECK(f->diags[0].code == DiagCode::ExpectedToken);
  // A lexical error is refused the same way.
  CHECK_FALSE(format("const A = 1 $;\n")->file);
}

TEST_CASE("the indent width is the only option", "[format]") {
  std::string text = "fn f(x: f32) -> f32 { return x; }\n";
  CHECK(formatted(text) == "fn f(x: f32) -> f32 {\n  return x;\n}\n");
  CHECK(formatted(text, {4}) == "fn f(x: f32) -> f32 {\n    return x;\n}\n");
}

TEST_CASE("CRLF lines become LF, line comments lose trailing blanks", "[format]") {
  CHECK(formatted("const A = 1; // one  \r\nconst B = 2;\r\n") ==
        "const A = 1; // one\nconst B = 2;\n");
}

TEST_CASE("empty and comment-only files", "[format]") {
  CHECK(formatted("") == "");
  CHECK(formatted("  \n\n") == "");
  CHECK(formatted("\n\n// only a comment\n\n\n") == "// only a comment\n");
}

TEST_CASE("comments inside an expression keep their lines", "[format]") {
  std::string text = "kernel k(x: f32[N]) -> f32[N] {\n"
                     "  return x // first\n"
                     "      * /* scale */ 2.0;\n"
                     "}\n";
  std::string once = formatted(text);
  CHECK(once == "kernel k(x: f32[N]) -> f32[N] {\n"
                "  return x // first\n"
                "      * /* scale */ 2.0;\n"
                "}\n");
  CHECK(formatted(once) == once);
}
