//===- BuiltinTests.cpp - Host numerics of every lowered built-in ---------===//
//
// Each kernel of kernels/builtins.accy, compiled by accyc to an x86-64 host
// object and linked into this test, runs on random inputs of sizes that are
// not multiples of any tile (and of size 1) and is compared with the
// reference implementation.
//
//===----------------------------------------------------------------------===//

#include "Reference.h"
#include "TestSupport.h"

#include <algorithm>
#include <cmath>

using namespace accy::e2e;

ACCY_DECLARE_KERNEL(add_bcast)
ACCY_DECLARE_KERNEL(sub_col)
ACCY_DECLARE_KERNEL(mul_scalar)
ACCY_DECLARE_KERNEL(div_bcast)
ACCY_DECLARE_KERNEL(neg_chain)
ACCY_DECLARE_KERNEL(compare)
ACCY_DECLARE_KERNEL(activations)
ACCY_DECLARE_KERNEL(softmax_rows)
ACCY_DECLARE_KERNEL(softmax_cols)
ACCY_DECLARE_KERNEL(softmax_manual)
ACCY_DECLARE_KERNEL(reduce_all)
ACCY_DECLARE_KERNEL(reduce_rows)
ACCY_DECLARE_KERNEL(reduce_outer)
ACCY_DECLARE_KERNEL(matmul)
ACCY_DECLARE_KERNEL(batch_matmul)
ACCY_DECLARE_KERNEL(einsum_bmm)
ACCY_DECLARE_KERNEL(einsum_outer)
ACCY_DECLARE_KERNEL(einsum_diag)
ACCY_DECLARE_KERNEL(einsum_rowdot)
ACCY_DECLARE_KERNEL(dense_relu)
ACCY_DECLARE_KERNEL(middle_axis)
ACCY_DECLARE_KERNEL(einsum_ellipsis)
ACCY_DECLARE_KERNEL(einsum3)

/// The absolute tolerance of an f32 sum of `terms` values of about 1 to 4,
/// accumulated in any order: the terms may cancel, the rounding errors do
/// not.
static double sumTolerance(int64_t terms) {
  return std::max(1e-5, 1e-6 * terms);
}

// Sizes that are not multiples of any tile, plus size 1.
#define SIZES                                                                  \
  auto [n, d] = GENERATE(table<int64_t, int64_t>(                              \
      {{1, 1}, {1, 17}, {3, 5}, {37, 129}, {64, 33}, {7, 1}}));                \
  CAPTURE(n, d)

TEST_CASE("elementwise arithmetic broadcasts like NumPy", "[elementwise]") {
  SIZES;
  Tensor x = Tensor::random({n, d}, rng());
  auto run = [&](void *k, std::vector<Tensor *> in,
                 std::vector<int64_t> shape) {
    Tensor out = Tensor::zeros(shape);
    callKernel(k, in, {&out});
    return out;
  };
  SECTION("x + b[D]") {
    Tensor b = Tensor::random({d}, rng());
    requireClose(run(KERNEL(add_bcast), {&x, &b}, {n, d}),
                 ref::map(x, b, [](double a, double c) { return a + c; }));
  }
  SECTION("x - c[N, 1]") {
    Tensor c = Tensor::random({n, 1}, rng());
    requireClose(run(KERNEL(sub_col), {&x, &c}, {n, d}),
                 ref::map(x, c, [](double a, double c) { return a - c; }));
  }
  SECTION("x * scalar - scalar") {
    requireClose(run(KERNEL(mul_scalar), {&x}, {n, d}),
                 ref::map(x, [](double a) { return float(a * 3.0f) - 1.5f; }));
  }
  SECTION("x / y[1, D]") {
    Tensor y = Tensor::random({1, d}, rng(), 0.5f, 2.f);
    requireClose(run(KERNEL(div_bcast), {&x, &y}, {n, d}),
                 ref::map(x, y, [](double a, double c) { return a / c; }));
  }
  SECTION("negation in a chain") {
    Tensor y = Tensor::random({n, d}, rng());
    Tensor t =
        ref::map(x, y, [](double a, double c) { return -(a - c) * c + a; });
    requireClose(run(KERNEL(neg_chain), {&x, &y}, {n, d}), t, 1e-5, 1e-5);
  }
}

