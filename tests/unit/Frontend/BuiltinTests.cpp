// Tests of built-in calls: argument binding, constants, each built-in.
#include "TestUtil.h"

#include <catch2/catch.hpp>

using namespace accy;
using namespace accy::test;

namespace {
const BuiltinCallExpr &callOf(const Analysis &a) {
  return llvm::cast<BuiltinCallExpr>(*a.kernel("k")->body.lets[0]->value);
}
std::unique_ptr<Analysis> letIn(const std::string &params,
                                const std::string &expr) {
  return analyzeKernel(params, "f32", "let v = " + expr + ";\nreturn 0.0;");
}
} // namespace

TEST_CASE("the built-in table", "[builtins]") {
  CHECK(lookupBuiltin("softmax")->id == Builtin::Softmax);
  CHECK(lookupBuiltin("@") == nullptr); // MatMul is only the operator.
  CHECK(lookupBuiltin("nope") == nullptr);
  CHECK(getBuiltinInfo(Builtin::Cast).name == std::string("cast"));
  CHECK(builtinNames().size() + 1 == allBuiltins().size());
  for (const BuiltinInfo &info : allBuiltins())
    CHECK(&getBuiltinInfo(info.id) == &info);
}

TEST_CASE("activations", "[builtins]") {
  for (const char *f : {"relu", "gelu", "sigmoid", "tanh", "silu", "exp",
                        "log", "sqrt", "rsqrt", "abs"})
    CHECK(typeOf("x: bf16[N, 3]", std::string(f) + "(x)") == "bf16[N, 3]");
  CHECK(typeOf("x: i32[N]", "relu(x)") == "i32[N]");
  CHECK(typeOf("x: i32[N]", "abs(x)") == "i32[N]");
  CHECK(typeOf("x: i32[N]", "exp(x)") ==
        "error:E0042 'exp' requires a floating-point operand, got i32[N]; "
        "use cast<f32>(...)");
  CHECK(typeOf("x: bool[N]", "relu(x)").rfind("error:E0042", 0) == 0);
  CHECK(typeOf("", "exp(1)") == "f32");
}

TEST_CASE("softmax and log_softmax take one axis", "[builtins]") {
  auto a = letIn("x: f32[N, D]", "softmax(x)");
  REQUIRE(a->text() == "");
  CHECK(callOf(*a).attrs.axes == std::vector<int64_t>{1});
  auto b = letIn("x: f32[N, D]", "log_softmax(x, axis=0)");
  CHECK(callOf(*b).attrs.axis() == 0);
  CHECK(typeOf("x: f32[N, D]", "softmax(x, axis=2)") ==
        "error:E0045 axis 2 is out of range for f32[N, D] (rank 2) in "
        "'softmax'; valid axes are -2 to 1");
  CHECK(typeOf("x: f32", "softmax(x)").rfind("error:E0045", 0) == 0);
}

TEST_CASE("reductions", "[builtins]") {
  CHECK(typeOf("x: f32[N, D]", "sum(x)") == "f32");
  CHECK(typeOf("x: f32[N, D]", "sum(x, axis=1)") == "f32[N]");
  CHECK(typeOf("x: f32[N, D]", "max(x, axis=-1, keepdims=true)") ==
        "f32[N, 1]");
  CHECK(typeOf("x: f32[A, B, C]", "min(x, axis=[2, 0])") == "f32[B]");
  CHECK(typeOf("x: f32[A, B, C]", "mean(x, axis=[0, 2], keepdims=true)") ==
        "f32[1, B, 1]");
  CHECK(typeOf("x: f32[N, D]", "sum(x, 1)") == "f32[N]");
  CHECK(typeOf("x: i32[N]", "sum(x)") == "i32");
  CHECK(typeOf("x: i32[N]", "mean(x)").rfind("error:E0042", 0) == 0);
  auto a = letIn("x: f32[A, B, C]", "sum(x, axis=[-1, 0], keepdims=true)");
  REQUIRE(a->text() == "");
  CHECK(callOf(*a).attrs.axes == std::vector<int64_t>{0, 2});
  CHECK(callOf(*a).attrs.keepdims);
  auto b = letIn("x: f32[A, B]", "sum(x)");
  CHECK(callOf(*b).attrs.axes == std::vector<int64_t>{0, 1});
  CHECK(typeOf("x: f32[N, D]", "sum(x, axis=[1, -1])") ==
        "error:E0046 axis 1 is listed twice in argument 'axis' of 'sum'");
  CHECK(typeOf("x: f32[N, D]", "sum(x, axis=1.5)") ==
        "error:E0073 argument 'axis' of 'sum' must be an integer or a list "
        "of integers, got the float 1.5");
  CHECK(typeOf("x: f32[N, D]", "sum(x, keepdims=1)") ==
        "error:E0073 argument 'keepdims' of 'sum' must be true or false, got "
        "the integer 1");
}

