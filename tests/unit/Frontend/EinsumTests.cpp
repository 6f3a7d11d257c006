// Tests of einsum and `@`: spec syntax, sizes per letter, ellipsis.
#include "TestUtil.h"

#include <catch2/catch.hpp>

using namespace accy;
using namespace accy::test;

namespace {
/// The checked spec of the first let in kernel k.
const EinsumSpec &specOf(const Analysis &a) {
  return llvm::cast<BuiltinCallExpr>(*a.kernel("k")->body.lets[0]->value)
      .attrs.einsum;
}
} // namespace

TEST_CASE("einsum results and normalized specs", "[einsum]") {
  auto a = analyzeKernel("x: f32[B, 784], w: f32[784, 512]", "f32",
                         "let y = einsum(\"bi,ij->bj\", x, w);\nreturn 0.0;");
  REQUIRE(a->text() == "");
  CHECK(a->kernel("k")->body.lets[0]->type().str() == "f32[B, 512]");
  const EinsumSpec &s = specOf(*a);
  CHECK(s.text == "bi,ij->bj");
  REQUIRE(s.inputs.size() == 2);
  CHECK(s.inputs[0].letters == "bi");
  CHECK(s.inputs[0].ellipsisPos == -1);
  CHECK(s.output.letters == "bj");
  CHECK(s.contracted == "i");
  REQUIRE(s.sizeOf('i'));
  CHECK(*s.sizeOf('i') == Dim::constant(784));
  CHECK(*s.sizeOf('b') == Dim::symbol("B"));
  CHECK(s.sizeOf('z') == nullptr);
}

TEST_CASE("einsum forms", "[einsum]") {
  CHECK(typeOf("x: f32[N, N]", "einsum(\"ii->i\", x)") == "f32[N]");
  CHECK(typeOf("x: f32[N, D]", "einsum(\"ij->\", x)") == "f32");
  CHECK(typeOf("x: f32[N, D]", "einsum(\"ij->ji\", x)") == "f32[D, N]");
  CHECK(typeOf("x: f32[A, B, C]", "einsum(\"...c->...\", x)") == "f32[A, B]");
  CHECK(typeOf("x: f32[4, N, D], y: f32[D, E]", "einsum(\"...d,de->...e\", "
               "x, y)") == "f32[4, N, E]");
  CHECK(typeOf("x: f32[2, 1, N, D], y: f32[3, D, E]",
               "einsum(\"...nd,...de->...ne\", x, y)") == "f32[2, 3, N, E]");
  CHECK(typeOf("x: f32[N], y: f32[M]", "einsum(\"i,j->ij\", x, y)") ==
        "f32[N, M]");
  CHECK(typeOf("s: f32, x: f32[N]", "einsum(\",i->i\", s, x)") == "f32[N]");
}

TEST_CASE("the ellipsis expands to batch labels aligned from the right",
          "[einsum]") {
  auto a = analyzeKernel("x: f32[2, 3, N, D], y: f32[3, D, E]", "f32",
                         "let y2 = einsum(\"...nd,...de->...ne\", x, y);\n"
                         "return 0.0;");
  REQUIRE(a->text() == "");
  const EinsumSpec &s = specOf(*a);
  CHECK(s.inputs[0].expanded == "ABnd");
  CHECK(s.inputs[1].expanded == "Bde");
  CHECK(s.output.expanded == "ABne");
  CHECK(s.inputs[0].ellipsisRank == 2);
  CHECK(s.inputs[1].ellipsisRank == 1);
  CHECK(s.output.ellipsisRank == 2);
  CHECK(s.contracted == "d");
}

TEST_CASE("letter sizes must agree across operands", "[einsum]") {
  CHECK(typeOf("x: f32[B, 784], w: f32[512, 10]",
               "einsum(\"bi,ij->bj\", x, w)") ==
        "error:E0053 einsum \"bi,ij->bj\": 'i' is 784 in operand 0 but 512 "
        "in operand 1");
  CHECK(typeOf("x: f32[N, M]", "einsum(\"ii->i\", x)") ==
        "error:E0053 einsum \"ii->i\": 'i' is N in operand 0 but M in "
        "operand 0");
  CHECK(typeOf("x: f32[2, D], y: f32[3, D]", "einsum(\"...d,...d->...\", x, "
               "y)")
            .rfind("error:E0040", 0) == 0);
}

