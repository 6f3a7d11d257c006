// Tests of the parser: every syntax form, precedence, recovery.
#include "accy/Frontend/Parser.h"

#include <catch2/catch.hpp>

using namespace accy;
using namespace accy::syntax;

namespace {
struct Parsed {
  SourceManager sm;
  std::unique_ptr<Module> module;
  std::vector<Diagnostic> diags;
  std::vector<DiagCode> codes() const {
    std::vector<DiagCode> out;
    for (const Diagnostic &d : diags)
      out.push_back(d.code);
    return out;
  }
};

std::unique_ptr<Parsed> parse(const std::string &text) {
  auto p = std::make_unique<Parsed>();
  FileID file = p->sm.addBuffer("parse.accy", text);
  DiagnosticEngine diags(p->sm, 0);
  p->module = parseFile(file, diags);
  p->diags = diags.takeDiagnostics();
  return p;
}

/// A Lisp-like rendering of an expression, to check the tree shape.
std::string sexpr(const Expr &e) {
  switch (e.getKind()) {
  case ExprKind::IntLit:
    return std::to_string(llvm::cast<IntLitExpr>(e).value);
  case ExprKind::FloatLit:
    return llvm::cast<FloatLitExpr>(e).spelling;
  case ExprKind::BoolLit:
    return llvm::cast<BoolLitExpr>(e).value ? "true" : "false";
  case ExprKind::StringLit:
    return "\"" + llvm::cast<StringLitExpr>(e).value + "\"";
  case ExprKind::Name:
    return llvm::cast<NameExpr>(e).name;
  case ExprKind::Unary:
    return "(neg " + sexpr(*llvm::cast<UnaryExpr>(e).operand) + ")";
  case ExprKind::Binary: {
    const auto &b = llvm::cast<BinaryExpr>(e);
    return "(" + binaryOpSpelling(b.op).str() + " " + sexpr(*b.lhs) + " " +
           sexpr(*b.rhs) + ")";
  }
  case ExprKind::Call: {
    const auto &c = llvm::cast<CallExpr>(e);
    std::string s = "(call " + c.callee;
    if (c.hasTypeArg)
      s += "<" + elemTypeName(c.typeArg.elem).str() + ">";
    for (const CallArg &a : c.args)
      s += " " + (a.name.empty() ? "" : a.name + "=") + sexpr(*a.value);
    return s + ")";
  }
  case ExprKind::Index: {
    const auto &ix = llvm::cast<IndexExpr>(e);
    std::string s = "(index " + sexpr(*ix.base);
    for (const IndexItem &item : ix.items) {
      if (!item.isSlice) {
        s += " " + sexpr(*item.index);
        continue;
      }
      s += " " + (item.start ? sexpr(*item.start) : "") + ":" +
           (item.stop ? sexpr(*item.stop) : "");
    }
    return s + ")";
  }
  case ExprKind::List: {
    std::string s = "[";
    for (const auto &el : llvm::cast<ListExpr>(e).elements)
      s += (s.size() > 1 ? " " : "") + sexpr(*el);
    return s + "]";
  }
  case ExprKind::Tuple: {
    std::string s = "(tuple";
    for (const auto &el : llvm::cast<TupleExpr>(e).elements)
      s += " " + sexpr(*el);
    return s + ")";
  }
  case ExprKind::Error:
    return "<error>";
  }
  return "?";
}

/// Parses `let v = EXPR;` in a kernel and renders EXPR.
std::string expr(const std::string &text) {
  auto p = parse("kernel k() -> f32 { let v = " + text + "; return v; }");
  if (!p->diags.empty())
    return "diag: " + p->diags.front().message;
  return sexpr(*p->module->functions.at(0).body.at(0).value);
}
} // namespace

TEST_CASE("items: import, const, fn, kernel", "[parser]") {
  auto p = parse(R"(
import "lib/common.accy";
const EPS = 1e-5;
const NEG = -3;
fn helper(x: f32[N, 4], s: f32) -> f32[N, 4] { return x * s; }
kernel k(a: bf16[B], b: i64[]) -> (bf16[B], i64) { return (a, b); }
)");
  REQUIRE(p->diags.empty());
  const Module &m = *p->module;
  REQUIRE(m.imports.size() == 1);
  CHECK(m.imports[0].path == "lib/common.accy");
  REQUIRE(m.consts.size() == 2);
  CHECK(m.consts[0].name == "EPS");
  CHECK(sexpr(*m.consts[1].value) == "(neg 3)");
  REQUIRE(m.functions.size() == 2);
  const FunctionDecl &fn = m.functions[0];
  CHECK_FALSE(fn.isKernel);
  CHECK(fn.name == "helper");
  REQUIRE(fn.params.size() == 2);
  CHECK(fn.params[0].type.dims.size() == 2);
  CHECK(fn.params[0].type.dims[0].isName);
  CHECK(fn.params[0].type.dims[0].name == "N");
  CHECK(fn.params[0].type.dims[1].value == 4);
  CHECK(fn.params[1].type.dims.empty());
  const FunctionDecl &k = m.functions[1];
  CHECK(k.isKernel);
  CHECK(k.resultIsTuple);
  REQUIRE(k.results.size() == 2);
  CHECK(k.results[0].elem == ElemType::BF16);
  CHECK(k.params[1].type.elem == ElemType::I64);
  CHECK(k.params[1].type.dims.empty());
  REQUIRE(k.body.size() == 1);
  CHECK(k.body[0].kind == Stmt::Kind::Return);
  CHECK(sexpr(*k.body[0].value) == "(tuple a b)");
}