TEST_CASE("named arguments must be compile-time constants", "[builtins]") {
  auto a = analyzeKernel("x: f32[N, D]", "f32", "let i = 1;\nlet v = sum(x, "
                                                "axis=i);\nreturn 0.0;");
  REQUIRE(a->codes() == std::vector<std::string>{"E0072"});
  CHECK(a->messages()[0] ==
        "argument 'axis' of 'sum' must be a compile-time constant");
  CHECK(typeOf("x: f32[N, D]", "sum(x, keepdims=x > 0)")
            .rfind("error:E0072", 0) == 0);
  auto b = analyze("const AX = 1;\nconst KEEP = true;\nkernel k(x: f32[N, "
                   "D]) -> f32[N, 1] { return sum(x, axis=AX, "
                   "keepdims=KEEP); }");
  CHECK(b->text() == "");
  // max(a, b) is a reduction: a note says how to get the elementwise max.
  auto c = letIn("a: f32[N], b: f32[N]", "max(a, b)");
  REQUIRE(c->codes() == std::vector<std::string>{"E0072"});
  REQUIRE(c->result.diagnostics[0].notes.size() == 1);
  CHECK(c->result.diagnostics[0].notes[0].message ==
        "'max' is a reduction; for an elementwise max use select(a > b, a, "
        "b)");
}

TEST_CASE("argument binding errors", "[builtins]") {
  CHECK(typeOf("x: f32[N]", "sum(x, axes=0)") ==
        "error:E0071 'sum' has no parameter named 'axes'; did you mean "
        "'axis'?");
  CHECK(typeOf("x: f32[N]", "exp(x, axis=0)") ==
        "error:E0071 'exp' has no parameter named 'axis'; usage: exp(x)");
  CHECK(typeOf("x: f32[N]", "sum(x=x)") ==
        "error:E0071 argument 'x' of 'sum' is a tensor and must be passed by "
        "position; only compile-time constant arguments have names");
  CHECK(typeOf("x: f32[N]", "exp(x, x)") ==
        "error:E0070 'exp' takes 1 argument but 2 were given; usage: exp(x)");
  CHECK(typeOf("x: f32[N]", "cumsum(x)") ==
        "error:E0070 missing argument 'axis' of 'cumsum'; usage: "
        "cumsum(x, axis=K)");
  CHECK(typeOf("x: f32[N]", "exp()").rfind("error:E0070", 0) == 0);
  CHECK(typeOf("x: f32[N]", "sum(x, axis=0, axis=0)") ==
        "error:E0074 argument 'axis' of 'sum' is given twice");
  CHECK(typeOf("x: f32[N]", "sum(x, 0, axis=0)").rfind("error:E0074", 0) ==
        0);
  CHECK(typeOf("x: f32[N]", "sum(x, keepdims=true, 0)") ==
        "error:E0075 positional argument after a named one in the call of "
        "'sum'");
}

