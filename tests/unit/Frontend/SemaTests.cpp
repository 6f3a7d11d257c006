// Tests of sema: names, bodies, results, consts, scalar literals.
#include "TestUtil.h"

#include "accy/Frontend/ASTWalk.h"

#include <catch2/catch.hpp>

using namespace accy;
using namespace accy::test;

using Codes = std::vector<std::string>;

TEST_CASE("the examples of LANGUAGE.md check clean", "[sema]") {
  auto a = analyze(R"(
import "common.accy";

const EPS = 1e-5;

kernel softmax(x: f32[N, D]) -> f32[N, D] {
  let m = max(x, axis=1, keepdims=true);
  let e = exp(x - m);
  return e / sum(e, axis=1, keepdims=true);
}

kernel mlp(x: f32[B, 784], w1: f32[784, 256], b1: f32[256],
           w2: f32[256, 10]) -> f32[B, 10] {
  let h = relu(einsum("bi,ij->bj", x, w1) + b1);
  return h @ w2;
}

kernel xent(logits: f32[B, C], labels: i32[B]) -> f32 {
  return cross_entropy(logits, labels);
}

fn norm(x: f32[N, D], g: f32[D], b: f32[D]) -> f32[N, D] {
  let mu = mean(x, axis=1, keepdims=true);
  let var = mean((x - mu) * (x - mu), axis=1, keepdims=true);
  return (x - mu) * rsqrt(var + EPS) * g + b;
}
)",
                   {{"common.accy", "const ONE = 1;\n"}});
  CHECK(a->text() == "");
  REQUIRE(a->result.unit.kernels().size() == 3);
  for (const Kernel *k : a->result.unit.kernels())
    CHECK(k->valid);
  CHECK(resultTypeOf(*a, "softmax") == "f32[N, D]");
  CHECK(resultTypeOf(*a, "mlp") == "f32[B, 10]");
  CHECK(resultTypeOf(*a, "xent") == "f32");
  REQUIRE(a->fn("norm"));
  CHECK(a->fn("norm")->valid);
}

TEST_CASE("names resolve to their bindings", "[sema]") {
  auto a = analyze("const S = 2.0;\n"
                   "kernel k(x: f32[N], y: f32[N]) -> f32[N] {\n"
                   "  let t = x * S;\n  return t + y;\n}\n");
  REQUIRE(a->text() == "");
  const Kernel &k = *a->kernel("k");
  const auto &mul = llvm::cast<BinaryExpr>(*k.body.lets[0]->value);
  const auto &x = llvm::cast<ParamRefExpr>(*mul.lhs);
  CHECK(x.param == k.params[0].get());
  CHECK(x.param->index == 0);
  CHECK(x.param->owner == nullptr);
  const auto &s = llvm::cast<ConstRefExpr>(*mul.rhs);
  CHECK(s.decl->name == "S");
  CHECK(s.decl->value.floatValue == 2.0);
  const auto &add = llvm::cast<BinaryExpr>(*k.body.results[0]);
  CHECK(llvm::cast<LetRefExpr>(*add.lhs).let == k.body.lets[0].get());
  CHECK(llvm::cast<ParamRefExpr>(*add.rhs).param->index == 1);
}

TEST_CASE("kernel symbols record where each dimension is bound", "[sema]") {
  auto a = analyzeKernel("x: f32[B, 784], y: f32[B, C], z: f32[C]",
                         "f32[B, C]", "return y;");
  REQUIRE(a->text() == "");
  const Kernel &k = *a->kernel("k");
  REQUIRE(k.symbols.size() == 2);
  CHECK(k.symbols[0].name == "B");
  CHECK(k.symbols[0].param == 0);
  CHECK(k.symbols[0].axis == 0);
  CHECK(k.symbols[1].name == "C");
  CHECK(k.symbols[1].param == 1);
  CHECK(k.symbols[1].axis == 1);
}

