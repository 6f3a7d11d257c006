// One minimal program per error code: each yields exactly that code.
#include "TestUtil.h"

#include <catch2/catch.hpp>

#include <set>

using namespace accy;
using namespace accy::test;

namespace {
struct Case {
  DiagCode code;
  std::string source;
  std::map<std::string, std::string> files = {};
};

std::string kernelWith(const std::string &params, const std::string &result,
                       const std::string &body) {
  return "kernel k(" + params + ") -> " + result + " {\n" + body + "\n}\n";
}

std::vector<Case> cases() {
  std::string many = "const A = 1;\n";
  for (int i = 0; i < 101; ++i)
    many += "$ ";
  std::string deep = "fn g0(x: f32) -> f32 { return x; }\n";
  for (int i = 1; i < 70; ++i)
    deep += "fn g" + std::to_string(i) + "(x: f32) -> f32 { return g" +
            std::to_string(i - 1) + "(x); }\n";
  return {
      {DiagCode::InvalidCharacter, kernelWith("x: f32", "f32", "return x $ 1;")},
      {DiagCode::InvalidUtf8, kernelWith("x: f32", "f32", "return x \xff;")},
      {DiagCode::UnterminatedString,
       kernelWith("x: f32[N]", "f32", "return einsum(\"i->, x);")},
      {DiagCode::UnterminatedComment, "const A = 1; /* open"},
      {DiagCode::InvalidNumber, kernelWith("x: f32", "f32", "return x * 2e+;")},
      {DiagCode::IntegerTooLarge, "const A = 18446744073709551616;"},
      {DiagCode::ExpectedToken, "const A = ;"},
      {DiagCode::NestingTooDeep,
       "const A = " + std::string(300, '(') + "1" + std::string(300, ')') +
           ";"},
      {DiagCode::ChainedComparison,
       kernelWith("x: f32", "bool", "return 0 < x < 1;")},
      {DiagCode::SliceStep, kernelWith("x: f32[8]", "f32[4]", "return x[::2];")},
      {DiagCode::Redefinition, "const A = 1;\nconst A = 2;"},
      {DiagCode::Shadowing, kernelWith("x: f32", "f32", "let x = 1.0;\nreturn x;")},
      {DiagCode::UnknownName, kernelWith("x: f32", "f32", "return y;")},
      {DiagCode::UnknownFunction, kernelWith("x: f32", "f32", "return foo(x);")},
      {DiagCode::ImportNotFound, "import \"missing.accy\";"},
      {DiagCode::ImportCycle, "import \"main.accy\";"},
      {DiagCode::NotAValue, kernelWith("x: f32[N]", "f32", "return N;")},
      {DiagCode::NotCallable, kernelWith("x: f32", "f32", "return x(1);")},
      {DiagCode::UnknownDimension,
       kernelWith("x: f32", "i32", "return sum(iota(M));")},
      {DiagCode::ConstNotLiteral, "const A = exp(1.0);"},
      {DiagCode::MissingReturn, kernelWith("x: f32", "f32", "let y = x;")},
      {DiagCode::CodeAfterReturn,
       kernelWith("x: f32", "f32", "return x;\nlet y = x;")},
      {DiagCode::TupleNotAllowed,
       kernelWith("x: f32", "f32", "return exp((x, x));")},
      {DiagCode::ResultCountMismatch,
       kernelWith("x: f32", "(f32, f32)", "return x;")},
      {DiagCode::ResultTypeMismatch, kernelWith("x: f32[N]", "f32", "return x;")},
      {DiagCode::UnboundResultDim, kernelWith("x: f32", "f32[K]", "return x;")},
      {DiagCode::FnMultipleResults,
       "fn f(x: f32) -> (f32, f32) { return (x, x); }"},
      {DiagCode::DimensionNotInteger,
       "const T = true;\nkernel k(x: f32[T]) -> f32 { return 0.0; }"},
      {DiagCode::InvalidDimension, kernelWith("x: f32[0]", "f32", "return 0.0;")},
      {DiagCode::FileNotReadable,
       "import \"" + std::string(ACCY_SOURCE_DIR) + "\";"},
      {DiagCode::BroadcastMismatch,
       kernelWith("x: f32[2], y: f32[3]", "f32[2]", "return x + y;")},
      {DiagCode::ElementTypeMismatch,
       kernelWith("x: f32, y: f64", "f32", "return x + y;")},
      {DiagCode::InvalidElementType,
       kernelWith("x: bool", "bool", "return x + x;")},
      {DiagCode::LiteralNotRepresentable,
       kernelWith("x: i32", "i32", "return x + 1.5;")},
      {DiagCode::RankMismatch,
       kernelWith("x: f32[N]", "f32", "return full([2], x);")},
      {DiagCode::AxisOutOfRange,
       kernelWith("x: f32[N]", "f32[N]", "return softmax(x, axis=1);")},
      {DiagCode::DuplicateAxis,
       kernelWith("x: f32[N]", "f32", "return sum(x, axis=[0, 0]);")},
      {DiagCode::IndexOutOfRange, kernelWith("x: f32[4]", "f32", "return x[4];")},
      {DiagCode::TooManyIndices, kernelWith("x: f32[4]", "f32", "return x[0, 0];")},
      {DiagCode::InvalidIndex, kernelWith("x: f32[4]", "f32", "return x[true];")},
      {DiagCode::EinsumSyntax,
       kernelWith("x: f32[N]", "f32", "return einsum(\"I->\", x);")},
      {DiagCode::EinsumOperandCount,
       kernelWith("x: f32[N]", "f32", "return einsum(\"i->\", x, x);")},
      {DiagCode::EinsumRank,
       kernelWith("x: f32[N]", "f32", "return einsum(\"ij->\", x);")},
      {DiagCode::EinsumSizeMismatch,
       kernelWith("x: f32[2], y: f32[3]", "f32", "return einsum(\"i,i->\", x, y);")},
      {DiagCode::EinsumOutput,
       kernelWith("x: f32[N]", "f32[N]", "return einsum(\"i->j\", x);")},
      {DiagCode::MatmulMismatch,
       kernelWith("x: f32[2, 3], y: f32[4, 5]", "f32[2, 5]", "return x @ y;")},
      {DiagCode::ReshapeMismatch,
       kernelWith("x: f32[6]", "f32[4]", "return reshape(x, [4]);")},
      {DiagCode::BroadcastToMismatch,
       kernelWith("x: f32[2]", "f32[3]", "return broadcast(x, [3]);")},
      {DiagCode::ConcatMismatch,
       kernelWith("x: f32[2, 3], y: f32[2]", "f32", "return sum(concat([x, y]));")},
      {DiagCode::InvalidPermutation,
       kernelWith("x: f32[2, 3]", "f32[3, 2]", "return transpose(x, perm=[0]);")},
      {DiagCode::LossShapeMismatch,
       kernelWith("p: f32[N], t: f32[M]", "f32", "return mse(p, t);")},
      {DiagCode::SizeOverflow,
       kernelWith("x: f32", "f32",
                  "return sum(iota(9223372036854775807 + 1));")},
      {DiagCode::ArgumentCount, kernelWith("x: f32", "f32", "return exp();")},
      {DiagCode::UnknownNamedArgument,
       kernelWith("x: f32[N]", "f32[N]", "return softmax(x, dim=0);")},
      {DiagCode::NonConstantArgument,
       kernelWith("x: f32[N]", "f32[N]", "return softmax(x, axis=x);")},
      {DiagCode::ArgumentKind,
       kernelWith("x: f32[N]", "f32[N]", "return softmax(x, axis=[0]);")},
      {DiagCode::DuplicateArgument,
       kernelWith("x: f32[N]", "f32[N]", "return softmax(x, 0, axis=0);")},
      {DiagCode::PositionalAfterNamed,
       kernelWith("x: f32[N]", "f32[N]", "return softmax(axis=0, x);")},
      {DiagCode::TypeArgument, kernelWith("x: f32", "f32", "return cast(x);")},
      {DiagCode::FnArgumentType,
       "fn f(x: f32[2]) -> f32 { return sum(x); }\n" +
           kernelWith("x: f32[3]", "f32", "return f(x);")},
      {DiagCode::FnDimConflict,
       "fn f(x: f32[N], y: f32[N]) -> f32 { return sum(x * y); }\n" +
           kernelWith("x: f32[2], y: f32[3]", "f32", "return f(x, y);")},
      {DiagCode::RecursiveFn, "fn f(x: f32) -> f32 { return f(x); }"},
      {DiagCode::InlineLimit, deep},
      {DiagCode::TooManyErrors, many},
  };
}
} // namespace

TEST_CASE("each error code has a minimal program that yields it",
          "[codes]") {
  std::set<DiagCode> covered;
  for (const Case &c : cases()) {
    std::string id = diagCodeString(c.code);
    INFO(id << ": " << c.source.substr(0, 200));
    auto a = analyze(c.source, c.files);
    INFO(a->text());
    REQUIRE_FALSE(a->result.diagnostics.empty());
    if (c.code == DiagCode::TooManyErrors) {
      CHECK(a->codes().back() == id);
    } else {
      CHECK(a->codes() == std::vector<std::string>{id});
    }
    // Every diagnostic has a valid range with resolved positions.
    for (const Diagnostic &d : a->result.diagnostics) {
      CHECK(d.range.isValid());
      CHECK(d.begin.line >= 1);
      CHECK(d.begin.col >= 1);
      CHECK((d.end.line > d.begin.line ||
             (d.end.line == d.begin.line && d.end.col >= d.begin.col)));
      CHECK_FALSE(d.message.empty());
    }
    covered.insert(c.code);
  }
  for (DiagCode code : allDiagCodes()) {
    INFO(diagCodeString(code));
    CHECK(covered.count(code));
  }
}
