//===- ScanTests.cpp - Host numerics of cumsum and cummax -----------------===//
//
// kernels/scans.accy against the reference: every scan along its axis, in
// every element type, at sizes that are not multiples of any tile.
//
//===----------------------------------------------------------------------===//

#include "Reference.h"
#include "TestSupport.h"

#include <cmath>

using namespace accy::e2e;

ACCY_DECLARE_KERNEL(cumsum_rows)
ACCY_DECLARE_KERNEL(cumsum_cols)
ACCY_DECLARE_KERNEL(cummax_last)
ACCY_DECLARE_KERNEL(cummax_first)
ACCY_DECLARE_KERNEL(cumsum_i32)
ACCY_DECLARE_KERNEL(cumsum_f64)
ACCY_DECLARE_KERNEL(cummax_f16)
ACCY_DECLARE_KERNEL(cumsum_f16)
ACCY_DECLARE_KERNEL(cumsum_bf16)
ACCY_DECLARE_KERNEL(cumsum_i64)
ACCY_DECLARE_KERNEL(cummax_i32)
ACCY_DECLARE_KERNEL(cummax_f64)
ACCY_DECLARE_KERNEL(cumsum_mid)
ACCY_DECLARE_KERNEL(scan_fused)
ACCY_DECLARE_KERNEL(cumsum_many_cols)
ACCY_DECLARE_KERNEL(cummax_many_cols)
ACCY_DECLARE_KERNEL(cumsum_long_rows)
ACCY_DECLARE_KERNEL(cummax_line)
ACCY_DECLARE_KERNEL(cumsum_line)

namespace {
/// One scan kernel and its tolerance: a running sum of L terms (of at most
/// 100) may be off by L roundings in its accumulator's type, f32 for f16 and
/// bf16, which then round each result once (rtol).
struct ScanCase {
  const char *name;
  void *kernel;
  Elem elem;
  int64_t axis;
  ref::Scan kind;
  double rtol, atolPerTerm;
};

constexpr double kF32Term = 100 * 0x1p-23, kF64Term = 100 * 0x1p-52;

const ScanCase kScans[] = {
    {"cumsum(f32, axis=1)", KERNEL(cumsum_rows), Elem::F32, 1, ref::Scan::Sum,
     4 * 0x1p-23, kF32Term},
    {"cumsum(f32, axis=0)", KERNEL(cumsum_cols), Elem::F32, 0, ref::Scan::Sum,
     4 * 0x1p-23, kF32Term},
    {"cumsum(f64, axis=1)", KERNEL(cumsum_f64), Elem::F64, 1, ref::Scan::Sum,
     4 * 0x1p-52, kF64Term},
    {"cumsum(f16, axis=1)", KERNEL(cumsum_f16), Elem::F16, 1, ref::Scan::Sum,
     0x1p-10, kF32Term},
    {"cumsum(bf16, axis=1)", KERNEL(cumsum_bf16), Elem::BF16, 1, ref::Scan::Sum,
     0x1p-7, kF32Term},
    {"cumsum(i32, axis=1)", KERNEL(cumsum_i32), Elem::I32, 1, ref::Scan::Sum, 0,
     0},
    {"cumsum(i64, axis=0)", KERNEL(cumsum_i64), Elem::I64, 0, ref::Scan::Sum, 0,
     0},
    {"cummax(f32, axis=-1)", KERNEL(cummax_last), Elem::F32, 1, ref::Scan::Max,
     0, 0},
    {"cummax(f32, axis=0)", KERNEL(cummax_first), Elem::F32, 0, ref::Scan::Max,
     0, 0},
    {"cummax(f16, axis=1)", KERNEL(cummax_f16), Elem::F16, 1, ref::Scan::Max, 0,
     0},
    {"cummax(f64, axis=0)", KERNEL(cummax_f64), Elem::F64, 0, ref::Scan::Max, 0,
     0},
    {"cummax(i32, axis=1)", KERNEL(cummax_i32), Elem::I32, 1, ref::Scan::Max, 0,
     0},
};
} // namespace

