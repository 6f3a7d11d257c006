//===- MiscTests.cpp - Host numerics of select, cast, full, iota, fn ------===//
//
// kernels/misc.accy against the reference: the layer-norm pattern (through
// an imported fn and written out), fn inlining, select with broadcasting,
// casts between every element type, full and iota.
//
//===----------------------------------------------------------------------===//

#include "Reference.h"
#include "TestSupport.h"

#include <cmath>

using namespace accy::e2e;

ACCY_DECLARE_KERNEL(layer_norm)
ACCY_DECLARE_KERNEL(layer_norm_inline)
ACCY_DECLARE_KERNEL(fn_calls)
ACCY_DECLARE_KERNEL(fn_nested)
ACCY_DECLARE_KERNEL(select_bcast)
ACCY_DECLARE_KERNEL(select_mask)
ACCY_DECLARE_KERNEL(casts_from_f32)
ACCY_DECLARE_KERNEL(casts_to_f32)
ACCY_DECLARE_KERNEL(full_iota)
ACCY_DECLARE_KERNEL(scalars)
ACCY_DECLARE_KERNEL(broadcast3)
ACCY_DECLARE_KERNEL(identity)
ACCY_DECLARE_KERNEL(shared_results)
ACCY_DECLARE_KERNEL(half_casts)
ACCY_DECLARE_KERNEL(select_scalars)
ACCY_DECLARE_KERNEL(wraparound)
ACCY_DECLARE_KERNEL(view_results)

#define SIZES                                                                  \
  auto [n, d] = GENERATE(table<int64_t, int64_t>(                              \
      {{1, 1}, {1, 17}, {7, 1}, {37, 129}, {5, 1003}}));                       \
  CAPTURE(n, d)

TEST_CASE("layer norm through an imported fn and written out", "[misc]") {
  SIZES;
  Tensor x = Tensor::random({n, d}, rng(), -3, 5),
         g = Tensor::random({d}, rng()), b = Tensor::random({d}, rng()),
         out = Tensor::zeros({n, d});
  callKernel(KERNEL(layer_norm), {&x, &g, &b}, {&out});
  requireClose(out, ref::layerNorm(x, g, b, 1e-5), 1e-4, 1e-4);
  Tensor ones = ref::map(g, [](double) { return 1.0; });
  Tensor zeros = ref::map(g, [](double) { return 0.0; });
  callKernel(KERNEL(layer_norm_inline), {&x}, {&out});
  requireClose(out, ref::layerNorm(x, ones, zeros, 1e-5), 1e-4, 1e-4);
}

TEST_CASE("fn calls are inlined, nested", "[misc]") {
  int64_t n = GENERATE(1, 37, 1003);
  Tensor x = Tensor::random({n}, rng()), y = Tensor::random({n}, rng()),
         out = Tensor::zeros({n});
  callKernel(KERNEL(fn_calls), {&x, &y}, {&out});
  Tensor inner = ref::map(y, x, [](double a, double b) {
    return double(float(0.5f * float(a))) + b;
  });
  requireClose(out, ref::map(x, inner, [](double a, double b) {
                 return double(float(2.0f * float(a))) + b;
               }));
}

TEST_CASE("fns calling fns, with symbols of their own; consts as axes",
          "[misc]") {
  SIZES;
  Tensor x = Tensor::random({n, d}, rng()),
         y = Tensor::random({3, n, d}, rng());
  std::vector<Tensor> outs = outputs({n, d}, {Elem::F32, Elem::F32, Elem::F32});
  outs[0] = Tensor::zeros({n});
  callKernel(KERNEL(fn_nested), {&x, &y}, pointers(outs));
  using ref::Reduce;
  requireClose(outs[0], ref::map(ref::reduce(x, {1}, false, Reduce::Max),
                                 ref::reduce(x, {1}, false, Reduce::Min),
                                 [](double a, double b) { return a - b; }));
  Tensor rows = ref::reduce(x, {1}, false, Reduce::Sum),
         cols = ref::reduce(x, {0}, false, Reduce::Sum);
  // Products of two f32 sums, of d and of n terms of up to 2: absolute
  // errors grow with both counts.
  requireClose(outs[1],
               ref::map(ref::einsum("i,j->ij", {&rows, &cols}), x,
                        [](double a, double b) { return a + b; }),
               1e-5, 4e-6 * double(n + d));
  requireClose(outs[2],
               ref::map(ref::reduce(y, {0}, false, Reduce::Sum), x,
                        [](double a, double b) { return a - 2 * b; }),
               1e-5, 1e-5);
}

