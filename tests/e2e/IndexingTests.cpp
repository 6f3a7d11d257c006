//===- IndexingTests.cpp - Host numerics of slices, gathers and reshapes --===//
//
// kernels/indexing.accy against the reference: slices with constant,
// symbolic and negative bounds, gathers with out-of-range indices (which
// clamp), transpose, reshape, broadcast and concat, at odd sizes.
//
//===----------------------------------------------------------------------===//

#include "Reference.h"
#include "TestSupport.h"

using namespace accy::e2e;

ACCY_DECLARE_KERNEL(slice_const)
ACCY_DECLARE_KERNEL(roll_cols)
ACCY_DECLARE_KERNEL(swap_ends)
ACCY_DECLARE_KERNEL(rotate_neg)
ACCY_DECLARE_KERNEL(point_index)
ACCY_DECLARE_KERNEL(take_rows)
ACCY_DECLARE_KERNEL(take_cols)
ACCY_DECLARE_KERNEL(gather_index)
ACCY_DECLARE_KERNEL(transpose3)
ACCY_DECLARE_KERNEL(reshape_flat)
ACCY_DECLARE_KERNEL(reshape_split)
ACCY_DECLARE_KERNEL(reshape_merge)
ACCY_DECLARE_KERNEL(broadcast_to)
ACCY_DECLARE_KERNEL(concat_rows)
ACCY_DECLARE_KERNEL(concat_cols)
ACCY_DECLARE_KERNEL(gather_inner)
ACCY_DECLARE_KERNEL(take_f16)
ACCY_DECLARE_KERNEL(take_i64)
ACCY_DECLARE_KERNEL(gather3)
ACCY_DECLARE_KERNEL(take_neg_axis)
ACCY_DECLARE_KERNEL(mixed_index)
ACCY_DECLARE_KERNEL(concat_reductions)
ACCY_DECLARE_KERNEL(gather_computed)
ACCY_DECLARE_KERNEL(typed_moves)
ACCY_DECLARE_KERNEL(row_at)
ACCY_DECLARE_KERNEL(concat_symbolic)

/// Runs a one-result kernel into a fresh f32 tensor of `shape`.
static Tensor run(void *kernel, std::vector<Tensor *> inputs,
                  std::vector<int64_t> shape) {
  Tensor out = Tensor::zeros(std::move(shape));
  callKernel(kernel, std::move(inputs), {&out});
  return out;
}

/// Indices in [-3, size + 3): some below and some past the end.
static Tensor indices(std::vector<int64_t> shape, int64_t size) {
  return Tensor::random(std::move(shape), rng(), -3, size + 2, Elem::I32);
}

TEST_CASE("slices with constant, symbolic and negative bounds", "[indexing]") {
  auto [n, d] =
      GENERATE(table<int64_t, int64_t>({{3, 4}, {5, 129}, {37, 5}, {1003, 7}}));
  CAPTURE(n, d);
  Tensor x = Tensor::random({n, d}, rng());
  requireClose(run(KERNEL(slice_const), {&x}, {n, 3}),
               ref::slice(x, {0, 1}, {n, 4}));
  Tensor first = ref::slice(x, {0, 0}, {n, 1}),
         rest = ref::slice(x, {0, 1}, {n, d});
  requireClose(run(KERNEL(roll_cols), {&x}, {n, d}),
               ref::concat({&rest, &first}, 1));
  Tensor top = ref::slice(x, {0, 0}, {1, d}),
         mid = ref::slice(x, {1, 0}, {n - 1, d}),
         bottom = ref::slice(x, {n - 1, 0}, {n, d});
  requireClose(run(KERNEL(swap_ends), {&x}, {n, d}),
               ref::concat({&bottom, &mid, &top}, 0));
  Tensor tail = ref::slice(x, {0, d - 2}, {n, d}),
         head = ref::slice(x, {0, 0}, {n, d - 2});
  requireClose(run(KERNEL(rotate_neg), {&x}, {n, d}),
               ref::concat({&tail, &head}, 1));
}

TEST_CASE("slices and point indices together", "[indexing]") {
  auto [a, c] = GENERATE(table<int64_t, int64_t>({{1, 1}, {2, 5}, {37, 129}}));
  CAPTURE(a, c);
  Tensor x = Tensor::random({a, 4, c}, rng());
  Tensor expected = ref::slice(x, {0, 2, 0}, {a, 3, c});
  expected.shape = {a, c};
  requireClose(run(KERNEL(mixed_index), {&x}, {a, c}), expected);
}

TEST_CASE("point indices drop their axis", "[indexing]") {
  auto [a, b, c] = GENERATE(
      table<int64_t, int64_t, int64_t>({{1, 2, 1}, {3, 5, 7}, {17, 33, 129}}));
  CAPTURE(a, b, c);
  Tensor x = Tensor::random({a, b, c}, rng());
  Tensor middle = Tensor::zeros({a, c}), last = Tensor::zeros({b});
  callKernel(KERNEL(point_index), {&x}, {&middle, &last});
  Tensor m = ref::slice(x, {0, 1, 0}, {a, 2, c});
  m.shape = {a, c};
  Tensor l = ref::slice(x, {a - 1, 0, 0}, {a, b, 1});
  l.shape = {b};
  requireClose(middle, m);
  requireClose(last, l);
}