TEST_CASE("spec syntax errors point into the string", "[einsum]") {
  auto a = analyzeKernel("x: f32[N, D]", "f32",
                         "let y = einsum(\"bI->b\", x);\nreturn 0.0;");
  REQUIRE(a->codes() == std::vector<std::string>{"E0050"});
  CHECK(a->messages()[0] ==
        "einsum \"bI->b\": 'I' in operand 0 is not a lower-case letter");
  const Diagnostic &d = a->result.diagnostics[0];
  CHECK(d.begin.col == 18);
  CHECK(d.end.col == 19);
  CHECK(typeOf("x: f32[N, D]", "einsum(\"ij\", x)") ==
        "error:E0050 einsum \"ij\": '->' is required, as in \"bi,ij->bj\"");
  CHECK(typeOf("x: f32[N, D]", "einsum(\"......->\", x)") ==
        "error:E0050 einsum \"......->\": '...' appears twice in operand 0");
  CHECK(typeOf("x: f32[N, D]", "einsum(\"i.j->i\", x)")
            .rfind("error:E0050", 0) == 0);
  CHECK(typeOf("x: f32[N, D]", "einsum(\"ij->i->j\", x)")
            .rfind("error:E0050", 0) == 0);
  CHECK(typeOf("x: f32[N, D]", "einsum(\"i j->i\", x)")
            .rfind("error:E0050", 0) == 0);
}

TEST_CASE("operand counts, ranks and outputs", "[einsum]") {
  CHECK(typeOf("x: f32[N, D]", "einsum(\"ij,jk->ik\", x)") ==
        "error:E0051 einsum \"ij,jk->ik\" names 2 operands but 1 was given");
  CHECK(typeOf("x: f32[N, D]", "einsum(\"ijk->i\", x)") ==
        "error:E0052 einsum \"ijk->i\": operand 0 is f32[N, D] (rank 2) but "
        "its subscripts 'ijk' name 3 axes");
  CHECK(typeOf("x: f32[N]", "einsum(\"...ij->...\", x)") ==
        "error:E0052 einsum \"...ij->...\": operand 0 is f32[N] (rank 1) but "
        "its subscripts '...ij' name at least 2 axes");
  CHECK(typeOf("x: f32[N, D]", "einsum(\"ij->k\", x)") ==
        "error:E0054 einsum \"ij->k\": output letter 'k' does not appear in "
        "any operand");
  CHECK(typeOf("x: f32[N, D]", "einsum(\"ij->ii\", x)") ==
        "error:E0054 einsum \"ij->ii\": 'i' appears twice in the output");
  CHECK(typeOf("x: f32[N, D]", "einsum(\"...j->j\", x)")
            .rfind("error:E0054", 0) == 0);
  CHECK(typeOf("x: f32[N, D]", "einsum(\"ij->...\", x)")
            .rfind("error:E0054", 0) == 0);
  CHECK(typeOf("x: f32[N, D]", "einsum(x)").rfind("error:E0073", 0) == 0);
  CHECK(typeOf("x: f32[N, D]", "einsum(\"ij->i\")").rfind("error:E0070", 0) ==
        0);
  CHECK(typeOf("x: f32[N, D], y: f16[D]", "einsum(\"ij,j->i\", x, y)")
            .rfind("error:E0041", 0) == 0);
}

TEST_CASE("@ is einsum ...ij,...jk->...ik", "[einsum]") {
  CHECK(typeOf("a: f32[B, 784], b: f32[784, 10]", "a @ b") == "f32[B, 10]");
  CHECK(typeOf("a: f32[4, N, K], b: f32[K, M]", "a @ b") == "f32[4, N, M]");
  CHECK(typeOf("a: f32[4, 1, N, K], b: f32[3, K, M]", "a @ b") ==
        "f32[4, 3, N, M]");
  CHECK(typeOf("a: f32[B, 784], b: f32[512, 10]", "a @ b") ==
        "error:E0055 '@': the left operand f32[B, 784] has 784 columns but "
        "the right operand f32[512, 10] has 512 rows");
  CHECK(typeOf("a: f32[N], b: f32[N, M]", "a @ b") ==
        "error:E0044 the operands of '@' must have rank 2 or more; the left "
        "operand is f32[N]");
  CHECK(typeOf("a: f32[2, N, K], b: f32[3, K, M]", "a @ b")
            .rfind("error:E0040", 0) == 0);
  CHECK(typeOf("a: bool[N, K], b: bool[K, M]", "a @ b")
            .rfind("error:E0042", 0) == 0);
  auto a = analyzeKernel("a: f32[2, N, K], b: f32[K, M]", "f32",
                         "let y = a @ b;\nreturn 0.0;");
  REQUIRE(a->text() == "");
  const auto &call =
      llvm::cast<BuiltinCallExpr>(*a->kernel("k")->body.lets[0]->value);
  CHECK(call.builtin == Builtin::MatMul);
  CHECK(call.attrs.einsum.text == "...ij,...jk->...ik");
  CHECK(call.attrs.einsum.inputs[0].expanded == "Aij");
  CHECK(call.attrs.einsum.inputs[1].expanded == "jk");
  CHECK(call.attrs.einsum.output.expanded == "Aik");
  CHECK(*call.attrs.einsum.sizeOf('j') == Dim::symbol("K"));
}