TEST_CASE("integer consts can be dimensions", "[sema]") {
  auto a = analyze("const H = 256;\n"
                   "kernel k(x: f32[B, H]) -> f32[B, 256] { return x; }\n");
  CHECK(a->text() == "");
  CHECK(a->kernel("k")->params[0]->type.str() == "f32[B, 256]");
  auto b = analyze("const H = 0.5;\nkernel k(x: f32[H]) -> f32 { return 0.0; }");
  CHECK(b->codes() == Codes{"E0037"});
  auto c = analyze("const H = -2;\nkernel k(x: f32[H]) -> f32 { return 0.0; }");
  CHECK(c->codes() == Codes{"E0038"});
  auto d = analyze("kernel k(x: f32[0]) -> f32 { return 0.0; }");
  CHECK(d->codes() == Codes{"E0038"});
}

TEST_CASE("unknown names suggest close ones", "[sema]") {
  auto a = analyzeKernel("logits: f32[4]", "f32[4]", "return lgits;");
  REQUIRE(a->codes() == Codes{"E0022"});
  CHECK(a->messages()[0] == "unknown name 'lgits'; did you mean 'logits'?");
  auto b = analyzeKernel("x: f32[4]", "f32[4]", "return qqqq;");
  CHECK(b->messages()[0] == "unknown name 'qqqq'");
}

TEST_CASE("unknown functions suggest close ones", "[sema]") {
  auto a = analyzeKernel("x: f32[4, 3]", "f32[4, 3]", "return sofmax(x);");
  REQUIRE(a->codes() == Codes{"E0023"});
  CHECK(a->messages()[0] ==
        "unknown function 'sofmax'; did you mean 'softmax'?");
  auto b = analyzeKernel("x: f32[4]", "f32[4]", "return foo(x);");
  CHECK(b->messages()[0] == "unknown function 'foo'");
}

TEST_CASE("shadowing is an error", "[sema]") {
  auto a = analyzeKernel("x: f32[N]", "f32[N]", "let y = x;\nlet y = x;\nreturn y;");
  REQUIRE(a->codes() == Codes{"E0021"});
  CHECK(a->messages()[0] ==
        "'y' shadows an earlier let; names in a body are immutable, choose a "
        "new name");
  REQUIRE(a->result.diagnostics[0].notes.size() == 1);
  CHECK(a->result.diagnostics[0].notes[0].message ==
        "previous definition is here");
  CHECK(analyzeKernel("x: f32[N]", "f32[N]", "let x = x;\nreturn x;")
            ->codes() == Codes{"E0021"});
  CHECK(analyzeKernel("x: f32[N]", "f32[N]", "let N = x;\nreturn x;")
            ->codes() == Codes{"E0021"});
  CHECK(analyze("const C = 1;\nkernel k(x: f32) -> f32 { let C = x; return "
                "x; }")
            ->codes() == Codes{"E0021"});
  CHECK(analyze("const C = 1;\nkernel k(C: f32) -> f32 { return C; }")
            ->codes() == Codes{"E0021"});
}

TEST_CASE("names are unique per file", "[sema]") {
  CHECK(analyze("const A = 1;\nfn A(x: f32) -> f32 { return x; }")->codes() ==
        Codes{"E0020"});
  CHECK(analyze("kernel k(x: f32) -> f32 { return x; }\n"
                "kernel k(x: f32) -> f32 { return x; }")
            ->codes() == Codes{"E0020"});
  CHECK(analyze("kernel k(x: f32, x: f32) -> f32 { return x; }")->codes() ==
        Codes{"E0020"});
  // A fn cannot take a built-in's name; kernels and consts may.
  CHECK(analyze("fn exp(x: f32) -> f32 { return x; }")->codes() ==
        Codes{"E0020"});
  CHECK(analyze("kernel softmax(x: f32) -> f32 { return x; }")->codes().empty());
}

TEST_CASE("return exactly once and last", "[sema]") {
  CHECK(analyzeKernel("x: f32", "f32", "let y = x;")->codes() ==
        Codes{"E0030"});
  CHECK(analyzeKernel("x: f32", "f32", "return x;\nlet y = x;")->codes() ==
        Codes{"E0031"});
  CHECK(analyzeKernel("x: f32", "f32", "return x;\nreturn x;")->codes() ==
        Codes{"E0031"});
  // A body with a parse error does not also report the missing return.
  CHECK(analyzeKernel("x: f32", "f32", "retrun x;")->codes() ==
        Codes{"E0010"});
}

