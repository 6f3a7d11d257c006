//===- ScanTests.cpp - Host numerics of cumsum and cummax -----------------===//
//
// kernels/scans.accy against the reference: every scan along its axis, in
// f32, f64, f16 and i32, at sizes that are not multiples of any tile.
//
//===----------------------------------------------------------------------===//

#include "Reference.h"
#include "TestSupport.h"

using namespace accy::e2e;

ACCY_DECLARE_KERNEL(cumsum_rows)
ACCY_DECLARE_KERNEL(cumsum_cols)
ACCY_DECLARE_KERNEL(cummax_last)
ACCY_DECLARE_KERNEL(cummax_first)
ACCY_DECLARE_KERNEL(cumsum_i32)
ACCY_DECLARE_KERNEL(cumsum_f64)
ACCY_DECLARE_KERNEL(cummax_f16)

namespace {
struct ScanCase {
  const char *name;
  void *kernel;
  Elem elem;
  int64_t axis;
  ref::Scan kind;
};
} // namespace

TEST_CASE("cumsum and cummax along each axis and in each type", "[scan]") {
  const ScanCase cases[] = {
      {"cumsum(f32, axis=1)", KERNEL(cumsum_rows), Elem::F32, 1, ref::Scan::Sum},
      {"cumsum(f32, axis=0)", KERNEL(cumsum_cols), Elem::F32, 0, ref::Scan::Sum},
      {"cummax(f32, axis=-1)", KERNEL(cummax_last), Elem::F32, 1, ref::Scan::Max},
      {"cummax(f32, axis=0)", KERNEL(cummax_first), Elem::F32, 0, ref::Scan::Max},
      {"cumsum(i32, axis=1)", KERNEL(cumsum_i32), Elem::I32, 1, ref::Scan::Sum},
      {"cumsum(f64, axis=1)", KERNEL(cumsum_f64), Elem::F64, 1, ref::Scan::Sum},
      {"cummax(f16, axis=1)", KERNEL(cummax_f16), Elem::F16, 1, ref::Scan::Max},
  };
  auto [n, d] = GENERATE(table<int64_t, int64_t>(
      {{1, 1}, {3, 37}, {129, 5}, {7, 1003}}));
  for (const ScanCase &c : cases) DYNAMIC_SECTION(c.name) {
    Tensor x = Tensor::random({n, d}, rng(), -100, 100, c.elem);
    Tensor out = Tensor::zeros({n, d}, c.elem);
    callKernel(c.kernel, {&x}, {&out});
    // A running sum of L terms may be off by L roundings of its magnitude.
    double length = c.axis == 1 ? d : n;
    if (c.kind == ref::Scan::Sum)
      requireClose(out, ref::scan(x, c.axis, c.kind), ulps(c.elem, 4),
                   ulps(c.elem, 100 * length));
    else
      requireClose(out, ref::scan(x, c.axis, c.kind), 0, 0);
  }
}
