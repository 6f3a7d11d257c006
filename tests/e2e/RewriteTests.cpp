//===- RewriteTests.cpp - Host numerics of rewritten programs -------------===//
//
// kernels/rewrites.accy: programs that the contract stage's canonicalize,
// saturate, layout propagation and constant folding change (transposes
// into layouts, transpose and reshape chains, exp(log x), softmax of a
// shift, a reduction of a broadcast, merged contractions, folded
// constants) must compute what they say.
//
//===----------------------------------------------------------------------===//

#include "Reference.h"
#include "TestSupport.h"

#include <cmath>
#include <limits>

using namespace accy::e2e;

ACCY_DECLARE_KERNEL(transpose_matmul)
ACCY_DECLARE_KERNEL(double_transpose)
ACCY_DECLARE_KERNEL(reshape_chain)
ACCY_DECLARE_KERNEL(exp_log)
ACCY_DECLARE_KERNEL(softmax_shift)
ACCY_DECLARE_KERNEL(sum_broadcast)
ACCY_DECLARE_KERNEL(matmul_chain)
ACCY_DECLARE_KERNEL(identities)
ACCY_DECLARE_KERNEL(folded)
ACCY_DECLARE_KERNEL(reshape_of_transpose)
ACCY_DECLARE_KERNEL(slice_of_transpose)
ACCY_DECLARE_KERNEL(softmax_of_transpose)
ACCY_DECLARE_KERNEL(transpose_matmul_left)
ACCY_DECLARE_KERNEL(broadcast_of_transpose)
ACCY_DECLARE_KERNEL(concat_of_reshape)
ACCY_DECLARE_KERNEL(folded_ints)