TEST_CASE("take, transpose, reshape, broadcast, concat", "[builtins]") {
  CHECK(typeOf("x: f32[V, D], i: i32[B, T]", "take(x, i)") ==
        "f32[B, T, D]");
  CHECK(typeOf("x: f32[V, D], i: i32[K]", "take(x, i, axis=1)") ==
        "f32[V, K]");
  CHECK(typeOf("x: f32[V, D], i: f32[K]", "take(x, i)") ==
        "error:E0049 the indices of 'take' must be an i32 tensor, got f32[K]");
  CHECK(typeOf("x: f32[A, B, C]", "transpose(x)") == "f32[C, B, A]");
  CHECK(typeOf("x: f32[A, B, C]", "transpose(x, perm=[0, 2, 1])") ==
        "f32[A, C, B]");
  CHECK(typeOf("x: f32[A, B]", "transpose(x, perm=[0])") ==
        "error:E0059 perm has 1 entries but the operand f32[A, B] has 2 axes");
  CHECK(typeOf("x: f32[A, B]", "transpose(x, perm=[1, 1])") ==
        "error:E0059 perm is not a permutation: axis 1 appears twice");
  CHECK(typeOf("x: f32[A, B]", "transpose(x, perm=[0, 2])")
            .rfind("error:E0045", 0) == 0);
  CHECK(typeOf("x: f32[N, D]", "reshape(x, [D, N])") == "f32[D, N]");
  CHECK(typeOf("x: f32[N, 6]", "reshape(x, [N, 2, 3])") == "f32[N, 2, 3]");
  CHECK(typeOf("x: f32[N, 6]", "reshape(x, [-1, 3])") == "f32[2*N, 3]");
  CHECK(typeOf("x: f32[N, D]", "reshape(x, [N * D])") == "f32[D*N]");
  CHECK(typeOf("x: f32[4, 6]", "reshape(x, [5, 5])") ==
        "error:E0056 reshape of f32[4, 6] (24 elements) to [5, 5] (25 "
        "elements) changes the element count");
  CHECK(typeOf("x: f32[N, 6]", "reshape(x, [-1, 4])") ==
        "error:E0056 cannot infer the -1 in the reshape of f32[N, 6] (6*N "
        "elements) to [-1, 4]: 6*N is not a multiple of 4");
  CHECK(typeOf("x: f32[N]", "reshape(x, N)").rfind("error:E0073", 0) == 0);
  CHECK(typeOf("x: f32[2, 3, 4]", "reshape(x, [2, -1, -1])") ==
        "error:E0038 dimension size must be positive, got -1 in argument "
        "'shape' of 'reshape' (only one entry may be -1)");
  CHECK(typeOf("x: f32[N]", "reshape(x, [0])").rfind("error:E0038", 0) == 0);
  CHECK(typeOf("x: f32[N]", "reshape(x, [M])") ==
        "error:E0028 unknown dimension 'M'; the dimensions here are N");
  CHECK(typeOf("x: f32[D], y: f32[N]", "broadcast(x, [N, D])") == "f32[N, D]");
  CHECK(typeOf("x: f32[1, D]", "broadcast(x, [4, D])") == "f32[4, D]");
  CHECK(typeOf("x: f32[3, D]", "broadcast(x, [4, D])") ==
        "error:E0057 cannot broadcast f32[3, D] to [4, D]: axis 0 has size 3, "
        "which is neither 4 nor 1");
  CHECK(typeOf("x: f32[3, D]", "broadcast(x, [D])") ==
        "error:E0057 cannot broadcast f32[3, D] to [D]: the target has fewer "
        "axes");
  CHECK(typeOf("a: f32[N, D], b: f32[M, D]", "concat([a, b])") ==
        "f32[M + N, D]");
  CHECK(typeOf("a: f32[N, 2], b: f32[N, 3]", "concat([a, b], axis=-1)") ==
        "f32[N, 5]");
  CHECK(typeOf("a: f32[N, 2], b: f32[N, 3]", "concat([a, b])") ==
        "error:E0058 'concat' operand 1 is f32[N, 3] but operand 0 is f32[N, "
        "2]; all axes except axis 0 must match");
  CHECK(typeOf("a: f32[N, 2], b: f32[N]", "concat([a, b])")
            .rfind("error:E0058", 0) == 0);
  CHECK(typeOf("a: f32[N], b: f16[N]", "concat([a, b])")
            .rfind("error:E0041", 0) == 0);
  CHECK(typeOf("a: f32[N]", "concat(a)").rfind("error:E0073", 0) == 0);
  CHECK(typeOf("a: f32", "concat([a, a])").rfind("error:E0044", 0) == 0);
}

