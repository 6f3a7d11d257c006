//===- TypeTests.cpp - Host numerics in every element type ----------------===//
//
// kernels/types.accy: the same arithmetic, comparisons, reductions,
// contractions and activations in f16, bf16, f32, f64, i32, i64 and bool,
// against the reference rounded as each type rounds. f16 and bf16
// reductions must accumulate in f32: summing a thousand values in f16 or
// bf16 itself would be off by many units in the last place.
//
//===----------------------------------------------------------------------===//

#include "Reference.h"
#include "TestSupport.h"

#include <cmath>

using namespace accy::e2e;

#define ACCY_TYPE_KERNELS(t)                                                   \
  ACCY_DECLARE_KERNEL(arith_##t)                                               \
  ACCY_DECLARE_KERNEL(reduce_##t)
ACCY_TYPE_KERNELS(f16)
ACCY_TYPE_KERNELS(bf16)
ACCY_TYPE_KERNELS(f32)
ACCY_TYPE_KERNELS(f64)
ACCY_TYPE_KERNELS(i32)
ACCY_TYPE_KERNELS(i64)
ACCY_DECLARE_KERNEL(arith_bool)
ACCY_DECLARE_KERNEL(matmul_f16)
ACCY_DECLARE_KERNEL(matmul_bf16)
ACCY_DECLARE_KERNEL(matmul_f64)
ACCY_DECLARE_KERNEL(matmul_i32)
ACCY_DECLARE_KERNEL(matmul_i64)
ACCY_DECLARE_KERNEL(float_f16)
ACCY_DECLARE_KERNEL(float_bf16)
ACCY_DECLARE_KERNEL(float_f64)
ACCY_DECLARE_KERNEL(act_f16)
ACCY_DECLARE_KERNEL(act_bf16)
ACCY_DECLARE_KERNEL(act_f64)

namespace {
/// One element type's kernels (null where the type has none) and the
/// relative tolerance of its sums: for f16 and bf16, one unit in the last
/// place (rounding the f32 sum once is half of one; summing in f16 itself is
/// off by several).
struct TypeKernels {
  Elem elem;
  void *arith, *reduce, *matmul, *floats, *activations;
  double sumTolerance;
  double lo, hi; ///< The range of random inputs.
};

const TypeKernels kTypes[] = {
    {Elem::F16, KERNEL(arith_f16), KERNEL(reduce_f16), KERNEL(matmul_f16),
     KERNEL(float_f16), KERNEL(act_f16), 0x1p-10, -2, 2},
    {Elem::BF16, KERNEL(arith_bf16), KERNEL(reduce_bf16), KERNEL(matmul_bf16),
     KERNEL(float_bf16), KERNEL(act_bf16), 0x1p-7, -2, 2},
    {Elem::F32, KERNEL(arith_f32), KERNEL(reduce_f32), nullptr, nullptr,
     nullptr, 1e-5, -2, 2},
    {Elem::F64, KERNEL(arith_f64), KERNEL(reduce_f64), KERNEL(matmul_f64),
     KERNEL(float_f64), KERNEL(act_f64), 1e-13, -2, 2},
    {Elem::I32, KERNEL(arith_i32), KERNEL(reduce_i32), KERNEL(matmul_i32),
     nullptr, nullptr, 0, -1000, 1000},
    {Elem::I64, KERNEL(arith_i64), KERNEL(reduce_i64), KERNEL(matmul_i64),
     nullptr, nullptr, 0, -1000000, 1000000},
    {Elem::Bool, KERNEL(arith_bool), nullptr, nullptr, nullptr, nullptr, 0, 0,
     1},
};

/// Runs `body` for each element type that has `kernel`, each in a section
/// of its own: a failure in one type does not hide the others.
template <typename Body>
void forEachType(void *TypeKernels::*kernel, const Body &body) {
  for (const TypeKernels &type : kTypes)
    if (type.*kernel)
      DYNAMIC_SECTION(name(type.elem)) { body(type); }
}
} // namespace

// Plain variables, not structured bindings: the lambdas capture them.
#define SIZES                                                                  \
  auto sizes = GENERATE(table<int64_t, int64_t>(                               \
      {{1, 1}, {1, 17}, {7, 1}, {37, 129}, {3, 1003}, {2, 4099}}));            \
  int64_t n = std::get<0>(sizes), d = std::get<1>(sizes);                      \
  CAPTURE(n, d)

TEST_CASE("arithmetic and comparisons in every element type", "[types]") {
  SIZES;
  forEachType(&TypeKernels::arith, [&](const TypeKernels &type) {
    Elem e = type.elem;
    Tensor x = Tensor::random({n, d}, rng(), type.lo, type.hi, e),
           y = Tensor::random({d}, rng(), type.lo, type.hi, e);
    if (e == Elem::Bool) {
      std::vector<Tensor> outs =
          outputs({n, d}, {Elem::Bool, Elem::Bool, Elem::Bool});
      callKernel(type.arith, {&x, &y}, pointers(outs));
      requireClose(outs[0], ref::compare(x, y, [](double a, double b) {
                     return a == b;
                   }));
      requireClose(outs[1], ref::compare(x, y, [](double a, double b) {
                     return a != b;
                   }));
      requireClose(outs[2], ref::select(x, y, x));
      return;
    }
    std::vector<Tensor> outs = outputs({n, d}, {e, e, Elem::Bool});
    callKernel(type.arith, {&x, &y}, pointers(outs));
    // Each operation rounds to the element type.
    auto r = [e](double v) { return roundTo(e, v); };
    requireClose(outs[0], ref::map(x, y, [&](double a, double b) {
                   return r(r(a * b) + a);
                 }));
    requireClose(outs[1], ref::map(x, y, [&](double a, double b) {
                   return r(-a - r(b * 3));
                 }));
    requireClose(outs[2],
                 ref::compare(x, y, [](double a, double b) { return a < b; }));
  });
}

TEST_CASE("reductions in every element type", "[types]") {
  SIZES;
  forEachType(&TypeKernels::reduce, [&](const TypeKernels &type) {
    Elem e = type.elem;
    // Mostly positive: sums grow to hundreds, where f16 and bf16 steps are
    // coarse.
    Tensor x = Tensor::random({n, d}, rng(), isFloat(e) ? -1 : type.lo,
                              isFloat(e) ? 3 : type.hi, e);
    std::vector<Tensor> outs = {Tensor::zeros({n}, e), Tensor::zeros({n}, e),
                                Tensor::zeros({}, e)};
    callKernel(type.reduce, {&x}, pointers(outs));
    using ref::Reduce;
    double tol = type.sumTolerance;
    requireClose(outs[0], ref::reduce(x, {1}, false, Reduce::Sum), tol, tol);
    requireClose(outs[1], ref::reduce(x, {1}, false, Reduce::Max), 0, 0);
    requireClose(outs[2], ref::reduce(x, {0, 1}, false, Reduce::Min), 0, 0);
  });
}

TEST_CASE("contractions in every numeric element type", "[types]") {
  auto sizes = GENERATE(
      table<int64_t, int64_t, int64_t>({{1, 1, 1}, {3, 5, 7}, {33, 129, 17}}));
  int64_t m = std::get<0>(sizes), k = std::get<1>(sizes),
          n = std::get<2>(sizes);
  CAPTURE(m, k, n);
  forEachType(&TypeKernels::matmul, [&](const TypeKernels &type) {
    double range = isFloat(type.elem) ? 2 : 100;
    Tensor a = Tensor::random({m, k}, rng(), -range, range, type.elem),
           b = Tensor::random({k, n}, rng(), -range, range, type.elem);
    Tensor out = Tensor::zeros({m, n}, type.elem);
    callKernel(type.matmul, {&a, &b}, {&out});
    // Accumulated in f32 (f16, bf16) or in the type itself, then rounded.
    double tol = type.sumTolerance;
    requireClose(out, ref::matmul(a, b), tol, tol);
  });
}

TEST_CASE("division, mean and softmax in every floating-point type",
          "[types]") {
  SIZES;
  double scale = GENERATE(1.0, 1e4);
  CAPTURE(scale);
  forEachType(&TypeKernels::floats, [&](const TypeKernels &type) {
    Elem e = type.elem;
    Tensor x = Tensor::random({n, d}, rng(), -scale, scale, e);
    std::vector<Tensor> outs = {Tensor::zeros({n, d}, e), Tensor::zeros({n}, e),
                                Tensor::zeros({n, d}, e)};
    callKernel(type.floats, {&x}, pointers(outs));
    requireClose(outs[0], ref::map(x, [e](double v) {
                   return v / roundTo(e, std::abs(v) + 1.0);
                 }));
    requireClose(outs[1], ref::reduce(x, {1}, false, ref::Reduce::Mean),
                 type.sumTolerance, type.sumTolerance * scale);
    for (double v : outs[2].data)
      REQUIRE(std::isfinite(v));
    requireClose(outs[2], ref::softmax(x, 1));
  });
}

TEST_CASE("activations in every floating-point type", "[types]") {
  int64_t n = GENERATE(1, 37, 1003);
  CAPTURE(n);
  forEachType(&TypeKernels::activations, [&](const TypeKernels &type) {
    Elem e = type.elem;
    Tensor x = Tensor::random({n}, rng(), -9, 9, e);
    std::vector<Tensor> outs = outputs({n}, {e, e, e, e, e, e});
    callKernel(type.activations, {&x}, pointers(outs));
    auto shifted = [e](double v) { return roundTo(e, std::abs(v) + 0.5); };
    const ref::Unary expected[] = {
        [](double v) { return std::exp(v); },
        [&](double v) { return std::log(shifted(v)); },
        [](double v) { return std::tanh(v); },
        [](double v) { return 1.0 / (1.0 + std::exp(-v)); },
        ref::gelu,
        [&](double v) { return 1.0 / std::sqrt(shifted(v)); },
    };
    const char *names[] = {"exp", "log", "tanh", "sigmoid", "gelu", "rsqrt"};
    for (int i = 0; i < 6; ++i) {
      INFO(names[i]);
      // Computed in f32 for f16 and bf16, rounded once; 4 ulp for f64.
      requireClose(outs[i], ref::map(x, expected[i]), ulps(e, 4), ulps(e, 16));
    }
  });
}