TEST_CASE("select broadcasts its condition and operands", "[misc]") {
  SIZES;
  Tensor x = Tensor::random({n, d}, rng()), y = Tensor::random({d}, rng()),
         out = Tensor::zeros({n, d});
  callKernel(KERNEL(select_bcast), {&x, &y}, {&out});
  Tensor cond = ref::compare(x, y, [](double a, double b) { return a > b; });
  requireClose(
      out, ref::select(cond, x, ref::map(y, [](double v) { return v * 0.5; })));
  Tensor c = Tensor::random({n, 1}, rng(), 0, 1, Elem::Bool),
         a = Tensor::random({n, d}, rng(), -1000, 1000, Elem::I32),
         b = Tensor::random({d}, rng(), -1000, 1000, Elem::I32),
         picked = Tensor::zeros({n, d}, Elem::I32);
  callKernel(KERNEL(select_mask), {&c, &a, &b}, {&picked});
  requireClose(picked, ref::select(c, a, b));
}

TEST_CASE("casts between every element type", "[misc]") {
  int64_t n = GENERATE(1, 37, 1003);
  CAPTURE(n);
  SECTION("from f32: truncation toward zero, rounding to nearest, != 0") {
    Tensor x = Tensor::random({n}, rng(), -300, 300);
    for (int64_t i = 0; i < n; i += 5)
      x.data[i] = i % 10 == 0 ? 0.0 : std::trunc(x.data[i]) + 0.5;
    std::vector<Tensor> outs =
        outputs({n}, {Elem::I32, Elem::I64, Elem::F16, Elem::BF16, Elem::F64,
                      Elem::Bool});
    callKernel(KERNEL(casts_from_f32), {&x}, pointers(outs));
    for (Tensor &out : outs) {
      INFO("cast<" << name(out.elem) << ">");
      requireClose(out, ref::cast(x, out.elem), 0, 0);
    }
  }
  SECTION("to f32") {
    Tensor a = Tensor::random({n}, rng(), -100000, 100000, Elem::I32),
           b = Tensor::random({n}, rng(), -60000, 60000, Elem::F16),
           c = Tensor::random({n}, rng(), 0, 1, Elem::Bool),
           d = Tensor::random({n}, rng(), -1e30, 1e30, Elem::F64),
           e = Tensor::random({n}, rng(), -(int64_t(1) << 40), int64_t(1) << 40,
                              Elem::I64),
           f = Tensor::random({n}, rng(), -1e30, 1e30, Elem::BF16);
    std::vector<Tensor> outs = outputs({n}, {Elem::F32, Elem::F32, Elem::F32,
                                             Elem::F32, Elem::F32, Elem::F32});
    callKernel(KERNEL(casts_to_f32), {&a, &b, &c, &d, &e, &f}, pointers(outs));
    const Tensor *ins[] = {&a, &b, &c, &d, &e, &f};
    for (int i = 0; i < 6; ++i) {
      INFO("cast<f32> of " << name(ins[i]->elem));
      requireClose(outs[i], ref::cast(*ins[i], Elem::F32), 0, 0);
    }
  }
}

