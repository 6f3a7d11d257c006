// Tests of imports: resolution, -I, cycles, visibility, duplicate names.
#include "TestUtil.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <catch2/catch.hpp>

using namespace accy;
using namespace accy::test;

using Codes = std::vector<std::string>;

TEST_CASE("imports resolve relative to the importing file", "[imports]") {
  auto a = analyze("import \"lib/a.accy\";\n"
                   "kernel k(x: f32[N]) -> f32[N] { return twice(x); }\n",
                   {{"lib/a.accy", "import \"b.accy\";\n"
                                   "fn twice(x: f32[N]) -> f32[N] { return "
                                   "x * TWO; }\n"},
                    {"lib/b.accy", "const TWO = 2.0;\n"}});
  CHECK(a->text() == "");
  CHECK(a->result.unit.dependencies() ==
        std::vector<std::string>{"/virtual/lib/a.accy", "/virtual/lib/b.accy"});
  // `twice` uses TWO from its own file's import: the copy resolves it there.
  CHECK(a->kernel("k")->valid);
  const SourceModule &lib = *a->result.unit.modules[1];
  REQUIRE(lib.imports.size() == 1);
  CHECK(lib.imports[0].target == a->result.unit.modules[2].get());
}

TEST_CASE("imports are searched in -I directories after the file's own",
          "[imports]") {
  std::map<std::string, std::string> files = {
      {"inc/common.accy", "const C = 1.0;\n"},
      {"inc2/common.accy", "const D = 1.0;\n"}};
  auto a = analyze("import \"common.accy\";\n"
                   "kernel k(x: f32) -> f32 { return x * C; }\n",
                   files, {"/virtual/inc", "/virtual/inc2"});
  CHECK(a->text() == "");
  // The importing file's directory wins over -I.
  files["common.accy"] = "const E = 1.0;\n";
  auto b = analyze("import \"common.accy\";\n"
                   "kernel k(x: f32) -> f32 { return x * E; }\n",
                   files, {"/virtual/inc"});
  CHECK(b->text() == "");
}

TEST_CASE("a missing import names where it looked", "[imports]") {
  auto a = analyze("import \"nope.accy\";\nconst A = 1;\n", {},
                   {"/virtual/inc"});
  REQUIRE(a->codes() == Codes{"E0024"});
  CHECK(a->messages()[0] == "cannot find imported file 'nope.accy' (searched "
                            "/virtual, /virtual/inc)");
  CHECK(a->result.diagnostics[0].begin.col == 8);
}

TEST_CASE("import cycles are reported naming the cycle", "[imports]") {
  auto a = analyze("import \"b.accy\";\nconst A = 1;\n",
                   {{"b.accy", "import \"c.accy\";\nconst B = 1;\n"},
                    {"c.accy", "import \"main.accy\";\nconst C = 1;\n"}});
  REQUIRE(a->codes() == Codes{"E0025"});
  CHECK(a->messages()[0] ==
        "in /virtual/c.accy:1: import cycle: /virtual/main.accy -> "
        "/virtual/b.accy -> /virtual/c.accy -> /virtual/main.accy");
  // Found in c.accy, reported on the main file's import that leads there,
  // with the place in c.accy as a note.
  const Diagnostic &d = a->result.diagnostics[0];
  CHECK(d.range.file == a->result.mainFile);
  CHECK(d.begin.line == 1);
  CHECK(d.begin.col == 8);
  REQUIRE(d.notes.size() == 1);
  CHECK(d.notes[0].range.file != a->result.mainFile);
  CHECK(d.notes[0].begin.line == 1);
  auto self = analyze("import \"main.accy\";\n");
  CHECK(self->codes() == Codes{"E0025"});
}

TEST_CASE("a cycle still lets both files see each other", "[imports]") {
  auto a = analyze("import \"b.accy\";\nconst A = 1.0;\n"
                   "kernel k(x: f32) -> f32 { return x * B; }\n",
                   {{"b.accy", "import \"main.accy\";\nconst B = 2.0;\n"
                               "fn f(x: f32) -> f32 { return x * A; }\n"}});
  CHECK(a->codes() == Codes{"E0025"});
}

TEST_CASE("names are unique including imported ones", "[imports]") {
  auto a = analyze("import \"lib.accy\";\n"
                   "fn norm(x: f32) -> f32 { return x; }\n",
                   {{"lib.accy", "fn norm(x: f32) -> f32 { return x; }\n"}});
  REQUIRE(a->codes() == Codes{"E0020"});
  CHECK(a->messages()[0] ==
        "'norm' is defined here and also in the imported file 'lib.accy'; "
        "names must be unique in a file, including imported ones");
  REQUIRE(a->result.diagnostics[0].notes.size() == 1);
  CHECK(a->result.diagnostics[0].notes[0].message ==
        "imported definition is here");
  auto b = analyze("import \"a.accy\";\nimport \"b.accy\";\n",
                   {{"a.accy", "const X = 1;\n"}, {"b.accy", "const X = 2;\n"}});
  REQUIRE(b->codes() == Codes{"E0020"});
  CHECK(b->messages()[0] == "the import of 'b.accy' brings 'X', which is "
                            "already imported from '/virtual/a.accy'");
  CHECK(b->result.diagnostics[0].begin.line == 2);
}

