// Bad input never crashes: empty files, garbage, huge lines, deep nesting.
#include "TestUtil.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <random>

using namespace accy;
using namespace accy::test;

using Codes = std::vector<std::string>;

TEST_CASE("the empty file", "[robustness]") {
  auto a = analyze("");
  CHECK(a->result.diagnostics.empty());
  CHECK(a->result.unit.kernels().empty());
  auto b = analyze("   \n\n // only a comment\n");
  CHECK(b->result.diagnostics.empty());
}

TEST_CASE("binary garbage and invalid UTF-8", "[robustness]") {
  std::string garbage;
  std::mt19937 rng(12345);
  for (int i = 0; i < 20000; ++i)
    garbage.push_back(static_cast<char>(rng() & 0xFF));
  auto a = analyze(garbage);
  CHECK_FALSE(a->result.diagnostics.empty());
  CHECK(a->result.diagnostics.size() <= 101);
  // Every diagnostic prints (snippets sanitize invalid bytes).
  std::string text = a->text(true);
  CHECK_FALSE(text.empty());

  std::string nul("kernel k(x: f32) -> f32 { return x; }\0\0\0", 41);
  auto b = analyze(nul);
  CHECK(b->codes() == Codes{"E0001"});
  CHECK(b->kernel("k"));

  auto c = analyze("kernel k(x: f32) -> f32 { return x; } \xC0\xAF\xED\xA0\x80");
  CHECK(c->codes() == Codes{"E0002"});
}

TEST_CASE("random token soup never crashes", "[robustness]") {
  const char *pieces[] = {"kernel", "fn", "let", "return", "import", "const",
                          "(", ")", "[", "]", "{", "}", ",", ":", ";", "->",
                          "=", "+", "-", "*", "/", "@", "<", "==", "x", "N",
                          "f32", "1", "2.5", "\"s\"", "sum", "einsum",
                          "axis", "true", "cast", "...", "\n"};
  std::mt19937 rng(7);
  for (int round = 0; round < 50; ++round) {
    std::string text;
    for (int i = 0; i < 400; ++i) {
      text += pieces[rng() % (sizeof(pieces) / sizeof(pieces[0]))];
      text += ' ';
    }
    auto a = analyze(text);
    (void)a->text(true);
  }
  // Plausible programs with one random token removed.
  std::string good = "const E = 1e-5;\n"
                     "fn f(x: f32[N, D]) -> f32[N, D] { return x * E; }\n"
                     "kernel k(x: f32[B, 8], w: f32[8, 4]) -> f32[B, 4] {\n"
                     "  let h = f(x) @ w;\n  return softmax(h, axis=-1);\n}\n";
  for (size_t cut = 0; cut + 1 < good.size(); cut += 3) {
    auto a = analyze(good.substr(0, cut) + good.substr(cut + 1));
    (void)a->text(true);
  }
  SUCCEED();
}

TEST_CASE("a 1 MB single-line file", "[robustness]") {
  auto start = std::chrono::steady_clock::now();
  std::string line = "kernel k(x: f32[N]) -> f32[N] { return x";
  while (line.size() < (1u << 20))
    line += " + x";
  line += "; }";
  auto a = analyze(line);
  // The chain is deeper than the parser's limit: one diagnostic.
  CHECK(a->codes() == Codes{"E0011"});
  std::string text = a->text(true);
  CHECK(text.size() < 1000);

  std::string many = "const A0 = 0;";
  for (int i = 1; many.size() < (1u << 20); ++i)
    many += " const A" + std::to_string(i) + " = " + std::to_string(i) + ";";
  auto b = analyze(many);
  CHECK(b->result.diagnostics.empty());

  std::string junk(1u << 20, '$');
  auto c = analyze(junk);
  CHECK(c->codes() == Codes{"E0001"});
  auto elapsed = std::chrono::steady_clock::now() - start;
  CHECK(std::chrono::duration<double>(elapsed).count() < 30.0);
}

TEST_CASE("100000 nested parentheses", "[robustness]") {
  std::string text = "kernel k(x: f32) -> f32 {\n  let a = " +
                     std::string(100000, '(') + "x" +
                     std::string(100000, ')') + ";\n  return x;\n}\n"
                     "kernel j(x: f32) -> f32 { return y; }\n";
  auto a = analyze(text);
  // One diagnostic for the nesting; the next kernel is still checked.
  REQUIRE(a->codes() == Codes{"E0011", "E0022"});
  CHECK(a->messages()[0] ==
        "expression is nested too deeply (the limit is 256 levels)");
}

TEST_CASE("other deep nestings", "[robustness]") {
  auto negs = analyze("kernel k(x: f32) -> f32 { return " +
                      std::string(100000, '-') + "x; }");
  CHECK(negs->codes() == Codes{"E0011"});
  std::string brackets = "kernel k(x: f32) -> f32 { return sum(x, axis=" +
                         std::string(50000, '[') + "0" +
                         std::string(50000, ']') + "); }";
  CHECK(analyze(brackets)->codes() == Codes{"E0011"});
  std::string calls = "kernel k(x: f32) -> f32 { return ";
  for (int i = 0; i < 20000; ++i)
    calls += "exp(";
  calls += "x" + std::string(20000, ')') + "; }";
  CHECK(analyze(calls)->codes() == Codes{"E0011"});
  std::string index = "kernel k(x: f32[4]) -> f32 { return x";
  for (int i = 0; i < 20000; ++i)
    index += "[0:1]";
  index += "; }";
  CHECK(analyze(index)->codes() == Codes{"E0011"});
  // Just under the limit is fine.
  std::string ok = "kernel k(x: f32) -> f32 { return " +
                   std::string(200, '(') + "x" + std::string(200, ')') + "; }";
  CHECK(analyze(ok)->codes().empty());
}

TEST_CASE("unterminated constructs at the end of the file", "[robustness]") {
  for (const char *text :
       {"kernel", "kernel k(", "kernel k(x: f32[", "kernel k(x: f32) ->",
        "kernel k(x: f32) -> f32 {", "kernel k(x: f32) -> f32 { return",
        "kernel k(x: f32) -> f32 { return x[", "import", "import \"a",
        "const", "const A =", "fn f(x: f32) -> f32 { let a = cast<",
        "kernel k(x: f32) -> f32 { return einsum(\"", "/*"}) {
    auto a = analyze(text);
    CHECK_FALSE(a->result.diagnostics.empty());
    (void)a->text(true);
  }
}