TEST_CASE("scans, losses, select, cast, full, iota", "[builtins]") {
  CHECK(typeOf("x: f32[N, D]", "cumsum(x, axis=1)") == "f32[N, D]");
  CHECK(typeOf("x: i32[N]", "cummax(x, axis=0)") == "i32[N]");
  CHECK(typeOf("x: bool[N]", "cumsum(x, axis=0)").rfind("error:E0042", 0) ==
        0);
  CHECK(typeOf("p: f32[N, C], t: f32[N, C]", "mse(p, t)") == "f32");
  CHECK(typeOf("p: f32[N], t: f32[M]", "mse(p, t)") ==
        "error:E0060 'mse': pred is f32[N] but target is f32[M]; their "
        "shapes must be equal");
  CHECK(typeOf("l: f32[B, C], y: i32[B]", "cross_entropy(l, y)") == "f32");
  CHECK(typeOf("l: f16[B, T, C], y: i32[B, T]", "nll(l, y)") == "f16");
  CHECK(typeOf("l: f32[B, C], y: i32[C]", "cross_entropy(l, y)") ==
        "error:E0060 'cross_entropy': labels i32[C] do not match logits "
        "f32[B, C]; expected labels of shape [B]");
  CHECK(typeOf("l: f32[B, C], y: i64[B]", "cross_entropy(l, y)") ==
        "error:E0042 'cross_entropy': labels must be i32 class ids, got "
        "i64[B]");
  CHECK(typeOf("l: f32, y: i32", "nll(l, y)").rfind("error:E0044", 0) == 0);
  CHECK(typeOf("x: f32[N, D]", "select(x > 0, x, 0.0)") == "f32[N, D]");
  CHECK(typeOf("c: bool[N, 1], a: f32[D]", "select(c, a, 1)") ==
        "f32[N, D]");
  CHECK(typeOf("x: f32[N]", "select(x, x, x)") ==
        "error:E0042 the condition of 'select' must be bool, got f32[N]; "
        "compare it, e.g. x > 0");
  CHECK(typeOf("x: f32[N], y: i32[N]", "select(x > 0, x, y)")
            .rfind("error:E0041", 0) == 0);
  CHECK(typeOf("x: f32[N, D]", "cast<bf16>(x)") == "bf16[N, D]");
  CHECK(typeOf("x: f32[N]", "cast<i32>(x)") == "i32[N]");
  CHECK(typeOf("x: f32[N]", "cast(x)") ==
        "error:E0076 'cast' needs a target element type: cast<f32>(x)");
  CHECK(typeOf("x: f32[N]", "cast<f32[N]>(x)") ==
        "error:E0076 'cast' takes an element type, not a tensor type; write "
        "cast<f32>(x)");
  CHECK(typeOf("x: f32[N]", "exp<f32>(x)") ==
        "error:E0076 'exp' takes no type argument; only cast<T>(x) does");
  auto c = letIn("x: f32[N]", "cast<f16>(x)");
  CHECK(callOf(*c).attrs.castTo == ElemType::F16);
  CHECK(typeOf("x: f32[N]", "full([N, 4], 0.0)") == "f32[N, 4]");
  CHECK(typeOf("x: f32[N]", "full([N], 0)") == "i32[N]");
  CHECK(typeOf("x: f32[N]", "full([N], true)") == "bool[N]");
  CHECK(typeOf("x: f32[N]", "full([N], x)") ==
        "error:E0044 the value of 'full' must be a scalar, got f32[N]");
  CHECK(typeOf("x: f32[N]", "full(N, 1.0)").rfind("error:E0073", 0) == 0);
  CHECK(typeOf("x: f32[N]", "iota(N)") == "i32[N]");
  CHECK(typeOf("x: f32[N]", "iota(8)") == "i32[8]");
  CHECK(typeOf("x: f32[N]", "iota(N + 1)") == "i32[N + 1]");
  CHECK(typeOf("x: f32[N]", "iota(x)") ==
        "error:E0072 argument 'n' of 'iota' must be a compile-time constant: "
        "an integer, an integer const or a dimension name");
  CHECK(typeOf("x: f32[N]", "iota(1.5)").rfind("error:E0073", 0) == 0);
  CHECK(typeOf("x: f32[N]", "iota(-3)").rfind("error:E0038", 0) == 0);
}
