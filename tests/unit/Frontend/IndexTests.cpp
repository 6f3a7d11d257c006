// Tests of indexing: slices, points, gathers, bounds.
#include "TestUtil.h"

#include <catch2/catch.hpp>

using namespace accy;
using namespace accy::test;

namespace {
const IndexExpr &indexOf(const Analysis &a) {
  return llvm::cast<IndexExpr>(*a.kernel("k")->body.lets[0]->value);
}
std::unique_ptr<Analysis> letIn(const std::string &params,
                                const std::string &expr) {
  return analyzeKernel(params, "f32", "let v = " + expr + ";\nreturn 0.0;");
}
} // namespace

TEST_CASE("slices keep axes, integers drop them", "[index]") {
  CHECK(typeOf("x: f32[10, D]", "x[2:5]") == "f32[3, D]");
  CHECK(typeOf("x: f32[10, D]", "x[2:5, :]") == "f32[3, D]");
  CHECK(typeOf("x: f32[10, D]", "x[3]") == "f32[D]");
  CHECK(typeOf("x: f32[10, D]", "x[:, 0]") == "f32[10]");
  CHECK(typeOf("x: f32[10, D]", "x[-1, -1]") == "f32");
  CHECK(typeOf("x: f32[10]", "x[:-2]") == "f32[8]");
  CHECK(typeOf("x: f32[10]", "x[-3:]") == "f32[3]");
  CHECK(typeOf("x: f32[N, D]", "x[1:N]") == "f32[N - 1, D]");
  CHECK(typeOf("x: f32[N, D]", "x[:, 1:D - 1]") == "f32[N, D - 2]");
  CHECK(typeOf("x: f32[N]", "x[0:4]") == "f32[4]");
  CHECK(typeOf("x: f32[N, D]", "x[N - 1]") == "f32[D]");
  auto a = analyze("const LO = 2;\nkernel k(x: f32[10]) -> f32[6] { return "
                   "x[LO:-LO]; }");
  CHECK(a->text() == "");
}

TEST_CASE("index axes are normalized", "[index]") {
  auto a = letIn("x: f32[10, N, 4, 5]", "x[1:3, :-1, -2]");
  REQUIRE(a->text() == "");
  const IndexExpr &ix = indexOf(*a);
  REQUIRE(ix.axes.size() == 4);
  CHECK(ix.axes[0].kind == IndexAxis::Kind::Slice);
  CHECK(ix.axes[0].start == Dim::constant(1));
  CHECK(ix.axes[0].stop == Dim::constant(3));
  CHECK(ix.axes[0].provenInRange);
  CHECK(ix.axes[1].kind == IndexAxis::Kind::Slice);
  CHECK(ix.axes[1].start == Dim::constant(0));
  CHECK(ix.axes[1].stop.str() == "N - 1");
  CHECK(ix.axes[2].kind == IndexAxis::Kind::Point);
  CHECK(ix.axes[2].start == Dim::constant(2));
  CHECK(ix.axes[3].kind == IndexAxis::Kind::Full);
  CHECK(ix.type.str() == "f32[2, N - 1, 5]");
  CHECK(ix.gatherIndex() == nullptr);
}

TEST_CASE("symbolic bounds that cannot be proven are checked at run time",
          "[index]") {
  auto a = letIn("x: f32[N]", "x[0:4]");
  REQUIRE(a->text() == "");
  CHECK_FALSE(indexOf(*a).axes[0].provenInRange);
  auto b = letIn("x: f32[N]", "x[:-1]");
  CHECK(indexOf(*b).axes[0].provenInRange == false); // N may be 1.
  auto c = letIn("x: f32[N]", "x[-1]");
  CHECK(indexOf(*c).axes[0].provenInRange);
  CHECK(indexOf(*c).axes[0].start.str() == "N - 1");
}

TEST_CASE("an i32 tensor index gathers", "[index]") {
  CHECK(typeOf("x: f32[V, D], i: i32[B, T]", "x[i]") == "f32[B, T, D]");
  CHECK(typeOf("x: f32[V, D], i: i32[K]", "x[:, i]") == "f32[V, K]");
  CHECK(typeOf("x: f32[V, D], i: i32[K]", "x[1:3, i]") == "f32[2, K]");
  CHECK(typeOf("x: f32[V, D], i: i32", "x[i]") == "f32[D]");
  auto a = letIn("x: f32[V, D], i: i32[K]", "x[i]");
  REQUIRE(a->text() == "");
  CHECK(indexOf(*a).axes[0].kind == IndexAxis::Kind::Gather);
  REQUIRE(indexOf(*a).gatherIndex());
  CHECK(indexOf(*a).gatherIndex()->type.str() == "i32[K]");
}

TEST_CASE("constant bounds out of range are errors", "[index]") {
  CHECK(typeOf("x: f32[10]", "x[0:12]") ==
        "error:E0047 slice stop 12 is out of range for axis 0 of f32[10] "
        "(size 10)");
  CHECK(typeOf("x: f32[10]", "x[-12:]") ==
        "error:E0047 slice start -12 is out of range for axis 0 of f32[10] "
        "(size 10)");
  CHECK(typeOf("x: f32[10]", "x[5:3]") ==
        "error:E0047 slice 5:3 of axis 0 of f32[10] (size 10) is empty");
  CHECK(typeOf("x: f32[10]", "x[10]") ==
        "error:E0047 index 10 is out of range for axis 0 of f32[10] (size "
        "10)");
  CHECK(typeOf("x: f32[10]", "x[-11]").rfind("error:E0047", 0) == 0);
  CHECK(typeOf("x: f32[N]", "x[N]").rfind("error:E0047", 0) == 0);
  CHECK(typeOf("x: f32[N]", "x[0:N + 1]").rfind("error:E0047", 0) == 0);
  CHECK(typeOf("x: f32[N, D]", "x[-N]") ==
        "error:E0047 index -N is out of range for axis 0 of f32[N, D] (size "
        "N)");
  CHECK(typeOf("x: f32[N]", "x[N - 1:N - 1]").rfind("error:E0047", 0) == 0);
  CHECK(typeOf("x: f32[N]", "x[2 * N:]").rfind("error:E0047", 0) == 0);
}

TEST_CASE("bad indices", "[index]") {
  CHECK(typeOf("x: f32[4, 4]", "x[0, 0, 0]") ==
        "error:E0048 too many indices for f32[4, 4]: 3 given but it has 2 "
        "axes");
  CHECK(typeOf("x: f32", "x[0]") == "error:E0048 cannot index the scalar f32");
  CHECK(typeOf("x: f32[4]", "x[1.5]") ==
        "error:E0049 an index must be an integer, a dimension or an i32 "
        "tensor, got the float 1.5");
  CHECK(typeOf("x: f32[4], y: f32[2]", "x[y]") ==
        "error:E0049 an index must be an integer, a dimension or an i32 "
        "tensor, got f32[2]");
  CHECK(typeOf("x: f32[4, 4], i: i32[2]", "x[i, i]") ==
        "error:E0049 only one tensor index is allowed in one subscript; use "
        "take() for more");
  CHECK(typeOf("x: f32[4], i: i32", "x[i:]") ==
        "error:E0049 a slice start must be an integer constant or a "
        "dimension, got a run-time value");
}