TEST_CASE("every element type parses", "[parser]") {
  auto p = parse("kernel k(a: f16, b: bf16, c: f32, d: f64, e: i32, f: i64, "
                 "g: bool) -> f32 { return 0.0; }");
  REQUIRE(p->diags.empty());
  const auto &params = p->module->functions[0].params;
  std::vector<ElemType> want = {ElemType::F16, ElemType::BF16, ElemType::F32,
                                ElemType::F64, ElemType::I32,  ElemType::I64,
                                ElemType::Bool};
  for (size_t i = 0; i < want.size(); ++i)
    CHECK(params[i].type.elem == want[i]);
}

TEST_CASE("a single result in parentheses is not a tuple", "[parser]") {
  auto p = parse("kernel k(x: f32) -> (f32) { return (x); }");
  REQUIRE(p->diags.empty());
  CHECK_FALSE(p->module->functions[0].resultIsTuple);
  CHECK(sexpr(*p->module->functions[0].body[0].value) == "x");
}

TEST_CASE("expression forms", "[parser]") {
  CHECK(expr("42") == "42");
  CHECK(expr("1.5e3") == "1.5e3");
  CHECK(expr("true") == "true");
  CHECK(expr("false") == "false");
  CHECK(expr("\"ab\"") == "\"ab\"");
  CHECK(expr("x") == "x");
  CHECK(expr("-x") == "(neg x)");
  CHECK(expr("f(x, axis=1, keepdims=true)") ==
        "(call f x axis=1 keepdims=true)");
  CHECK(expr("cast<f16>(x)") == "(call cast<f16> x)");
  CHECK(expr("f()") == "(call f)");
  CHECK(expr("x[1:N, :, 3, idx]") == "(index x 1:N : 3 idx)");
  CHECK(expr("x[:2, 1:]") == "(index x :2 1:)");
  CHECK(expr("x[0, :,]") == "(index x 0 :)");
  CHECK(expr("x[0][1]") == "(index (index x 0) 1)");
  CHECK(expr("[1, 2, 3]") == "[1 2 3]");
  CHECK(expr("[]") == "[]");
  CHECK(expr("[a, b,]") == "[a b]");
  CHECK(expr("(a, b)") == "(tuple a b)");
  CHECK(expr("(a)") == "a");
}

TEST_CASE("precedence: comparison < additive < multiplicative < unary < "
          "postfix",
          "[parser]") {
  CHECK(expr("a + b * c") == "(+ a (* b c))");
  CHECK(expr("a * b + c") == "(+ (* a b) c)");
  CHECK(expr("a - b - c") == "(- (- a b) c)");
  CHECK(expr("a / b / c") == "(/ (/ a b) c)");
  CHECK(expr("a @ b @ c") == "(@ (@ a b) c)");
  CHECK(expr("a + b @ c") == "(+ a (@ b c))");
  CHECK(expr("a * b @ c") == "(@ (* a b) c)");
  CHECK(expr("-a * b") == "(* (neg a) b)");
  CHECK(expr("-a[0]") == "(neg (index a 0))");
  CHECK(expr("- -a") == "(neg (neg a))");
  CHECK(expr("a < b + c") == "(< a (+ b c))");
  CHECK(expr("a + b == c * d") == "(== (+ a b) (* c d))");
  CHECK(expr("(a + b) * c") == "(* (+ a b) c)");
  CHECK(expr("a <= b") == "(<= a b)");
  CHECK(expr("a >= b") == "(>= a b)");
  CHECK(expr("a > b") == "(> a b)");
  CHECK(expr("a != b") == "(!= a b)");
  CHECK(expr("f(a)[1] * 2") == "(* (index (call f a) 1) 2)");
}

TEST_CASE("comparisons are non-associative", "[parser]") {
  auto p = parse("kernel k() -> f32 { let v = a < b < c; return v; }");
  REQUIRE(p->diags.size() == 1);
  CHECK(p->diags[0].code == DiagCode::ChainedComparison);
  CHECK(p->diags[0].message ==
        "comparison operators are non-associative: '<' cannot follow '<' "
        "without parentheses");
  REQUIRE(p->diags[0].notes.size() == 1);
  CHECK(expr("(a < b) == c") == "(== (< a b) c)");
  CHECK(expr("a == (b < c)") == "(== a (< b c))");
  auto q = parse("kernel k() -> f32 { let v = a == b != c; return v; }");
  CHECK(q->codes() == std::vector<DiagCode>{DiagCode::ChainedComparison});
}

