// Tests of NumPy broadcasting and symbolic dimensions.
#include "TestUtil.h"

#include <catch2/catch.hpp>

using namespace accy;
using namespace accy::test;

TEST_CASE("broadcasting aligns from the right", "[shapes]") {
  CHECK(typeOf("a: f32[3, 4], b: f32[4]", "a + b") == "f32[3, 4]");
  CHECK(typeOf("a: f32[3, 1], b: f32[1, 4]", "a * b") == "f32[3, 4]");
  CHECK(typeOf("a: f32[2, 1, 4], b: f32[3, 1]", "a - b") == "f32[2, 3, 4]");
  CHECK(typeOf("a: f32[5], b: f32", "a / b") == "f32[5]");
  CHECK(typeOf("a: f32[1], b: f32[7]", "a + b") == "f32[7]");
}

TEST_CASE("symbolic sizes broadcast only against themselves or 1",
          "[shapes]") {
  CHECK(typeOf("a: f32[N, D], b: f32[D]", "a + b") == "f32[N, D]");
  CHECK(typeOf("a: f32[N, 1], b: f32[N, D]", "a + b") == "f32[N, D]");
  CHECK(typeOf("a: f32[N], b: f32[1]", "a + b") == "f32[N]");
  CHECK(typeOf("a: f32[N], b: f32[M]", "a + b") ==
        "error:E0040 cannot broadcast f32[N] and f32[M] in '+': size N (axis "
        "0 of the first operand) does not match M (axis 0 of the second); a "
        "symbolic size broadcasts only against itself or 1");
  CHECK(typeOf("a: f32[N], b: f32[4]", "a + b").rfind("error:E0040", 0) == 0);
  CHECK(typeOf("a: f32[3, 4], b: f32[3]", "a + b") ==
        "error:E0040 cannot broadcast f32[3, 4] and f32[3] in '+': size 4 "
        "(axis 1 of the first operand) does not match 3 (axis 0 of the "
        "second)");
}

TEST_CASE("comparisons broadcast and yield bool", "[shapes]") {
  CHECK(typeOf("a: f32[N, D], b: f32[N, 1]", "a >= b") == "bool[N, D]");
}

TEST_CASE("dynamic sizes from slices compare by value", "[shapes]") {
  CHECK(typeOf("x: f32[N]", "x[1:] - x[:-1]") == "f32[N - 1]");
  CHECK(typeOf("x: f32[N]", "x[2:] - x[:-1]").rfind("error:E0040", 0) == 0);
  CHECK(typeOf("x: f32[N]", "x[0:N]") == "f32[N]");
}

TEST_CASE("the same symbol in two parameters is one size", "[shapes]") {
  auto a = analyzeKernel("x: f32[N], y: f32[N]", "f32[N]", "return x * y;");
  CHECK(a->text() == "");
}