TEST_CASE("rewritten programs keep their meaning", "[rewrite]") {
  auto sizes =
      GENERATE(table<int64_t, int64_t>({{1, 1}, {7, 1}, {3, 37}, {129, 33}}));
  int64_t n = std::get<0>(sizes), d = std::get<1>(sizes);
  CAPTURE(n, d);
  Tensor x = Tensor::random({n, d}, rng());
  SECTION("transposes feeding a matmul") {
    Tensor a = Tensor::random({d, n}, rng()), b = Tensor::random({5, d}, rng());
    Tensor out = Tensor::zeros({n, 5});
    callKernel(KERNEL(transpose_matmul), {&a, &b}, {&out});
    Tensor at = ref::transpose(a, {1, 0}), bt = ref::transpose(b, {1, 0});
    requireClose(out, ref::matmul(at, bt), 1e-5, 1e-5);
  }
  SECTION("transpose and reshape chains") {
    Tensor y = Tensor::random({n, 3, d}, rng()), out = Tensor::zeros({n, 3, d});
    callKernel(KERNEL(double_transpose), {&y}, {&out});
    requireClose(out, ref::transpose(ref::transpose(y, {1, 2, 0}), {2, 0, 1}),
                 0, 0);
    Tensor z = Tensor::random({n, 6}, rng()), flat = Tensor::zeros({n, 6});
    callKernel(KERNEL(reshape_chain), {&z}, {&flat});
    requireClose(flat, z, 0, 0);
    Tensor same = Tensor::zeros({n, d});
    callKernel(KERNEL(identities), {&x}, {&same});
    requireClose(same, ref::map(x, [](double v) { return v + v; }));
  }
  SECTION("transposes read through reshape, slices, softmax, @, broadcast") {
    Tensor t = ref::transpose(x, {1, 0}), out = Tensor::zeros({n, d});
    callKernel(KERNEL(reshape_of_transpose), {&x}, {&out});
    Tensor flat = t;
    flat.shape = {n, d};
    requireClose(out, flat, 0, 0);
    Tensor narrow = Tensor::random({n, 4}, rng()),
           joined = Tensor::zeros({n, 8});
    callKernel(KERNEL(concat_of_reshape), {&narrow}, {&joined});
    Tensor part = ref::transpose(narrow, {1, 0});
    part.shape = {n, 4};
    requireClose(joined, ref::concat({&part, &narrow}, 1), 0, 0);
    Tensor rolled = Tensor::zeros({d, n});
    callKernel(KERNEL(slice_of_transpose), {&x}, {&rolled});
    Tensor first = ref::slice(t, {0, 0}, {d, 1}),
           rest = ref::slice(t, {0, 1}, {d, n});
    requireClose(rolled, ref::concat({&rest, &first}, 1), 0, 0);
    callKernel(KERNEL(softmax_of_transpose), {&x}, {&rolled});
    requireClose(rolled, ref::softmax(t, 1), 1e-5, 1e-7);
    Tensor w = Tensor::random({n, 6}, rng()), prod = Tensor::zeros({d, 6});
    callKernel(KERNEL(transpose_matmul_left), {&x, &w}, {&prod});
    requireClose(prod, ref::matmul(t, w), 1e-5, 1e-6 * double(n) + 1e-5);
    Tensor z = Tensor::zeros({3}), spread = Tensor::zeros({3, d, n});
    callKernel(KERNEL(broadcast_of_transpose), {&x, &z}, {&spread});
    requireClose(spread,
                 ref::map(t, spread, [](double a, double) { return a; }), 0, 0);
  }
  SECTION("exp(log x)") {
    Tensor flat = Tensor::random({n * d}, rng(), -100, 100),
           out = Tensor::zeros({n * d});
    callKernel(KERNEL(exp_log), {&flat}, {&out});
    requireClose(out,
                 ref::map(flat,
                          [](double v) {
                            return std::exp(
                                std::log(double(float(std::abs(v) + 1.0))));
                          }),
                 1e-6, 1e-6);
  }
  SECTION("softmax of a shift along the axis") {
    Tensor c = Tensor::random({n, 1}, rng(), -50, 50),
           out = Tensor::zeros({n, d});
    callKernel(KERNEL(softmax_shift), {&x, &c}, {&out});
    requireClose(
        out,
        ref::softmax(ref::map(x, c, [](double a, double b) { return a + b; }),
                     1),
        1e-5, 1e-6);
  }
  SECTION("reductions of a broadcast") {
    Tensor v = Tensor::random({d}, rng());
    Tensor col = Tensor::zeros({d}), all = Tensor::zeros({});
    callKernel(KERNEL(sum_broadcast), {&v, &x}, {&col, &all});
    requireClose(col, ref::map(v, [n](double a) { return a * n; }), 1e-5, 1e-6);
    requireClose(all, ref::reduce(v, {0}, false, ref::Reduce::Mean), 1e-5,
                 1e-6);
  }
  SECTION("a chain of matmuls") {
    Tensor a = Tensor::random({n, d}, rng()), b = Tensor::random({d, 9}, rng()),
           c = Tensor::random({9, 4}, rng()), out = Tensor::zeros({n, 4});
    callKernel(KERNEL(matmul_chain), {&a, &b, &c}, {&out});
    Tensor ab = ref::matmul(ref::cast(a, Elem::F64), b);
    // Up to 9 * 129 products of about 8 in f32, in whatever order the
    // merged contraction sums them: absolute errors of a few 1e-5.
    requireClose(out, ref::cast(ref::matmul(ab, c), Elem::F32), 1e-5, 1e-4);
  }
  SECTION("constants folded from iota, full and reductions") {
    Tensor v = Tensor::random({d}, rng()), out = Tensor::zeros({d});
    callKernel(KERNEL(folded), {&v}, {&out});
    // sum(iota(5)) * max(full(0.5)) + sum(iota(4)).
    double folded = (0 + 1 + 2 + 3 + 4) * 0.5 + (0 + 1 + 2 + 3);
    requireClose(out, ref::map(v, [folded](double a) { return a + folded; }));
  }
}

TEST_CASE("constants folded from integers wrap as the kernels do",
          "[rewrite]") {
  int64_t n = GENERATE(1, 37);
  Tensor x = Tensor::random({n}, rng(), -1000, 1000, Elem::I32);
  std::vector<Tensor> outs = {
      Tensor::zeros({n}, Elem::I32), Tensor::zeros({4}, Elem::I32),
      Tensor::zeros({2}, Elem::I64), Tensor::zeros({3}, Elem::Bool)};
  callKernel(KERNEL(folded_ints), {&x}, pointers(outs));
  Tensor expected = x;
  for (int64_t i = 0; i < n; ++i)
    expected.data[i] += 3.0 * i - 7;
  requireClose(outs[0], expected);
  // INT_MAX + i and INT64_MAX + i in two's complement, and i > 0.5.
  Tensor ints = outs[1], longs = outs[2], bools = outs[3];
  for (int64_t i = 0; i < 4; ++i)
    ints.data[i] = static_cast<int32_t>(
        static_cast<uint32_t>(std::numeric_limits<int32_t>::max()) + i);
  for (int64_t i = 0; i < 2; ++i)
    longs.data[i] = static_cast<double>(static_cast<int64_t>(
        static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) + i));
  for (int64_t i = 0; i < 3; ++i)
    bools.data[i] = i > 0.5;
  requireClose(outs[1], ints);
  requireClose(outs[2], longs);
  requireClose(outs[3], bools);
}