TEST_CASE("slice steps are rejected", "[parser]") {
  auto p = parse("kernel k() -> f32 { let v = x[0:4:2]; return v; }");
  CHECK(p->codes() == std::vector<DiagCode>{DiagCode::SliceStep});
}

TEST_CASE("ranges cover the whole expression and the parentheses",
          "[parser]") {
  auto p = parse("kernel k() -> f32 { let v = (a + b) * c; return v; }");
  REQUIRE(p->diags.empty());
  const Expr &e = *p->module->functions[0].body[0].value;
  CHECK(p->sm.getText(e.range.file).substr(e.range.begin, e.range.size()) ==
        "(a + b) * c");
  const auto &b = llvm::cast<BinaryExpr>(e);
  CHECK(b.opRange.begin == 36);
}

TEST_CASE("recovery: one typo, one diagnostic, rest still parsed",
          "[parser]") {
  SECTION("missing semicolon before the next statement") {
    auto p = parse("kernel k(x: f32) -> f32 {\n  let a = x + 1\n  let b = a;\n"
                   "  return b;\n}\n");
    CHECK(p->codes() == std::vector<DiagCode>{DiagCode::ExpectedToken});
    CHECK(p->diags[0].message ==
          "expected ';' after the let statement, found 'let'");
    // Reported right after the last token of the statement.
    CHECK(p->diags[0].begin == LineCol{2, 16});
    CHECK(p->diags[0].end == LineCol{2, 16});
    REQUIRE(p->module->functions[0].body.size() == 3);
  }
  SECTION("garbage inside an expression") {
    auto p = parse("kernel k(x: f32) -> f32 {\n  let a = x + * 2;\n"
                   "  return a;\n}\nkernel j() -> f32 { return 1.0; }\n");
    CHECK(p->codes() == std::vector<DiagCode>{DiagCode::ExpectedToken});
    REQUIRE(p->module->functions.size() == 2);
    CHECK(p->module->functions[0].body.size() == 2);
    CHECK(llvm::isa<ErrorExpr>(*p->module->functions[0].body[0].value));
  }
  SECTION("a broken header skips that item only") {
    auto p = parse("kernel k(x: f32[N) -> f32 { return x; }\n"
                   "kernel j() -> f32 { return 1.0; }\n");
    CHECK(p->codes() == std::vector<DiagCode>{DiagCode::ExpectedToken});
    REQUIRE(p->module->functions.size() == 2);
    CHECK(p->module->functions[0].hadParseError);
    CHECK_FALSE(p->module->functions[1].hadParseError);
  }
  SECTION("a missing closing brace") {
    auto p = parse("kernel k() -> f32 { return 1.0;\nkernel j() -> f32 { "
                   "return 1.0; }\n");
    CHECK(p->codes() == std::vector<DiagCode>{DiagCode::ExpectedToken});
    CHECK(p->module->functions.size() == 2);
  }
  SECTION("a stray token at the top level") {
    auto p = parse("let x = 1;\nconst A = 1;\n");
    CHECK(p->codes() == std::vector<DiagCode>{DiagCode::ExpectedToken});
    CHECK(p->module->consts.size() == 1);
  }
  SECTION("a statement that is not let or return") {
    auto p = parse("kernel k() -> f32 { x = 1; return 1.0; }");
    CHECK(p->codes() == std::vector<DiagCode>{DiagCode::ExpectedToken});
    CHECK(p->module->functions[0].body.size() == 1);
  }
  SECTION("a lexer error is not reported again by the parser") {
    auto p = parse("kernel k() -> f32 { let a = 1 $ 2; return a; }");
    CHECK(p->codes() == std::vector<DiagCode>{DiagCode::InvalidCharacter});
  }
  SECTION("several typos give one diagnostic each") {
    auto p = parse("kernel k() -> f32 {\n let a = 1 +;\n let b = (2;\n"
                   " let c = 3 3;\n return a;\n}\n");
    CHECK(p->codes() == std::vector<DiagCode>(3, DiagCode::ExpectedToken));
  }
}

TEST_CASE("imports need a quoted path", "[parser]") {
  auto p = parse("import common;\nconst A = 1;");
  CHECK(p->codes() == std::vector<DiagCode>{DiagCode::ExpectedToken});
  CHECK(p->module->consts.size() == 1);
}

TEST_CASE("the empty file parses to an empty module", "[parser]") {
  auto p = parse("");
  CHECK(p->diags.empty());
  CHECK(p->module->functions.empty());
}