TEST_CASE("full and iota", "[misc]") {
  int64_t n = GENERATE(1, 37, 1003);
  Tensor x = Tensor::random({n}, rng(), -1000, 1000, Elem::I32);
  std::vector<Tensor> outs = {
      Tensor::zeros({n, 3}), Tensor::zeros({n}, Elem::I32),
      Tensor::zeros({n, 4}, Elem::I32), Tensor::zeros({n})};
  callKernel(KERNEL(full_iota), {&x}, pointers(outs));
  Tensor iota = Tensor::zeros({n}, Elem::I32);
  for (int64_t i = 0; i < n; ++i)
    iota.data[i] = double(i);
  requireClose(outs[0],
               ref::map(Tensor::zeros({n, 3}), [](double) { return 2.5; }), 0,
               0);
  requireClose(outs[1],
               ref::map(iota, x, [](double i, double v) { return i * v; }));
  requireClose(outs[2], ref::map(Tensor::zeros({n, 4}, Elem::I32),
                                 [](double) { return 7.0; }));
  requireClose(outs[3],
               ref::map(iota, Elem::F32, [](double i) { return i + 0.5; }), 0,
               0);
}

TEST_CASE("rank-0 inputs and results", "[misc]") {
  int64_t n = GENERATE(1, 37, 1003);
  Tensor x = Tensor::random({n}, rng()), s = Tensor::random({}, rng()),
         k = Tensor::random({}, rng(), -1000, 1000, Elem::I32);
  std::vector<Tensor> outs = outputs({n}, {Elem::F32});
  outs.push_back(Tensor::zeros({}));
  outs.push_back(Tensor::zeros({}, Elem::I32));
  callKernel(KERNEL(scalars), {&x, &s, &k}, pointers(outs));
  requireClose(outs[0],
               ref::map(x, s, [](double a, double b) { return a * b; }));
  Tensor total = ref::reduce(x, {0}, false, ref::Reduce::Sum);
  requireClose(outs[1],
               ref::map(total, s, [](double a, double b) { return a * b; }),
               1e-5, 1e-5);
  requireClose(outs[2], ref::map(k, [](double v) { return v * 2 + 1; }));
}

TEST_CASE("broadcasting across three axes", "[misc]") {
  auto [a, b, c] = GENERATE(table<int64_t, int64_t, int64_t>(
      {{1, 1, 1}, {3, 1, 5}, {1, 7, 1}, {5, 37, 129}}));
  CAPTURE(a, b, c);
  Tensor x = Tensor::random({a, 1, c}, rng()),
         y = Tensor::random({b, 1}, rng()), z = Tensor::random({c}, rng()),
         out = Tensor::zeros({a, b, c});
  callKernel(KERNEL(broadcast3), {&x, &y, &z}, {&out});
  Tensor xy = ref::map(x, y, [](double p, double q) { return p * q; });
  requireClose(out, ref::map(xy, z, [](double p, double q) { return p - q; }));
}

TEST_CASE("results that are inputs or one value twice", "[misc]") {
  int64_t n = GENERATE(1, 37, 1003);
  Tensor x = Tensor::random({n}, rng()), y = Tensor::random({n}, rng());
  Tensor same = Tensor::zeros({n});
  callKernel(KERNEL(identity), {&x}, {&same});
  requireClose(same, x, 0, 0);
  std::vector<Tensor> outs = outputs({n}, {Elem::F32, Elem::F32, Elem::F32});
  callKernel(KERNEL(shared_results), {&x, &y}, pointers(outs));
  Tensor sum = ref::map(x, y, [](double a, double b) { return a + b; });
  requireClose(outs[0], x, 0, 0);
  requireClose(outs[1], sum);
  requireClose(outs[2], sum);
}

TEST_CASE("results that are views of an input or of another result", "[misc]") {
  auto [n, d] = GENERATE(table<int64_t, int64_t>({{1, 1}, {3, 37}, {129, 5}}));
  CAPTURE(n, d);
  Tensor x = Tensor::random({n, d}, rng());
  std::vector<Tensor> outs = {Tensor::zeros({d, n}), Tensor::zeros({n, d}),
                              Tensor::zeros({d, n}), Tensor::zeros({1, d}),
                              Tensor::zeros({n, d})};
  callKernel(KERNEL(view_results), {&x}, pointers(outs));
  Tensor flat = x, y = ref::map(x, [](double v) { return 2 * v; });
  flat.shape = {d, n};
  Tensor last = ref::slice(y, {n - 1, 0}, {n, d});
  requireClose(outs[0], flat, 0, 0);
  requireClose(outs[1], y, 0, 0);
  requireClose(outs[2], ref::transpose(y, {1, 0}), 0, 0);
  requireClose(outs[3], ref::slice(y, {0, 0}, {1, d}), 0, 0);
  requireClose(outs[4], ref::map(last, y, [](double a, double) { return a; }),
               0, 0);
}

