// Tests of the checker's fix-its: each one, applied to the source, removes
// every error of the program (the programs have one error each), and
// errors that no such change repairs get none.
#include "TestUtil.h"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace accy;
using namespace accy::test;

/// `text` with the edits of `fix` applied (they do not overlap).
static std::string applied(std::string text, const FixIt &fix) {
  std::vector<FixItEdit> edits = fix.edits;
  std::sort(edits.begin(), edits.end(), [](const auto &a, const auto &b) {
    return a.range.begin > b.range.begin;
  });
  for (const FixItEdit &e : edits)
    text.replace(e.range.begin, e.range.size(), e.text);
  return text;
}

/// The single fix-it of the single diagnostic of `source`, checked to
/// leave a program without errors; returns the fixed source.
static std::string fixOnce(const std::string &source,
                           const std::string &title) {
  auto a = analyze(source);
  INFO(a->text());
  REQUIRE(a->result.diagnostics.size() == 1);
  const Diagnostic &d = a->result.diagnostics.front();
  REQUIRE(d.fixIts.size() == 1);
  CHECK(d.fixIts.front().title == title);
  std::string fixed = applied(source, d.fixIts.front());
  auto again = analyze(fixed);
  INFO(fixed);
  INFO(again->text());
  CHECK(again->errorCount() == 0);
  return fixed;
}

TEST_CASE("a misspelt name, built-in, argument or dimension is replaced",
          "[fixit]") {
  CHECK(fixOnce("kernel k(x: f32[N]) -> f32[N] { return exp(x) * scle; }\n"
                "const scale = 2.0;\n",
                "replace with 'scale'")
            .find("* scale;") != std::string::npos);
  fixOnce("kernel k(x: f32[N]) -> f32[N] { return sigmod(x); }\n",
          "replace with 'sigmoid'");
  fixOnce("kernel k(x: f32[N, D]) -> f32[N, D] { return softmax(x, axs=0); }\n",
          "replace with 'axis'");
  fixOnce("kernel k(x: f32[Batch]) -> f32[Batch] {\n"
          "  return x[0:Bach];\n}\n",
          "replace with 'Batch'");
}

TEST_CASE("keepdims=true on the reduction a broadcast needs", "[fixit]") {
  CHECK(fixOnce("kernel k(x: f32[N, D]) -> f32[N, D] {\n"
                "  return x / sum(x, axis=1);\n}\n",
                "add keepdims=true to 'sum'")
            .find("sum(x, axis=1, keepdims=true)") != std::string::npos);
  // Through a let, and on the left-hand side.
  fixOnce("kernel k(x: f32[N, D]) -> f32[N, D] {\n"
          "  let mu = mean(x, axis=-1);\n  return mu - x;\n}\n",
          "add keepdims=true to 'mean'");
  // An explicit keepdims=false is turned around.
  CHECK(fixOnce("kernel k(x: f32[N, D]) -> f32[N, D] {\n"
                "  return x - min(x, axis=1, keepdims=false);\n}\n",
                "add keepdims=true to 'min'")
            .find("keepdims=true)") != std::string::npos);
}

TEST_CASE("cast<T> around the integer operand", "[fixit]") {
  CHECK(fixOnce("kernel k(i: i32[N], x: f32[N]) -> f32[N] {\n"
                "  return i * x;\n}\n",
                "convert the left operand with cast<f32>")
            .find("cast<f32>(i) * x") != std::string::npos);
  // A returned value of the declared shape but another element type.
  CHECK(fixOnce("kernel k(i: i32[N]) -> f32[N] {\n  return i * 2;\n}\n",
                "convert the returned value with cast<f32>")
            .find("return cast<f32>(i * 2);") != std::string::npos);
  // A compound operand is wrapped whole.
  CHECK(fixOnce("kernel k(x: f32[N], i: i32[N]) -> f32[N] {\n"
                "  return x - (i + 1);\n}\n",
                "convert the right operand with cast<f32>")
            .find("cast<f32>(") != std::string::npos);
}

TEST_CASE("transpose of the matmul operand whose swap agrees", "[fixit]") {
  CHECK(fixOnce("kernel k(x: f32[4, B, 8], w: f32[4, 16, 8]) -> f32[4, B, 16] "
                "{\n  return x @ w;\n}\n",
                "transpose the right operand (swap its last two axes)")
            .find("transpose(w, perm=[0, 2, 1])") != std::string::npos);
  CHECK(fixOnce("kernel k(x: f32[8, B], w: f32[8, 16]) -> f32[B, 16] {\n"
                "  return x @ w;\n}\n",
                "transpose the left operand (swap its last two axes)")
            .find("transpose(x, perm=[1, 0]) @ w") != std::string::npos);
}

TEST_CASE("the einsum spec that type-checks", "[fixit]") {
  CHECK(fixOnce("kernel k(a: f32[2, 3], b: f32[4, 3]) -> f32[2, 4] {\n"
                "  return einsum(\"ij,jk->ik\", a, b);\n}\n",
                "use the einsum spec \"ij,kj->ik\"")
            .find("\"ij,kj->ik\"") != std::string::npos);
  // Three operands, the middle one transposed.
  fixOnce("kernel k(a: f32[2, 3], b: f32[4, 3], c: f32[4, 5]) -> f32[2, 5] {\n"
          "  return einsum(\"ij,jk,kl->il\", a, b, c);\n}\n",
          "use the einsum spec \"ij,kj,kl->il\"");
}

TEST_CASE("no fix-it where no such change repairs the error", "[fixit]") {
  auto none = [](const std::string &source) {
    auto a = analyze(source);
    INFO(a->text());
    REQUIRE(a->errorCount() == 1);
    CHECK(a->result.diagnostics.front().fixIts.empty());
  };
  // Neither side is a reduction.
  none("kernel k(x: f32[N, D], y: f32[D, N]) -> f32[N, D] { return x + y; }\n");
  // No transpose of one operand makes 3 meet 5.
  none("kernel k(x: f32[2, 3], w: f32[5, 7]) -> f32[2, 7] { return x @ w; }\n");
  // No permutation of the subscripts agrees with the sizes.
  none("kernel k(a: f32[2, 3], b: f32[5, 7]) -> f32[2, 7] {\n"
       "  return einsum(\"ij,jk->ik\", a, b);\n}\n");
  // Nothing close to the name.
  none("kernel k(x: f32[N]) -> f32[N] { return x * zzzzzz; }\n");
}
