// Tests of the typed AST contract: walks, dumps, lookups.
#include "TestUtil.h"

#include "accy/Frontend/ASTWalk.h"

#include <catch2/catch.hpp>

using namespace accy;
using namespace accy::test;

TEST_CASE("the pre-order walk is deterministic and complete", "[ast]") {
  const char *text = "fn sq(x: f32[N]) -> f32[N] { let t = x * x; return t; }\n"
                     "kernel k(a: f32[4], b: f32[4]) -> (f32[4], f32) {\n"
                     "  let s = sq(a + b);\n"
                     "  return (-s, sum(s[1:3]));\n}\n";
  auto a = analyze(text);
  REQUIRE(a->text() == "");
  std::vector<std::string> order;
  walkPreOrder(*a->kernel("k"), [&](const Expr &e) {
    order.push_back(exprKindName(e.getKind()).str());
  });
  CHECK(order == std::vector<std::string>{
                     // let s = sq(a + b)
                     "inline", "binary", "param", "param",
                     //   the copy of sq: let t = x * x; return t
                     "binary", "param", "param", "let-ref",
                     // -s
                     "neg", "let-ref",
                     // sum(s[1:3])
                     "call", "index", "let-ref"});
  // The same walk twice gives the same nodes.
  std::vector<const Expr *> first, second;
  walkPreOrder(*a->kernel("k"), [&](const Expr &e) { first.push_back(&e); });
  walkPreOrder(*a->kernel("k"), [&](const Expr &e) { second.push_back(&e); });
  CHECK(first == second);
  // children() agrees with the walk.
  const Expr &call = *a->kernel("k")->body.lets[0]->value;
  auto kids = children(call);
  REQUIRE(kids.size() == 3); // One arg, then the copy's let and result.
  CHECK(kids[0]->getKind() == ExprKind::Binary);
}

TEST_CASE("every node has a range in its file", "[ast]") {
  auto a = analyze("import \"lib.accy\";\n"
                   "kernel k(x: f32[N]) -> f32[N] { return twice(x) + 1.0; }\n",
                   {{"lib.accy", "fn twice(x: f32[N]) -> f32[N] { return x * "
                                 "2.0; }\n"}});
  REQUIRE(a->text() == "");
  FileID main = a->result.mainFile;
  FileID lib = a->result.unit.modules[1]->file;
  bool sawLib = false;
  walkPreOrder(*a->kernel("k"), [&](const Expr &e) {
    CHECK(e.range.isValid());
    CHECK(e.range.end >= e.range.begin);
    sawLib |= e.range.file == lib;
  });
  CHECK(sawLib); // The inlined copy points into lib.accy.
  const Kernel &k = *a->kernel("k");
  CHECK(k.file == main);
  CHECK(a->sm.getText(main).substr(k.nameRange.begin, k.nameRange.size()) ==
        "k");
  CHECK(a->sm.getText(main).substr(k.range.begin, 6) == "kernel");
}

TEST_CASE("findInnermostExpr finds the node under a position", "[ast]") {
  auto a = analyze("kernel k(x: f32[N], y: f32[N]) -> f32[N] {\n"
                   "  return x * exp(y);\n}\n");
  REQUIRE(a->text() == "");
  uint32_t offset = a->sm.getText(a->result.mainFile).find("y);");
  const Expr *e = findInnermostExpr(a->kernel("k")->body, a->result.mainFile,
                                    offset);
  REQUIRE(e);
  CHECK(e->getKind() == ExprKind::ParamRef);
  const Expr *call = findInnermostExpr(a->kernel("k")->body,
                                       a->result.mainFile, offset - 2);
  REQUIRE(call);
  CHECK(call->getKind() == ExprKind::BuiltinCall);
  CHECK(findInnermostExpr(a->kernel("k")->body, a->result.mainFile, 0) ==
        nullptr);
}

TEST_CASE("the AST dump", "[ast]") {
  auto a = analyze("const EPS = 1e-5;\n"
                   "kernel k(x: f32[N, D]) -> f32[N, 1] {\n"
                   "  let m = max(x, axis=1, keepdims=true);\n"
                   "  return m + EPS;\n}\n");
  REQUIRE(a->text() == "");
  CHECK(a->dump("k") == "kernel k(x: f32[N, D]) -> f32[N, 1]\n"
                        "  let m : f32[N, 1] =\n"
                        "    call max axes=[1] keepdims=true : f32[N, 1]\n"
                        "      param x#0 : f32[N, D]\n"
                        "  return\n"
                        "    binary + : f32[N, 1]\n"
                        "      let-ref m : f32[N, 1]\n"
                        "      const EPS = 1e-05 : f32\n");
}

TEST_CASE("items are listed per module, in source order", "[ast]") {
  auto a = analyze("const B = 2;\nconst A = 1;\n"
                   "fn g(x: f32) -> f32 { return x; }\n"
                   "kernel second(x: f32) -> f32 { return g(x); }\n"
                   "kernel first(x: f32) -> f32 { return x; }\n");
  REQUIRE(a->text() == "");
  const SourceModule &m = *a->result.unit.mainModule();
  REQUIRE(m.consts.size() == 2);
  CHECK(m.consts[0]->name == "B");
  CHECK(m.findConst("A")->value.intValue == 1);
  REQUIRE(m.kernels.size() == 2);
  CHECK(m.kernels[0]->name == "second");
  CHECK(a->result.unit.kernels()[1]->name == "first");
  CHECK(m.findFunction("g")->valid);
  CHECK(m.findKernel("nope") == nullptr);
  CHECK(a->result.unit.findModule(m.file) == &m);
  CHECK(m.syntax != nullptr);
}

TEST_CASE("invalid kernels are still typed but flagged", "[ast]") {
  auto a = analyze("kernel good(x: f32) -> f32 { return x; }\n"
                   "kernel bad(x: f32) -> f32 { return x + y; }\n");
  CHECK(a->kernel("good")->valid);
  CHECK_FALSE(a->kernel("bad")->valid);
  CHECK(a->result.hasErrors());
}

TEST_CASE("scalar values print and convert", "[ast]") {
  CHECK(ScalarValue::ofInt(42).str() == "42");
  CHECK(ScalarValue::ofFloat(1e-5).str() == "1e-05");
  CHECK(ScalarValue::ofFloat(0.1).str() == "0.1");
  CHECK(ScalarValue::ofBool(true).str() == "true");
  CHECK(ScalarValue::ofInt(3).asDouble() == 3.0);
  CHECK(ScalarValue::ofFloat(2.75).asInt() == 2);
  CHECK(binaryOpKindSpelling(BinaryOpKind::GreaterEqual) == ">=");
}
