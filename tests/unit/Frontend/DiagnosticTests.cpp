// Tests of diagnostics: the catalog, the text format, limits, suggestions.
#include "TestUtil.h"

#include "llvm/Support/raw_ostream.h"

#include <catch2/catch.hpp>

#include <set>

using namespace accy;
using namespace accy::test;

TEST_CASE("codes are stable and unique", "[diagnostics]") {
  CHECK(diagCodeString(DiagCode::InvalidCharacter) == "E0001");
  CHECK(diagCodeString(DiagCode::ChainedComparison) == "E0012");
  CHECK(diagCodeString(DiagCode::EinsumSizeMismatch) == "E0053");
  std::set<unsigned> seen;
  for (DiagCode c : allDiagCodes()) {
    CHECK(seen.insert(static_cast<unsigned>(c)).second);
    CHECK_FALSE(diagCodeSummary(c).empty());
  }
}

TEST_CASE("the text format with a snippet", "[diagnostics]") {
  auto a = analyze("const A = 1;\nconst A = 2;\n");
  REQUIRE(a->result.diagnostics.size() == 1);
  CHECK(a->text(true) ==
        "/virtual/main.accy:2:7-2:8: error[E0020]: redefinition of 'A'; "
        "names must be unique in a file\n"
        "  2 | const A = 2;\n"
        "    |       ^\n"
        "/virtual/main.accy:1:7-1:8: note: previous definition is here\n");
  CHECK(a->text(false) ==
        "/virtual/main.accy:2:7-2:8: error[E0020]: redefinition of 'A'; "
        "names must be unique in a file\n"
        "/virtual/main.accy:1:7-1:8: note: previous definition is here\n");
}

TEST_CASE("the caret underlines the whole range", "[diagnostics]") {
  auto a = analyzeKernel("x: f32[4]", "f32[4]", "  return x + unknownx;");
  REQUIRE(a->result.diagnostics.size() == 1);
  const Diagnostic &d = a->result.diagnostics[0];
  CHECK(d.begin == LineCol{2, 14});
  CHECK(d.end == LineCol{2, 22});
  CHECK(d.range.end - d.range.begin == 8);
  std::string text = a->text(true);
  CHECK(text.find("  2 |   return x + unknownx;\n"
                  "    |              ^~~~~~~~\n") != std::string::npos);
}

TEST_CASE("snippets of long lines show a window", "[diagnostics]") {
  std::string line = "const A = 1;" + std::string(5000, ' ') + "const A = 2;";
  auto a = analyze(line);
  std::string text = a->text(true);
  CHECK(text.size() < 600);
  CHECK(text.find("...") != std::string::npos);
  CHECK(text.find("^") != std::string::npos);
}

TEST_CASE("note snippets on request", "[diagnostics]") {
  auto a = analyze("const A = 1;\nconst A = 2;\n");
  DiagPrintOptions options;
  options.showNoteSnippets = true;
  std::string out = formatDiagnostic(a->sm, a->result.diagnostics[0], options);
  CHECK(out.find("  1 | const A = 1;") != std::string::npos);
}

TEST_CASE("the error limit stops the flood", "[diagnostics]") {
  std::string text;
  for (int i = 0; i < 300; ++i)
    text += "$ ";
  text += "\n";
  for (int i = 0; i < 300; ++i)
    text += "x;\n";
  auto a = analyze(text);
  CHECK(a->result.diagnostics.size() <= 101);
  CHECK(a->codes().back() == "E0090");
}

TEST_CASE("closestName suggests near names only", "[diagnostics]") {
  std::vector<std::string> names = {"softmax", "sum", "mean", "log_softmax"};
  CHECK(closestName("sofmax", names) == "softmax");
  CHECK(closestName("summ", names) == "sum");
  CHECK(closestName("zzz", names).empty());
  CHECK(closestName("softmax", names).empty()); // Itself is not a suggestion.
}

TEST_CASE("severity names", "[diagnostics]") {
  CHECK(severityName(Severity::Error) == "error");
  CHECK(severityName(Severity::Warning) == "warning");
  CHECK(severityName(Severity::Note) == "note");
}