TEST_CASE("casts between f16, bf16, f64 and integers round once", "[misc]") {
  int64_t n = GENERATE(2, 37, 1003);
  CAPTURE(n);
  Tensor a = Tensor::random({n}, rng(), -3000, 3000, Elem::F16),
         b = Tensor::random({n}, rng(), -3000, 3000, Elem::BF16),
         c = Tensor::random({n}, rng(), -3000, 3000, Elem::F64),
         d = Tensor::random({n}, rng(), -2, 2, Elem::I32);
  // Just above halfway between two f16 (bf16) values: rounding to f32 first
  // would make a tie, and the tie would round to even, down.
  c.data[0] = 1 + 0x1p-11 + 0x1p-40;
  c.data[1] = -(1 + 0x1p-8 + 0x1p-40);
  std::vector<Tensor> outs =
      outputs({n}, {Elem::I32, Elem::F16, Elem::F16, Elem::Bool, Elem::BF16,
                    Elem::F64, Elem::F64, Elem::BF16});
  callKernel(KERNEL(half_casts), {&a, &b, &c, &d}, pointers(outs));
  const Tensor *ins[] = {&a, &b, &c, &d, &c, &a, &b, &a};
  for (int i = 0; i < 8; ++i) {
    INFO("cast<" << name(outs[i].elem) << "> of " << name(ins[i]->elem));
    requireClose(outs[i], ref::cast(*ins[i], outs[i].elem), 0, 0);
  }
}

TEST_CASE("select of scalars and bools, comparisons of integers", "[misc]") {
  SIZES;
  Tensor x = Tensor::random({n, d}, rng()),
         k = Tensor::random({n, d}, rng(), -10, 10, Elem::I32),
         j = Tensor::random({n, d}, rng(), -10, 10, Elem::I64);
  std::vector<Tensor> outs = outputs(
      {n, d}, {Elem::F32, Elem::I32, Elem::Bool, Elem::Bool, Elem::I64});
  callKernel(KERNEL(select_scalars), {&x, &k, &j}, pointers(outs));
  requireClose(outs[0],
               ref::map(x, [](double v) { return v > 0 ? 1.0 : -1.0; }));
  requireClose(outs[1], ref::map(x, Elem::I32,
                                 [](double v) { return v > 0.5 ? 3 : 7; }));
  requireClose(outs[2], ref::map(x, Elem::Bool, [](double v) {
                 return v < 0 ? v > -1 : v > 1;
               }));
  requireClose(outs[3],
               ref::map(k, Elem::Bool, [](double v) { return v > 0; }));
  requireClose(outs[4], ref::map(j, k, [](double a, double b) {
                 return a <= 5 ? a : b;
               }));
}

TEST_CASE("integers wrap around in two's complement", "[misc]") {
  int64_t n = GENERATE(1, 37, 1003);
  Tensor x = Tensor::random({n}, rng(), -100000, 100000, Elem::I32),
         y = Tensor::random({n}, rng(), -(int64_t(1) << 40), int64_t(1) << 40,
                            Elem::I64);
  std::vector<Tensor> outs = outputs({n}, {Elem::I32, Elem::I64});
  callKernel(KERNEL(wraparound), {&x, &y}, pointers(outs));
  requireClose(outs[0], ref::map(x, [](double v) {
                 uint32_t u = static_cast<uint32_t>(static_cast<int32_t>(v));
                 return double(static_cast<int32_t>(u * 65536u + u));
               }));
  // Wrapped i64 results are compared as the doubles nearest to them (a
  // Tensor holds doubles): a wrong wrap is off by far more than that.
  requireClose(outs[1], ref::map(y, [](double v) {
                 uint64_t u = static_cast<uint64_t>(static_cast<int64_t>(v));
                 return double(static_cast<int64_t>(u * 4294967296u * 8u - u));
               }));
}