TEST_CASE("importing one file twice is harmless", "[imports]") {
  auto a = analyze("import \"a.accy\";\nimport \"./a.accy\";\n"
                   "kernel k(x: f32) -> f32 { return x * X; }\n",
                   {{"a.accy", "const X = 1.0;\n"}});
  CHECK(a->text() == "");
  CHECK(a->result.unit.modules.size() == 2);
}

TEST_CASE("imports make consts and fns visible, not kernels or their "
          "imports",
          "[imports]") {
  std::map<std::string, std::string> files = {
      {"b.accy", "import \"c.accy\";\n"
                 "kernel kb(x: f32) -> f32 { return x; }\n"},
      {"c.accy", "fn fc(x: f32) -> f32 { return x; }\n"}};
  auto a = analyze("import \"b.accy\";\n"
                   "kernel k(x: f32) -> f32 { return fc(x); }\n",
                   files);
  CHECK(a->codes() == Codes{"E0023"});
  auto b = analyze("import \"b.accy\";\n"
                   "kernel k(x: f32) -> f32 { return kb(x); }\n",
                   files);
  CHECK(b->codes() == Codes{"E0023"});
  // Only the main file's kernels are the unit's kernels.
  CHECK(b->result.unit.kernels().size() == 1);
}

TEST_CASE("errors in imported files are reported on the import, naming the file", "[imports]") {
  auto a = analyze("import \"lib.accy\";\n",
                   {{"lib.accy", "fn f(x: f32) -> f32 { return y; }\n"}});
  REQUIRE(a->codes() == Codes{"E0022"});
  CHECK(a->text().rfind("/virtual/main.accy:1:8-1:18: error[E0022]: in "
                        "/virtual/lib.accy:1: unknown name 'y'",
                        0) == 0);
  CHECK(a->text().find("/virtual/lib.accy:1:30-1:31: note: the error is here") !=
        std::string::npos);
}

namespace {
/// A scratch directory on disk, removed at the end.
struct TempDir {
  llvm::SmallString<128> path;
  TempDir() { llvm::sys::fs::createUniqueDirectory("accy-fe-test", path); }
  ~TempDir() { llvm::sys::fs::remove_directories(path); }
  std::string file(llvm::StringRef rel, llvm::StringRef text) const {
    llvm::SmallString<128> p(path);
    llvm::sys::path::append(p, rel);
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(p));
    std::error_code ec;
    llvm::raw_fd_ostream os(p, ec);
    os << text;
    return p.str().str();
  }
};
} // namespace

TEST_CASE("files on disk: analyzeFile, -I and unreadable files",
          "[imports]") {
  TempDir dir;
  std::string main = dir.file("src/main.accy",
                              "import \"util.accy\";\nimport \"shared.accy\";\n"
                              "kernel k(x: f32[N]) -> f32[N] { return x * A "
                              "* B; }\n");
  dir.file("src/util.accy", "const A = 2.0;\n");
  std::string inc = dir.file("include/shared.accy", "const B = 3.0;\n");
  SourceManager sm;
  FrontendResult r = analyzeFile(
      main, {llvm::sys::path::parent_path(inc).str()}, sm);
  CHECK(r.diagnostics.empty());
  CHECK(r.unit.dependencies().size() == 2);
  CHECK(r.unit.kernels().size() == 1);

  SourceManager sm2;
  FrontendResult missing = analyzeFile(dir.file("x", "") + ".missing",
                                       std::vector<std::string>{}, sm2);
  REQUIRE(missing.diagnostics.size() == 1);
  CHECK(missing.diagnostics[0].code == DiagCode::FileNotReadable);
  CHECK(missing.hasErrors());
  CHECK_FALSE(missing.mainFile.isValid());

  // A directory where a file is expected.
  std::string text = "import \"sub\";\n";
  dir.file("src/sub/keep.accy", "");
  SourceManager sm3;
  FrontendResult d = analyzeBuffer(main, text, std::vector<std::string>{}, sm3);
  REQUIRE(d.diagnostics.size() == 1);
  CHECK(d.diagnostics[0].code == DiagCode::FileNotReadable);
}

TEST_CASE("the overlay serves unsaved buffers before the disk", "[imports]") {
  SourceManager sm;
  FrontendOptions options;
  options.overlay = [](llvm::StringRef path) -> std::optional<std::string> {
    if (path == "/mem/lib.accy")
      return std::string("const L = 1.0;\n");
    return std::nullopt;
  };
  FrontendResult r = analyzeBuffer(
      "/mem/main.accy",
      "import \"lib.accy\";\nkernel k(x: f32) -> f32 { return x + L; }\n",
      options, sm);
  CHECK(r.diagnostics.empty());
}

// Found by the frontend fuzzer (fuzz/FuzzFrontend.cpp): a file importing
// "a/self.accy" where every such path exists (as through `ln -s . a`)
// recursed once per import until the stack overflowed.
TEST_CASE("an import chain that never repeats a path ends with an error",
          "[imports]") {
  SourceManager sm;
  FrontendOptions options;
  const std::string self =
      "import \"a/self.accy\";\nconst C = 1.0;\n";
  options.overlay = [&](llvm::StringRef path) -> std::optional<std::string> {
    if (path.ends_with("/self.accy"))
      return self;
    return std::nullopt;
  };
  FrontendResult r = analyzeBuffer("/mem/self.accy", self, options, sm);
  REQUIRE(r.hasErrors());
  bool deep = false;
  for (const Diagnostic &d : r.diagnostics)
    deep |= d.message.find("imports nest deeper than 256 files") !=
            std::string::npos;
  CHECK(deep);
}