TEST_CASE("gathers clamp out-of-range indices", "[indexing]") {
  auto [v, d, k] = GENERATE(table<int64_t, int64_t, int64_t>(
      {{1, 1, 1}, {5, 3, 37}, {129, 17, 1003}}));
  CAPTURE(v, d, k);
  Tensor x = Tensor::random({v, d}, rng());
  SECTION("take along axis 0 with a 2-d index") {
    Tensor idx = indices({3, k}, v);
    requireClose(run(KERNEL(take_rows), {&x, &idx}, {3, k, d}),
                 ref::take(x, idx, 0));
  }
  SECTION("take along axis 1") {
    Tensor y = Tensor::random({d, v}, rng()), idx = indices({k}, v);
    requireClose(run(KERNEL(take_cols), {&y, &idx}, {d, k}),
                 ref::take(y, idx, 1));
  }
  SECTION("x[idx]") {
    Tensor idx = indices({k}, v);
    requireClose(run(KERNEL(gather_index), {&x, &idx}, {k, d}),
                 ref::take(x, idx, 0));
  }
  SECTION("x[:, idx] on an inner axis") {
    Tensor y = Tensor::random({d, v, 3}, rng()), idx = indices({k}, v);
    requireClose(run(KERNEL(gather_inner), {&y, &idx}, {d, k, 3}),
                 ref::take(y, idx, 1));
  }
  SECTION("x[idx] of a 3-d tensor with a 2-d index, take(axis=-1)") {
    Tensor y = Tensor::random({v, 2, 3}, rng()), idx = indices({2, k}, v);
    requireClose(run(KERNEL(gather3), {&y, &idx}, {2, k, 2, 3}),
                 ref::take(y, idx, 0));
    Tensor z = Tensor::random({d, v}, rng());
    requireClose(run(KERNEL(take_neg_axis), {&z, &idx}, {d, 2, k}),
                 ref::take(z, idx, 1));
  }
  SECTION("indices computed in the kernel: a cast, iota") {
    Tensor y = Tensor::random({k}, rng(), -3, v + 3),
           rows = Tensor::zeros({k, d}), all = Tensor::zeros({v, d});
    callKernel(KERNEL(gather_computed), {&x, &y}, {&rows, &all});
    Tensor idx = ref::map(y, Elem::I32, [](double f) { return f; });
    requireClose(rows, ref::take(x, idx, 0), 0, 0);
    requireClose(all, ref::map(x, [](double f) { return 2 * f; }), 0, 0);
  }
  SECTION("take of f16 and i64 values") {
    Tensor h = Tensor::random({v, d}, rng(), -2, 2, Elem::F16),
           idx = indices({k}, v);
    Tensor hOut = Tensor::zeros({k, d}, Elem::F16);
    callKernel(KERNEL(take_f16), {&h, &idx}, {&hOut});
    requireClose(hOut, ref::take(h, idx, 0), 0, 0);
    Tensor w = Tensor::random({d, v}, rng(), -1e12, 1e12, Elem::I64);
    Tensor wOut = Tensor::zeros({d, k}, Elem::I64);
    callKernel(KERNEL(take_i64), {&w, &idx}, {&wOut});
    requireClose(wOut, ref::take(w, idx, 1));
  }
}

