//===- LossTests.cpp - Host numerics of log_softmax and the losses --------===//
//
// kernels/losses.accy against the reference: log_softmax along either axis
// and cross_entropy on logits near 1e4 (which must neither overflow nor lose
// their precision), mse, nll with labels out of range (which clamp), and
// cross_entropy in f16 and bf16.
//
//===----------------------------------------------------------------------===//

#include "Reference.h"
#include "TestSupport.h"

#include <cmath>
#include <tuple>

using namespace accy::e2e;

ACCY_DECLARE_KERNEL(log_softmax_rows)
ACCY_DECLARE_KERNEL(log_softmax_cols)
ACCY_DECLARE_KERNEL(mse_loss)
ACCY_DECLARE_KERNEL(xent)
ACCY_DECLARE_KERNEL(nll_loss)
ACCY_DECLARE_KERNEL(nll_of_log_softmax)
ACCY_DECLARE_KERNEL(xent_f16)
ACCY_DECLARE_KERNEL(xent_bf16)
ACCY_DECLARE_KERNEL(xent_f64)
ACCY_DECLARE_KERNEL(log_softmax_f64)
ACCY_DECLARE_KERNEL(nll_f16)
ACCY_DECLARE_KERNEL(mse_f16)

/// Class ids in [-2, classes + 2): a few out of range, which clamp.
static Tensor labels(int64_t batch, int64_t classes) {
  return Tensor::random({batch}, rng(), -2, classes + 1, Elem::I32);
}

static void requireFinite(const Tensor &t) {
  for (double v : t.data)
    REQUIRE(std::isfinite(v));
}

TEST_CASE("log_softmax is stable for large inputs", "[loss]") {
  auto [n, d] =
      GENERATE(table<int64_t, int64_t>({{1, 1}, {3, 5}, {37, 129}, {7, 1003}}));
  double scale = GENERATE(1.0, 1e4);
  CAPTURE(n, d, scale);
  Tensor x = Tensor::random({n, d}, rng(), -scale, scale);
  Tensor out = Tensor::zeros({n, d});
  callKernel(KERNEL(log_softmax_rows), {&x}, {&out});
  requireFinite(out);
  requireClose(out, ref::logSoftmax(x, 1), 1e-5, 1e-5);
  callKernel(KERNEL(log_softmax_cols), {&x}, {&out});
  requireFinite(out);
  requireClose(out, ref::logSoftmax(x, 0), 1e-5, 1e-5);
  Tensor wide = Tensor::random({n, d}, rng(), -scale, scale, Elem::F64);
  Tensor wideOut = Tensor::zeros({n, d}, Elem::F64);
  callKernel(KERNEL(log_softmax_f64), {&wide}, {&wideOut});
  requireClose(wideOut, ref::logSoftmax(wide, 1), 1e-13, 1e-13);
}

TEST_CASE("cross_entropy, nll and mse", "[loss]") {
  auto [b, c] =
      GENERATE(table<int64_t, int64_t>({{1, 1}, {1, 7}, {37, 5}, {129, 1003}}));
  CAPTURE(b, c);
  Tensor y = labels(b, c), out = Tensor::zeros({});
  SECTION("cross_entropy of logits near 1e4 and near 1") {
    double scale = GENERATE(1.0, 1e4);
    CAPTURE(scale);
    Tensor x = Tensor::random({b, c}, rng(), -scale, scale);
    callKernel(KERNEL(xent), {&x, &y}, {&out});
    requireFinite(out);
    requireClose(out, ref::crossEntropy(x, y), 1e-5, 1e-5);
    callKernel(KERNEL(nll_of_log_softmax), {&x, &y}, {&out});
    requireClose(out, ref::crossEntropy(x, y), 1e-5, 1e-5);
  }
  SECTION("nll of given log-probabilities") {
    Tensor logp = Tensor::random({b, c}, rng(), -6, 0);
    callKernel(KERNEL(nll_loss), {&logp, &y}, {&out});
    requireClose(out, ref::nll(logp, y), 1e-6, 1e-6);
  }
  SECTION("mse") {
    Tensor p = Tensor::random({b, c}, rng()), t = Tensor::random({b, c}, rng());
    callKernel(KERNEL(mse_loss), {&p, &t}, {&out});
    // A sequential f32 sum of 10^5 terms is off by about 1e-5.
    requireClose(out, ref::mse(p, t), 1e-4, 1e-6);
  }
  SECTION("cross_entropy in f16, bf16 (accumulating in f32) and f64") {
    // f16 and bf16 round once; f64 sums a row's terms and the batch's.
    const std::tuple<Elem, void *, double> kernels[] = {
        {Elem::F16, KERNEL(xent_f16), 2 * 0x1p-10},
        {Elem::BF16, KERNEL(xent_bf16), 2 * 0x1p-7},
        {Elem::F64, KERNEL(xent_f64), 1e-13}};
    for (auto [elem, kernel, tol] : kernels)
      DYNAMIC_SECTION(name(elem)) {
        for (double scale : {8.0, 1e4}) {
          INFO("logits within " << scale);
          Tensor x = Tensor::random({b, c}, rng(), -scale, scale, elem);
          Tensor loss = Tensor::zeros({}, elem);
          callKernel(kernel, {&x, &y}, {&loss});
          requireFinite(loss);
          requireClose(loss, ref::crossEntropy(x, y), tol, tol);
        }
      }
  }
  SECTION("nll and mse in f16") {
    Tensor logp = Tensor::random({b, c}, rng(), -6, 0, Elem::F16);
    Tensor loss = Tensor::zeros({}, Elem::F16);
    callKernel(KERNEL(nll_f16), {&logp, &y}, {&loss});
    requireClose(loss, ref::nll(logp, y), ulps(Elem::F16, 1),
                 ulps(Elem::F16, 1));
    Tensor p = Tensor::random({b, c}, rng(), -2, 2, Elem::F16),
           t = Tensor::random({b, c}, rng(), -2, 2, Elem::F16);
    callKernel(KERNEL(mse_f16), {&p, &t}, {&loss});
    requireClose(loss, ref::mse(p, t), ulps(Elem::F16, 1), ulps(Elem::F16, 1));
  }
}