TEST_CASE("cumsum and cummax along each axis and in each type", "[scan]") {
  auto sizes =
      GENERATE(table<int64_t, int64_t>({{1, 1}, {3, 37}, {129, 5}, {7, 1003}}));
  int64_t n = std::get<0>(sizes), d = std::get<1>(sizes);
  CAPTURE(n, d);
  for (const ScanCase &c : kScans)
    DYNAMIC_SECTION(c.name) {
      Tensor x = Tensor::random({n, d}, rng(), -100, 100, c.elem);
      Tensor out = Tensor::zeros({n, d}, c.elem);
      callKernel(c.kernel, {&x}, {&out});
      double length = c.axis == 1 ? d : n;
      requireClose(out, ref::scan(x, c.axis, c.kind), c.rtol,
                   c.atolPerTerm * length);
    }
}

TEST_CASE("cumsum along the middle axis of a 3-d tensor", "[scan]") {
  auto [a, b, c] = GENERATE(
      table<int64_t, int64_t, int64_t>({{1, 1, 1}, {3, 37, 5}, {2, 129, 33}}));
  CAPTURE(a, b, c);
  Tensor x = Tensor::random({a, b, c}, rng()), out = Tensor::zeros({a, b, c});
  callKernel(KERNEL(cumsum_mid), {&x}, {&out});
  requireClose(out, ref::scan(x, 1, ref::Scan::Sum), 1e-5, 1e-6 * b);
}

TEST_CASE("a scan between elementwise ops and a reduction", "[scan]") {
  auto sizes =
      GENERATE(table<int64_t, int64_t>({{1, 1}, {3, 37}, {129, 5}, {2, 1003}}));
  int64_t n = std::get<0>(sizes), d = std::get<1>(sizes);
  CAPTURE(n, d);
  Tensor x = Tensor::random({n, d}, rng()), out = Tensor::zeros({n, d});
  callKernel(KERNEL(scan_fused), {&x}, {&out});
  Tensor e = ref::map(x, Elem::F64, [](double v) { return std::exp(v); });
  Tensor expected = ref::map(ref::scan(e, 1, ref::Scan::Sum),
                             ref::reduce(e, {1}, true, ref::Reduce::Sum),
                             [](double c, double s) { return c / s; });
  requireClose(out, ref::cast(expected, Elem::F32), 1e-5, 1e-6);
}

TEST_CASE("scans of many columns and of long lines", "[scan]") {
  SECTION("cumsum along the outer axis of a 3-d tensor") {
    auto [t, c, d] =
        GENERATE(table<int64_t, int64_t, int64_t>({{1, 1, 1}, {7, 3, 1501}}));
    CAPTURE(t, c, d);
    Tensor x = Tensor::random({t, c, d}, rng()), out = Tensor::zeros({t, c, d});
    callKernel(KERNEL(cumsum_many_cols), {&x}, {&out});
    requireClose(out, ref::scan(x, 0, ref::Scan::Sum), 1e-5, 1e-6 * t);
  }
  SECTION("cummax along the outer axis of 4253 columns") {
    int64_t t = GENERATE(1, 13);
    CAPTURE(t);
    Tensor x = Tensor::random({t, 4253}, rng(), -100, 100);
    Tensor out = Tensor::zeros({t, 4253});
    callKernel(KERNEL(cummax_many_cols), {&x}, {&out});
    requireClose(out, ref::scan(x, 0, ref::Scan::Max), 0, 0);
  }
  SECTION("cumsum along rows of 8209") {
    int64_t n = GENERATE(1, 3);
    CAPTURE(n);
    Tensor x = Tensor::random({n, 8209}, rng()), out = Tensor::zeros({n, 8209});
    callKernel(KERNEL(cumsum_long_rows), {&x}, {&out});
    requireClose(out, ref::scan(x, 1, ref::Scan::Sum), 1e-5, 1e-6 * 8209);
  }
  SECTION("cumsum and cummax of one line of dynamic length") {
    int64_t n = GENERATE(1, 8191, 10007);
    CAPTURE(n);
    Tensor x = Tensor::random({n}, rng(), -100, 100), out = Tensor::zeros({n});
    callKernel(KERNEL(cumsum_line), {&x}, {&out});
    requireClose(out, ref::scan(x, 0, ref::Scan::Sum), 4 * 0x1p-23,
                 kF32Term * n);
    callKernel(KERNEL(cummax_line), {&x}, {&out});
    requireClose(out, ref::scan(x, 0, ref::Scan::Max), 0, 0);
  }
}