TEST_CASE("transpose, reshape, broadcast", "[indexing]") {
  auto [n, d] =
      GENERATE(table<int64_t, int64_t>({{1, 1}, {7, 1}, {37, 129}, {1003, 3}}));
  CAPTURE(n, d);
  SECTION("transpose(perm=[2, 0, 1])") {
    Tensor x = Tensor::random({n, 3, d}, rng());
    requireClose(run(KERNEL(transpose3), {&x}, {d, n, 3}),
                 ref::transpose(x, {2, 0, 1}));
  }
  SECTION("reshape through a flat tensor") {
    Tensor x = Tensor::random({n, d}, rng()), expected = x;
    expected.shape = {d, n};
    requireClose(run(KERNEL(reshape_flat), {&x}, {d, n}), expected);
  }
  SECTION("reshape splitting and merging an axis") {
    Tensor x = Tensor::random({n, 6}, rng()), split = x;
    split.shape = {n, 2, 3};
    requireClose(run(KERNEL(reshape_split), {&x}, {n, 2, 3}), split);
    requireClose(run(KERNEL(reshape_merge), {&split}, {n, 6}), x);
  }
  SECTION("broadcast of a size-1 axis and of a missing axis") {
    Tensor row = Tensor::random({1, d}, rng()), v = Tensor::random({d}, rng()),
           y = Tensor::random({n, d}, rng());
    Tensor scaled = Tensor::zeros({n, d}), spread = Tensor::zeros({n, d});
    callKernel(KERNEL(broadcast_to), {&row, &v, &y}, {&scaled, &spread});
    requireClose(scaled,
                 ref::map(row, y, [](double a, double b) { return a * b; }));
    Tensor zero = Tensor::zeros({n, d});
    requireClose(spread, ref::map(v, zero, [](double a, double) { return a; }));
  }
  SECTION("concat of reductions") {
    Tensor x = Tensor::random({n, d}, rng()), out = Tensor::zeros({n, 2});
    callKernel(KERNEL(concat_reductions), {&x}, {&out});
    Tensor s = ref::reduce(x, {1}, true, ref::Reduce::Sum),
           m = ref::reduce(x, {1}, true, ref::Reduce::Max);
    requireClose(out, ref::concat({&s, &m}, 1), 1e-5, 1e-6 * double(d) + 1e-6);
  }
  SECTION("concat along both axes") {
    Tensor a = Tensor::random({3, d}, rng()), b = Tensor::random({4, d}, rng());
    requireClose(run(KERNEL(concat_rows), {&a, &b}, {7, d}),
                 ref::concat({&a, &b}, 0));
    Tensor l = Tensor::random({n, 5}, rng()), r = Tensor::random({n, 1}, rng());
    requireClose(run(KERNEL(concat_cols), {&l, &r}, {n, 6}),
                 ref::concat({&l, &r}, 1));
  }
}

TEST_CASE("indexing moves bool, i32, f64 and bf16 elements alike",
          "[indexing]") {
  auto [n, d] = GENERATE(table<int64_t, int64_t>({{1, 1}, {3, 37}, {129, 5}}));
  CAPTURE(n, d);
  Tensor b = Tensor::random({n, d}, rng(), 0, 1, Elem::Bool),
         i = Tensor::random({n, d}, rng(), -1000, 1000, Elem::I32),
         h = Tensor::random({n, d}, rng(), -1, 1, Elem::F64),
         g = Tensor::random({n, d}, rng(), -1, 1, Elem::BF16);
  std::vector<Tensor> outs =
      outputs({n, d}, {Elem::Bool, Elem::I32, Elem::F64, Elem::BF16});
  outs[0] = Tensor::zeros({d, n}, Elem::Bool);
  callKernel(KERNEL(typed_moves), {&b, &i, &h, &g}, pointers(outs));
  requireClose(outs[0], ref::transpose(b, {1, 0}));
  Tensor first = ref::slice(i, {0, 0}, {n, 1}),
         rest = ref::slice(i, {0, 1}, {n, d});
  requireClose(outs[1], ref::concat({&rest, &first}, 1));
  requireClose(outs[2], ref::map(h, [](double v) { return 2 * v; }), 0, 0);
  requireClose(outs[3],
               ref::map(ref::slice(g, {0, 0}, {1, d}), g,
                        [](double top, double) { return top; }),
               0, 0);
}

TEST_CASE("a run-time scalar index drops its axis and clamps", "[indexing]") {
  auto [n, d] = GENERATE(table<int64_t, int64_t>({{1, 1}, {5, 7}, {129, 37}}));
  CAPTURE(n, d);
  Tensor x = Tensor::random({n, d}, rng());
  for (int64_t at : {int64_t(-5), int64_t(0), n / 2, n - 1, n + 3, d - 1}) {
    INFO("index " << at);
    Tensor i = Tensor::zeros({}, Elem::I32);
    i.data[0] = double(at);
    Tensor row = Tensor::zeros({d}), col = Tensor::zeros({n});
    callKernel(KERNEL(row_at), {&x, &i}, {&row, &col});
    Tensor expectedRow = ref::take(x, i, 0), expectedCol = ref::take(x, i, 1);
    requireClose(row, expectedRow, 0, 0);
    requireClose(col, expectedCol, 0, 0);
  }
}

TEST_CASE("concat of parts with unrelated symbolic sizes", "[indexing]") {
  auto [m, n, d] = GENERATE(
      table<int64_t, int64_t, int64_t>({{1, 1, 1}, {3, 37, 5}, {129, 2, 33}}));
  CAPTURE(m, n, d);
  Tensor a = Tensor::random({m, d}, rng()), b = Tensor::random({n, d}, rng());
  Tensor total = Tensor::zeros({d}), row = Tensor::zeros({d});
  callKernel(KERNEL(concat_symbolic), {&a, &b}, {&total, &row});
  Tensor c = ref::concat({&a, &b, &a}, 0);
  requireClose(total, ref::reduce(c, {0}, false, ref::Reduce::Sum), 1e-5,
               1e-6 * double(2 * m + n) + 1e-6);
  Tensor expected = ref::slice(c, {m + n, 0}, {m + n + 1, d});
  expected.shape = {d};
  requireClose(row, expected, 0, 0);
}