TEST_CASE("multiple results", "[sema]") {
  auto a = analyzeKernel("x: f32[N]", "(f32[N], f32)",
                         "return (x * 2.0, sum(x));");
  CHECK(a->text() == "");
  REQUIRE(a->kernel("k")->body.results.size() == 2);
  CHECK(a->kernel("k")->results[1].str() == "f32");
  CHECK(analyzeKernel("x: f32[N]", "(f32[N], f32)", "return x;")->codes() ==
        Codes{"E0033"});
  CHECK(analyzeKernel("x: f32[N]", "f32[N]", "return (x, x);")->codes() ==
        Codes{"E0033"});
  CHECK(analyzeKernel("x: f32[N]", "(f32[N], f32[N])", "return (x, sum(x));")
            ->codes() == Codes{"E0034"});
  CHECK(analyzeKernel("x: f32[N]", "f32[N]", "let t = (x, x);\nreturn x;")
            ->codes() == Codes{"E0032"});
  CHECK(analyze("fn f(x: f32) -> (f32, f32) { return (x, x); }")->codes() ==
        Codes{"E0036"});
}

TEST_CASE("result types must match exactly", "[sema]") {
  auto a = analyzeKernel("x: f32[N, D]", "f32[N]", "return x;");
  REQUIRE(a->codes() == Codes{"E0034"});
  CHECK(a->messages()[0] ==
        "kernel 'k' must be f32[N] but the returned value is f32[N, D]");
  CHECK(analyzeKernel("x: f16[N]", "f32[N]", "return x;")->codes() ==
        Codes{"E0034"});
  // A scalar literal takes the result's element type.
  auto b = analyzeKernel("x: f16[N]", "f16", "return 1;");
  CHECK(b->text() == "");
  CHECK(resultTypeOf(*b) == "f16");
}

TEST_CASE("results may use only dimensions of the parameters", "[sema]") {
  auto a = analyzeKernel("x: f32[N]", "f32[M]", "return x;");
  REQUIRE(a->codes() == Codes{"E0035"});
  CHECK(a->messages()[0] ==
        "result dimension 'M' of 'k' is not bound by any parameter; a result "
        "may use only dimensions of its parameters");
}

TEST_CASE("consts must be literals", "[sema]") {
  CHECK(analyze("const A = 1 + 2;")->codes() == Codes{"E0029"});
  CHECK(analyze("const A = B;")->codes() == Codes{"E0029"});
  auto a = analyze("const A = -1.5;\nconst B = true;\nconst C = 3000000000;");
  CHECK(a->text() == "");
  const SourceModule &m = *a->result.unit.mainModule();
  REQUIRE(m.consts.size() == 3);
  CHECK(m.consts[0]->value.floatValue == -1.5);
  CHECK(m.consts[0]->defaultType == ElemType::F32);
  CHECK(m.consts[1]->defaultType == ElemType::Bool);
  CHECK(m.consts[2]->defaultType == ElemType::I64);
}

TEST_CASE("scalar literals and consts take the other operand's type",
          "[sema]") {
  CHECK(typeOf("x: f16[N]", "x * 2") == "f16[N]");
  CHECK(typeOf("x: bf16[N]", "0.5 + x") == "bf16[N]");
  CHECK(typeOf("x: i64[N]", "x - 1") == "i64[N]");
  CHECK(typeOf("x: f16[N]", "x > 0") == "bool[N]");
  CHECK(typeOf("x: f16[N]", "x * (1 + 2.5)") == "f16[N]");
  CHECK(typeOf("x: f16[N]", "x * -2") == "f16[N]");
  CHECK(typeOf("", "1 + 2") == "i32");
  CHECK(typeOf("", "1 + 2.0") == "f32");
  CHECK(typeOf("", "3000000000 + 1") == "i64");
  auto a = analyze("const EPS = 1e-5;\n"
                   "kernel k(x: f64[N]) -> f64[N] { return x + EPS; }");
  CHECK(a->text() == "");
  const auto &add = llvm::cast<BinaryExpr>(*a->kernel("k")->body.results[0]);
  CHECK(add.rhs->type.elem == ElemType::F64);
  CHECK(add.rhs->weak);
}

