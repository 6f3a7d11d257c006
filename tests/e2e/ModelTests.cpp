//===- ModelTests.cpp - Host numerics of built-ins combined ---------------===//
//
// kernels/models.accy against the reference: causal attention (a mask made
// from iota, select, softmax between two contractions) and a dense layer
// with gelu, layer norm and log_softmax.
//
//===----------------------------------------------------------------------===//

#include "Reference.h"
#include "TestSupport.h"

#include <cmath>

using namespace accy::e2e;

ACCY_DECLARE_KERNEL(attention)
ACCY_DECLARE_KERNEL(dense_norm)
ACCY_DECLARE_KERNEL(layer_norm3)

TEST_CASE("causal attention", "[model]") {
  auto [t, d] = GENERATE(table<int64_t, int64_t>({{1, 1}, {7, 16}, {129, 33}}));
  CAPTURE(t, d);
  Tensor q = Tensor::random({t, d}, rng()), k = Tensor::random({t, d}, rng()),
         v = Tensor::random({t, 5}, rng()), out = Tensor::zeros({t, 5});
  callKernel(KERNEL(attention), {&q, &k, &v}, {&out});
  Tensor scores =
      ref::map(ref::matmul(ref::cast(q, Elem::F64), ref::transpose(k, {1, 0})),
               [](double s) { return s * 0.125; });
  Tensor masked = scores;
  ref::forEachIndex(scores.shape, [&](const ref::Index &i) {
    if (i[1] > i[0])
      masked.at(i) = -1e9;
  });
  Tensor expected = ref::matmul(ref::softmax(masked, 1), v);
  requireClose(out, ref::cast(expected, Elem::F32), 1e-5, 1e-5);
}

TEST_CASE("dense layer with gelu, layer norm and log_softmax", "[model]") {
  auto [b, d] = GENERATE(table<int64_t, int64_t>({{1, 3}, {7, 16}, {33, 129}}));
  CAPTURE(b, d);
  Tensor x = Tensor::random({b, d}, rng()),
         w = Tensor::random({d, 37}, rng(), -0.3, 0.3),
         g = Tensor::random({37}, rng());
  std::vector<Tensor> outs = {Tensor::zeros({b, 37}), Tensor::zeros({b})};
  callKernel(KERNEL(dense_norm), {&x, &w, &g}, pointers(outs));
  Tensor h = ref::map(ref::matmul(ref::cast(x, Elem::F64), w), ref::gelu);
  Tensor zero = ref::map(g, Elem::F64, [](double) { return 0.0; });
  Tensor y = ref::layerNorm(h, g, zero, 1e-5);
  Tensor top = ref::reduce(ref::logSoftmax(y, 1), {1}, false, ref::Reduce::Max);
  // Layer norm divides by a standard deviation: relative errors of f32 grow
  // where a row's values are close together.
  requireClose(outs[0], ref::cast(y, Elem::F32), 1e-4, 1e-4);
  requireClose(outs[1], ref::cast(top, Elem::F32), 1e-4, 1e-4);
}

TEST_CASE("layer norm over the last axis of a 3-d tensor", "[model]") {
  auto [b, t, d] = GENERATE(table<int64_t, int64_t, int64_t>(
      {{1, 1, 1}, {2, 3, 37}, {3, 129, 5}, {2, 5, 1003}}));
  CAPTURE(b, t, d);
  Tensor x = Tensor::random({b, t, d}, rng(), -3, 5),
         g = Tensor::random({d}, rng()), out = Tensor::zeros({b, t, d});
  callKernel(KERNEL(layer_norm3), {&x, &g}, {&out});
  Tensor zero = ref::cast(ref::map(g, [](double) { return 0.0; }), Elem::F64);
  requireClose(out, ref::layerNorm(x, g, zero, 1e-5), 1e-4, 1e-4);
}
