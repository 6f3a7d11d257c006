// Runs the .accy files of tests/lit/semantic/diagnostics through the
// frontend and checks their CHECK lines the way FileCheck would (only the
// {{.*}} pattern is supported), so the lit tests are validated even where
// the driver is not built.
#include "TestUtil.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <regex>

using namespace accy;

namespace fs = std::filesystem;

static const fs::path kDir =
    fs::path(ACCY_SOURCE_DIR) / "tests" / "lit" / "semantic" / "diagnostics";

/// A FileCheck pattern with {{.*}} wildcards as a regex.
static std::regex patternRegex(llvm::StringRef pattern) {
  std::string re;
  while (!pattern.empty()) {
    size_t open = pattern.find("{{");
    llvm::StringRef literal = pattern.substr(0, open);
    for (char c : literal) {
      if (std::strchr(".^$|()[]{}*+?\\", c))
        re += '\\';
      re += c;
    }
    if (open == llvm::StringRef::npos)
      break;
    size_t close = pattern.find("}}", open);
    re += pattern.substr(open + 2, close - open - 2).str();
    pattern = pattern.substr(close + 2);
  }
  return std::regex(re);
}

namespace {
struct Check {
  enum Kind { Plain, Next, Not } kind;
  std::string pattern;
};
} // namespace

/// Checks `output` against the CHECK lines like FileCheck; returns "" or
/// what failed.
static std::string fileCheck(const std::vector<Check> &checks,
                             const std::vector<std::string> &output) {
  size_t line = 0; // Next output line to search.
  bool matchedAny = false;
  for (size_t i = 0; i < checks.size(); ++i) {
    const Check &c = checks[i];
    std::regex re = patternRegex(c.pattern);
    if (c.kind == Check::Not) {
      for (size_t l = line; l < output.size(); ++l)
        if (std::regex_search(output[l], re))
          return "CHECK-NOT matched: " + output[l];
      continue;
    }
    if (c.kind == Check::Next) {
      if (!matchedAny || line >= output.size() ||
          !std::regex_search(output[line], re))
        return "CHECK-NEXT failed: " + c.pattern;
      ++line;
      continue;
    }
    bool found = false;
    for (; line < output.size(); ++line)
      if (std::regex_search(output[line], re)) {
        found = true;
        ++line;
        break;
      }
    if (!found)
      return "CHECK not found: " + c.pattern;
    matchedAny = true;
  }
  return "";
}

TEST_CASE("the semantic diagnostics lit files match the frontend", "[lit]") {
  REQUIRE(fs::is_directory(kDir));
  unsigned files = 0;
  for (const auto &entry : fs::directory_iterator(kDir)) {
    if (entry.path().extension() != ".accy")
      continue;
    ++files;
    std::string path = entry.path().string();
    auto buffer = llvm::MemoryBuffer::getFile(path);
    REQUIRE(buffer);
    llvm::SmallVector<llvm::StringRef, 0> lines;
    (*buffer)->getBuffer().split(lines, '\n');
    std::string run;
    std::vector<Check> checks;
    for (llvm::StringRef l : lines) {
      l = l.trim();
      if (l.consume_front("// RUN:"))
        run = l.trim().str();
      else if (l.consume_front("// CHECK-NEXT:"))
        checks.push_back({Check::Next, l.trim().str()});
      else if (l.consume_front("// CHECK-NOT:"))
        checks.push_back({Check::Not, l.trim().str()});
      else if (l.consume_front("// CHECK:"))
        checks.push_back({Check::Plain, l.trim().str()});
    }
    INFO(path);
    REQUIRE_FALSE(run.empty());
    bool expectErrors = llvm::StringRef(run).starts_with("not ");
    std::vector<std::string> includeDirs;
    llvm::SmallVector<llvm::StringRef, 8> words;
    llvm::StringRef(run).split(words, ' ', -1, false);
    for (size_t i = 0; i + 1 < words.size(); ++i)
      if (words[i] == "-I") {
        std::string dir = words[i + 1].str();
        if (llvm::StringRef(dir).starts_with("%S"))
          dir = kDir.string() + dir.substr(2);
        includeDirs.push_back(dir);
      }
    SourceManager sm;
    FrontendResult r = analyzeFile(path, includeDirs, sm);
    std::string text;
    llvm::raw_string_ostream os(text);
    DiagPrintOptions options;
    options.showSnippet = false;
    options.showFixIts = true; // As accyc check prints them.
    printDiagnostics(os, sm, r.diagnostics, options);
    os.flush();
    INFO(text);
    CHECK(r.hasErrors() == expectErrors);
    if (!expectErrors) {
      CHECK(r.diagnostics.empty());
      continue;
    }
    std::vector<std::string> output;
    for (llvm::StringRef l : llvm::split(text, '\n'))
      if (!l.empty())
        output.push_back(l.str());
    CHECK(fileCheck(checks, output) == "");
  }
  CHECK(files >= allDiagCodes().size());
}

TEST_CASE("every error code has a lit test and a documentation entry",
          "[lit]") {
  std::string names = "\n";
  for (const auto &entry : fs::directory_iterator(kDir))
    names += entry.path().filename().string() + "\n";
  auto doc = llvm::MemoryBuffer::getFile(
      (fs::path(ACCY_SOURCE_DIR) / "docs" / "diagnostics.md").string());
  REQUIRE(doc);
  llvm::StringRef docText = (*doc)->getBuffer();
  for (DiagCode code : allDiagCodes()) {
    std::string id = diagCodeString(code);
    INFO(id);
    CHECK(names.find("\n" + id + "-") != std::string::npos);
    CHECK(docText.contains("`" + id + "`"));
  }
}