TEST_CASE("comparisons broadcast and yield bool", "[elementwise]") {
  SIZES;
  Tensor x = Tensor::random({n, d}, rng());
  Tensor y = Tensor::random({d}, rng());
  for (int64_t i = 0; i < std::min<int64_t>(d, x.numel()); ++i)
    x.data[i] = y.data[i]; // some equal elements
  // NaN: every comparison is false but !=, which is true.
  x.data[x.numel() - 1] = NAN;
  std::vector<Tensor> outs(6, Tensor::zeros({n, d}, Elem::Bool));
  callKernel(KERNEL(compare), {&x, &y},
             {&outs[0], &outs[1], &outs[2], &outs[3], &outs[4], &outs[5]});
  requireClose(outs[0],
               ref::compare(x, y, [](double a, double b) { return a < b; }));
  requireClose(outs[1],
               ref::compare(x, y, [](double a, double b) { return a <= b; }));
  requireClose(outs[2],
               ref::compare(x, y, [](double a, double b) { return a > b; }));
  requireClose(outs[3],
               ref::compare(x, y, [](double a, double b) { return a >= b; }));
  requireClose(outs[4],
               ref::compare(x, y, [](double a, double b) { return a == b; }));
  requireClose(outs[5],
               ref::compare(x, y, [](double a, double b) { return a != b; }));
}

TEST_CASE("activations are accurate", "[activation]") {
  int64_t n = GENERATE(1, 7, 1000, 4099);
  Tensor x = Tensor::random({n}, rng(), -9.f, 9.f);
  std::vector<Tensor> outs(10, Tensor::zeros({n}));
  callKernel(KERNEL(activations), {&x}, pointers(outs));
  auto p = [](double v) { return std::abs(double(float(v))) + 0.5; };
  const ref::Unary expected[] = {
      [](double v) { return v > 0 ? v : 0.0; },
      ref::gelu,
      [](double v) { return 1.0 / (1.0 + std::exp(-v)); },
      [](double v) { return std::tanh(v); },
      [](double v) { return v / (1.0 + std::exp(-v)); },
      [](double v) { return std::exp(v); },
      [&](double v) { return std::log(p(v)); },
      [&](double v) { return std::sqrt(p(v)); },
      [&](double v) { return 1.0 / std::sqrt(p(v)); },
      [](double v) { return std::abs(v); },
  };
  const char *names[] = {"relu", "gelu", "sigmoid", "tanh",  "silu",
                         "exp",  "log",  "sqrt",    "rsqrt", "abs"};
  for (int i = 0; i < 10; ++i) {
    INFO(names[i]);
    // Within a few ulp of the correctly rounded value (4 ulp ~ 5e-7).
    requireClose(outs[i], ref::map(x, expected[i]), 2e-6, 1e-6);
  }
}

TEST_CASE("softmax is stable and accurate", "[softmax]") {
  SIZES;
  float scale = GENERATE(1.f, 1e4f);
  CAPTURE(scale);
  Tensor x = Tensor::random({n, d}, rng(), -scale, scale);
  Tensor out = Tensor::zeros({n, d});
  callKernel(KERNEL(softmax_rows), {&x}, {&out});
  requireClose(out, ref::softmax(x, 1), 1e-5, 1e-7);
  for (double v : out.data)
    REQUIRE(std::isfinite(v));
  callKernel(KERNEL(softmax_manual), {&x}, {&out});
  requireClose(out, ref::softmax(x, 1), 1e-5, 1e-7);
  callKernel(KERNEL(softmax_cols), {&x}, {&out});
  requireClose(out, ref::softmax(x, 0), 1e-5, 1e-7);
}

TEST_CASE("reductions over all axes, rows and outer axes", "[reduction]") {
  SIZES;
  Tensor x = Tensor::random({n, d}, rng());
  using ref::Reduce;
  SECTION("all axes") {
    std::vector<Tensor> outs(4, Tensor::zeros({}));
    callKernel(KERNEL(reduce_all), {&x},
               {&outs[0], &outs[1], &outs[2], &outs[3]});
    requireClose(outs[0], ref::reduce(x, {0, 1}, false, Reduce::Sum), 1e-5,
                 sumTolerance(n * d));
    requireClose(outs[1], ref::reduce(x, {0, 1}, false, Reduce::Mean), 1e-5,
                 1e-5);
    requireClose(outs[2], ref::reduce(x, {0, 1}, false, Reduce::Max));
    requireClose(outs[3], ref::reduce(x, {0, 1}, false, Reduce::Min));
  }
  SECTION("rows, with and without keepdims") {
    Tensor s = Tensor::zeros({n}), m = Tensor::zeros({n, 1}),
           mx = Tensor::zeros({n}), mn = Tensor::zeros({n, 1});
    callKernel(KERNEL(reduce_rows), {&x}, {&s, &m, &mx, &mn});
    requireClose(s, ref::reduce(x, {1}, false, Reduce::Sum), 1e-5,
                 sumTolerance(d));
    requireClose(m, ref::reduce(x, {1}, true, Reduce::Mean), 1e-5, 1e-5);
    requireClose(mx, ref::reduce(x, {1}, false, Reduce::Max));
    requireClose(mn, ref::reduce(x, {1}, true, Reduce::Min));
  }
  SECTION("the middle axis of a 3-d tensor: sum with keepdims, softmax") {
    Tensor y = Tensor::random({n, 5, d}, rng());
    Tensor s = Tensor::zeros({n, 1, d}), sm = Tensor::zeros({n, 5, d});
    callKernel(KERNEL(middle_axis), {&y}, {&s, &sm});
    requireClose(s, ref::reduce(y, {1}, true, Reduce::Sum), 1e-5, 1e-5);
    requireClose(sm, ref::softmax(y, 1), 1e-5, 1e-7);
  }
  SECTION("outer axes of a 3-d tensor") {
    Tensor y = Tensor::random({n, 3, d}, rng());
    Tensor s = Tensor::zeros({3}), mx = Tensor::zeros({1, 3, 1});
    callKernel(KERNEL(reduce_outer), {&y}, {&s, &mx});
    requireClose(s, ref::reduce(y, {0, 2}, false, Reduce::Sum), 1e-5,
                 sumTolerance(n * d));
    requireClose(mx, ref::reduce(y, {0, 2}, true, Reduce::Max));
  }
}

