// Tests of fn helpers: inlining with substituted shapes, call errors.
#include "TestUtil.h"

#include "accy/Frontend/ASTWalk.h"

#include <catch2/catch.hpp>

using namespace accy;
using namespace accy::test;

using Codes = std::vector<std::string>;

static const char *kNorm = R"(
const EPS = 1e-5;
fn norm(x: f32[N, D], g: f32[D], b: f32[D]) -> f32[N, D] {
  let mu = mean(x, axis=1, keepdims=true);
  let var = mean((x - mu) * (x - mu), axis=1, keepdims=true);
  return (x - mu) * rsqrt(var + EPS) * g + b;
}
)";

TEST_CASE("a fn call is inlined with the caller's shapes", "[inline]") {
  auto a = analyze(std::string(kNorm) +
                   "kernel k(x: f32[B, 784], g: f32[784], b: f32[784]) -> "
                   "f32[B, 784] {\n  return norm(x, g, b);\n}\n");
  REQUIRE(a->text() == "");
  const Kernel &k = *a->kernel("k");
  CHECK(k.valid);
  const auto &call = llvm::cast<InlinedCallExpr>(*k.body.results[0]);
  CHECK(call.callee == a->fn("norm"));
  CHECK(call.type.str() == "f32[B, 784]");
  REQUIRE(call.dimBindings.size() == 2);
  CHECK(call.dimBindings[0].first == "N");
  CHECK(call.dimBindings[0].second == Dim::symbol("B"));
  CHECK(call.dimBindings[1].first == "D");
  CHECK(call.dimBindings[1].second == Dim::constant(784));
  REQUIRE(call.params.size() == 3);
  CHECK(call.params[0]->type.str() == "f32[B, 784]");
  CHECK(call.params[0]->owner == &call);
  REQUIRE(call.args.size() == 3);
  CHECK(llvm::cast<ParamRefExpr>(*call.args[0]).param == k.params[0].get());
  REQUIRE(call.body.lets.size() == 2);
  CHECK(call.body.lets[0]->type().str() == "f32[B, 1]");
  CHECK(call.body.results[0]->type.str() == "f32[B, 784]");
  // Inside the copy, parameters refer to the call's own bindings.
  bool sawInner = false;
  walkPreOrder(*call.body.lets[0]->value, [&](const Expr &e) {
    if (const auto *p = llvm::dyn_cast<ParamRefExpr>(&e)) {
      CHECK(p->param->owner == &call);
      sawInner = true;
    }
  });
  CHECK(sawInner);
  // Copied nodes keep the fn's source ranges.
  const Function &fn = *a->fn("norm");
  CHECK(call.body.lets[0]->value->range == fn.body.lets[0]->value->range);
  // The generic body keeps the fn's own symbols.
  CHECK(fn.body.lets[0]->type().str() == "f32[N, 1]");
  CHECK(fn.symbols.size() == 2);
}

TEST_CASE("calls of fns inside fns are inlined recursively", "[inline]") {
  auto a = analyze(R"(
fn sq(x: f32[N]) -> f32[N] { return x * x; }
fn sumsq(x: f32[M]) -> f32 { return sum(sq(x)); }
kernel k(v: f32[7]) -> f32 { return sumsq(v) + sumsq(v[1:]); }
)");
  REQUIRE(a->text() == "");
  std::vector<std::string> inlined;
  walkPreOrder(*a->kernel("k"), [&](const Expr &e) {
    if (const auto *c = llvm::dyn_cast<InlinedCallExpr>(&e))
      inlined.push_back(c->callee->name + ":" + c->args[0]->type.str());
  });
  CHECK(inlined == std::vector<std::string>{"sumsq:f32[7]", "sq:f32[7]",
                                            "sumsq:f32[6]", "sq:f32[6]"});
}

TEST_CASE("a scalar argument takes the parameter's type", "[inline]") {
  auto a = analyze("fn scale(x: f16[N], s: f16) -> f16[N] { return x * s; }\n"
                   "kernel k(x: f16[N]) -> f16[N] { return scale(x, 2); }");
  CHECK(a->text() == "");
}