TEST_CASE("literals that cannot take the type are errors", "[sema]") {
  CHECK(typeOf("x: i32[N]", "x * 0.5").rfind("error:E0043", 0) == 0);
  CHECK(typeOf("x: i32[N]", "x + 3000000000").rfind("error:E0043", 0) == 0);
  CHECK(typeOf("x: f16[N]", "x + 100000.0").rfind("error:E0043", 0) == 0);
  CHECK(typeOf("x: bool[N]", "x == 1").rfind("error:E0043", 0) == 0);
  CHECK(typeOf("x: f32[N]", "x + true").rfind("error:E0043", 0) == 0);
  auto a = analyze("const H = 0.5;\nkernel k(x: i32[N]) -> i32[N] { return x "
                   "* H; }");
  REQUIRE(a->codes() == Codes{"E0043"});
  CHECK(a->messages()[0] ==
        "const 'H' = 0.5 cannot be used as i32: a float cannot take the "
        "integer or bool element type i32; use cast<T>(...) or an integer "
        "literal");
}

TEST_CASE("mixing element types needs cast", "[sema]") {
  std::string t = typeOf("x: f32[N], y: f16[N]", "x + y");
  CHECK(t == "error:E0041 mismatched element types in '+': f32[N] and "
             "f16[N]; convert one with cast<f32>(...)");
  CHECK(typeOf("x: f32[N], y: f16[N]", "x + cast<f32>(y)") == "f32[N]");
  CHECK(typeOf("x: i32[N], y: f32", "x * y").rfind("error:E0041", 0) == 0);
}

TEST_CASE("operators check element types", "[sema]") {
  CHECK(typeOf("x: i32[N]", "x / x").rfind("error:E0042", 0) == 0);
  CHECK(typeOf("x: bool[N]", "x + x").rfind("error:E0042", 0) == 0);
  CHECK(typeOf("x: bool[N]", "x < x").rfind("error:E0042", 0) == 0);
  CHECK(typeOf("x: bool[N]", "-x").rfind("error:E0042", 0) == 0);
  CHECK(typeOf("x: bool[N]", "x == x") == "bool[N]");
  CHECK(typeOf("x: i32[N]", "x * x - x") == "i32[N]");
}

TEST_CASE("things that are not values", "[sema]") {
  auto a = analyze("fn f(x: f32) -> f32 { return x; }\n"
                   "kernel k(x: f32[N]) -> f32 { let a = f; return 0.0; }");
  CHECK(a->codes() == Codes{"E0026"});
  CHECK(typeOf("x: f32[N]", "N").rfind("error:E0026", 0) == 0);
  CHECK(typeOf("x: f32[N]", "exp").rfind("error:E0026", 0) == 0);
  CHECK(typeOf("x: f32[N]", "[1, 2]").rfind("error:E0026", 0) == 0);
  CHECK(typeOf("x: f32[N]", "\"s\"").rfind("error:E0026", 0) == 0);
  CHECK(analyze("kernel j(x: f32) -> f32 { return x; }\n"
                "kernel k(x: f32) -> f32 { return j; }")
            ->codes() == Codes{"E0026"});
}

TEST_CASE("things that cannot be called", "[sema]") {
  CHECK(analyze("kernel j(x: f32) -> f32 { return x; }\n"
                "kernel k(x: f32) -> f32 { return j(x); }")
            ->codes() == Codes{"E0027"});
  CHECK(typeOf("x: f32[N]", "x(1)").rfind("error:E0027", 0) == 0);
  CHECK(analyze("const C = 1;\nkernel k(x: f32) -> f32 { return C(x); }")
            ->codes() == Codes{"E0027"});
}

TEST_CASE("one error does not cascade", "[sema]") {
  auto a = analyzeKernel("x: f32[N]", "f32[N]",
                         "let a = unknownname;\nlet b = a + x;\n"
                         "let c = exp(b) * 2.0;\nreturn c;");
  CHECK(a->codes() == Codes{"E0022"});
  CHECK_FALSE(a->kernel("k")->valid);
}