TEST_CASE("contractions: @, batched @, einsum", "[contraction]") {
  auto [m, k, n] = GENERATE(table<int64_t, int64_t, int64_t>(
      {{1, 1, 1}, {3, 5, 7}, {33, 17, 65}, {64, 129, 31}}));
  CAPTURE(m, k, n);
  Tensor a = Tensor::random({m, k}, rng()), b = Tensor::random({k, n}, rng());
  SECTION("a @ b") {
    Tensor out = Tensor::zeros({m, n});
    callKernel(KERNEL(matmul), {&a, &b}, {&out});
    requireClose(out, ref::matmul(a, b), 1e-5, sumTolerance(k));
  }
  SECTION("batched a @ b broadcasts b") {
    Tensor a3 = Tensor::random({3, m, k}, rng());
    Tensor out = Tensor::zeros({3, m, n});
    callKernel(KERNEL(batch_matmul), {&a3, &b}, {&out});
    requireClose(out, ref::matmul(a3, b), 1e-5, sumTolerance(k));
  }
  SECTION("einsum bij,bjk->bik") {
    Tensor a3 = Tensor::random({2, m, k}, rng()),
           b3 = Tensor::random({2, k, n}, rng());
    Tensor out = Tensor::zeros({2, m, n});
    callKernel(KERNEL(einsum_bmm), {&a3, &b3}, {&out});
    requireClose(out, ref::einsum("bij,bjk->bik", {&a3, &b3}), 1e-5,
                 sumTolerance(k));
  }
  SECTION("einsum i,j->ij, ii->i, ij,ij->i") {
    Tensor u = Tensor::random({m}, rng()), v = Tensor::random({n}, rng());
    Tensor outer = Tensor::zeros({m, n});
    callKernel(KERNEL(einsum_outer), {&u, &v}, {&outer});
    requireClose(outer, ref::einsum("i,j->ij", {&u, &v}));
    Tensor sq = Tensor::random({m, m}, rng()), diag = Tensor::zeros({m});
    callKernel(KERNEL(einsum_diag), {&sq}, {&diag});
    requireClose(diag, ref::einsum("ii->i", {&sq}));
    Tensor a2 = Tensor::random({m, k}, rng()), dots = Tensor::zeros({m});
    callKernel(KERNEL(einsum_rowdot), {&a, &a2}, {&dots});
    requireClose(dots, ref::einsum("ij,ij->i", {&a, &a2}), 1e-5,
                 sumTolerance(k));
  }
  SECTION("einsum with an ellipsis, and of three operands") {
    Tensor x = Tensor::random({2, m, k}, rng()), v = Tensor::random({k}, rng()),
           w = Tensor::random({2, k, n}, rng());
    Tensor dots = Tensor::zeros({2, m}), prod = Tensor::zeros({2, m, n});
    callKernel(KERNEL(einsum_ellipsis), {&x, &v, &w}, {&dots, &prod});
    requireClose(dots, ref::einsum("btd,d->bt", {&x, &v}), 1e-5,
                 sumTolerance(k));
    requireClose(prod, ref::einsum("btd,bde->bte", {&x, &w}), 1e-5,
                 sumTolerance(k));
    Tensor c = Tensor::random({n}, rng()), out = Tensor::zeros({m});
    callKernel(KERNEL(einsum3), {&a, &b, &c}, {&out});
    requireClose(out, ref::einsum("ij,jk,k->i", {&a, &b, &c}), 1e-5,
                 sumTolerance(k * n));
  }
  SECTION("dense layer with bias and relu") {
    Tensor x = Tensor::random({m, 7}, rng()), w = Tensor::random({7, 5}, rng()),
           bias = Tensor::random({5}, rng()), out = Tensor::zeros({m, 5});
    callKernel(KERNEL(dense_relu), {&x, &w, &bias}, {&out});
    Tensor h =
        ref::map(ref::einsum("bi,ij->bj", {&x, &w}), bias,
                 [](double p, double q) { return std::max(p + q, 0.0); });
    requireClose(out, h, 1e-5, 1e-5);
  }
}