TEST_CASE("fn argument errors", "[inline]") {
  std::string fn = "fn f(x: f32[N, D], y: f32[D]) -> f32[N, D] { return x + "
                   "y; }\n";
  auto a = analyze(fn + "kernel k(x: f32[4, 3], y: f32[5]) -> f32[4, 3] { "
                        "return f(x, y); }");
  REQUIRE(a->codes() == Codes{"E0078"});
  CHECK(a->messages()[0] ==
        "in the call of 'f': 'D' is 3 in argument 0 but 5 in argument 1");
  auto b = analyze(fn + "kernel k(x: f32[4], y: f32[5]) -> f32 { let z = "
                        "f(x, y); return 0.0; }");
  REQUIRE(b->codes() == Codes{"E0077"});
  CHECK(b->messages()[0] ==
        "argument 0 of 'f' is f32[4] but the parameter 'x' is f32[N, D]");
  auto c = analyze(fn + "kernel k(x: f16[4, 3], y: f32[3]) -> f32 { let z = "
                        "f(x, y); return 0.0; }");
  CHECK(c->codes() == Codes{"E0077"});
  auto d = analyze("fn f(x: f32[3]) -> f32[3] { return x; }\n"
                   "kernel k(x: f32[4]) -> f32[4] { return f(x); }");
  REQUIRE(d->codes() == Codes{"E0077"});
  CHECK(d->messages()[0] == "argument 0 of 'f' is f32[4] but the parameter "
                            "'x' is f32[3]: axis 0 must be 3");
  auto e = analyze(fn + "kernel k(x: f32[4, 3]) -> f32 { let z = f(x); "
                        "return 0.0; }");
  CHECK(e->codes() == Codes{"E0070"});
  auto f = analyze(fn + "kernel k(x: f32[4, 3], y: f32[3]) -> f32 { let z = "
                        "f(x, y=y); return 0.0; }");
  CHECK(f->codes() == Codes{"E0071"});
  auto g = analyze(fn + "kernel k(x: f32[4, 3], y: f32[3]) -> f32 { let z = "
                        "f<f32>(x, y); return 0.0; }");
  CHECK(g->codes() == Codes{"E0076"});
}

TEST_CASE("errors only visible with the caller's sizes", "[inline]") {
  auto a = analyze("fn head(x: f32[N]) -> f32[2] { return x[0:2]; }\n"
                   "kernel k(x: f32[1]) -> f32[2] { return head(x); }\n");
  REQUIRE(a->codes() == Codes{"E0047"});
  const Diagnostic &d = a->result.diagnostics[0];
  CHECK(d.begin.line == 1); // Inside the fn.
  REQUIRE(d.notes.size() == 1);
  CHECK(d.notes[0].message == "while inlining the call of fn 'head' here");
  CHECK(d.notes[0].begin.line == 2);
}

TEST_CASE("a broken fn is reported once, not at every call", "[inline]") {
  auto a = analyze("fn bad(x: f32[N]) -> f32[N] { return x + unknown; }\n"
                   "kernel k(x: f32[N]) -> f32[N] { return bad(x) + bad(x); }");
  CHECK(a->codes() == Codes{"E0022"});
  CHECK_FALSE(a->kernel("k")->valid);
  CHECK_FALSE(a->fn("bad")->valid);
}

TEST_CASE("recursive fns are rejected", "[inline]") {
  auto a = analyze("fn f(x: f32) -> f32 { return f(x); }");
  REQUIRE(a->codes() == Codes{"E0079"});
  CHECK(a->messages()[0] ==
        "fn 'f' calls itself (directly or through other fns); fn helpers are "
        "inlined and cannot be recursive");
  auto b = analyze("fn f(x: f32) -> f32 { return g(x); }\n"
                   "fn g(x: f32) -> f32 { return f(x); }\n"
                   "kernel k(x: f32) -> f32 { return f(x); }");
  CHECK(b->codes() == Codes{"E0079"});
}

TEST_CASE("inlining is bounded", "[inline]") {
  std::string text = "fn f0(x: f32[N]) -> f32[N] { return x + x; }\n";
  for (int i = 1; i <= 24; ++i)
    text += "fn f" + std::to_string(i) + "(x: f32[N]) -> f32[N] { return f" +
            std::to_string(i - 1) + "(x) + f" + std::to_string(i - 1) +
            "(x); }\n";
  text += "kernel k(x: f32[N]) -> f32[N] { return f24(x); }\n";
  SourceManager sm;
  FrontendOptions options;
  options.semaLimits.maxNodesPerItem = 20000;
  FrontendResult r = analyzeBuffer("big.accy", text, options, sm);
  REQUIRE_FALSE(r.diagnostics.empty());
  CHECK(r.diagnostics[0].code == DiagCode::InlineLimit);
  CHECK(r.diagnostics.size() <= 3);

  // Deep chains of fn calls hit the nesting limit.
  std::string chain = "fn g0(x: f32) -> f32 { return x; }\n";
  for (int i = 1; i <= 80; ++i)
    chain += "fn g" + std::to_string(i) + "(x: f32) -> f32 { return g" +
             std::to_string(i - 1) + "(x); }\n";
  chain += "kernel k(x: f32) -> f32 { return g80(x); }\n";
  SourceManager sm2;
  FrontendResult r2 = analyzeBuffer("chain.accy", chain, FrontendOptions(),
                                    sm2);
  REQUIRE_FALSE(r2.diagnostics.empty());
  CHECK(r2.diagnostics[0].code == DiagCode::InlineLimit);
}
