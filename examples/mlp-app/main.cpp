// Runs the example's kernels on the device Accy picks (ACCY_DEVICE) and
// compares them with plain C++.
#include "Reference.h"
#include "classifier.accy.h"
#include "softmax.accy.h"

#include <cmath>
#include <cstdio>
#include <random>

namespace {

/// Host values and their copy in the device's memory.
template <typename T> class DeviceTensor {
public:
  DeviceTensor(std::vector<T> values, std::vector<int64_t> shape)
      : host(std::move(values)), shape(std::move(shape)),
        device(host.size() * sizeof(T)) {
    status = device.upload(host.data(), host.size() * sizeof(T));
  }
  template <size_t Rank> accy::TensorView<T, Rank> view() const {
    std::array<int64_t, Rank> sizes{};
    std::copy(shape.begin(), shape.end(), sizes.begin());
    return device.view<T, Rank>(sizes);
  }
  const std::vector<T> &read() {
    if (status.ok())
      status = device.download(host.data(), host.size() * sizeof(T));
    return host;
  }
  accy::Status status;

private:
  std::vector<T> host;
  std::vector<int64_t> shape;
  accy::DeviceBuffer device;
};

std::vector<float> randomVector(size_t n, std::mt19937 &rng, float scale) {
  std::uniform_real_distribution<float> dist(-scale, scale);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(rng);
  return v;
}

double maxError(const std::vector<float> &got, const std::vector<double> &want) {
  double error = 0;
  for (size_t i = 0; i < got.size(); ++i)
    error = std::max(error, std::abs(got[i] - want[i]));
  return error;
}

bool report(const char *what, const accy::Status &status) {
  if (status.ok())
    return true;
  std::printf("%s failed: [%s] %s\n", what, accy::errorCodeName(status.code()),
              status.message().c_str());
  return false;
}

} // namespace

int main() {
  std::printf("device: %s\n", accy::Runtime::instance().deviceName().c_str());
  std::mt19937 rng(42);
  Classifier c{8, 16, 32, 10};
  c.x = randomVector(c.batch * c.features, rng, 2.f);
  c.g = randomVector(c.features, rng, 1.f);
  c.beta = randomVector(c.features, rng, 0.5f);
  c.w1 = randomVector(c.features * c.hidden, rng, 0.5f);
  c.b1 = randomVector(c.hidden, rng, 0.1f);
  c.w2 = randomVector(c.hidden * c.classes, rng, 0.5f);
  c.b2 = randomVector(c.classes, rng, 0.1f);
  for (int64_t i = 0; i < c.batch; ++i)
    c.labels.push_back(static_cast<int32_t>(rng() % c.classes));

  DeviceTensor<float> x(c.x, {c.batch, c.features}), g(c.g, {c.features}),
      beta(c.beta, {c.features}), w1(c.w1, {c.features, c.hidden}),
      b1(c.b1, {c.hidden}), w2(c.w2, {c.hidden, c.classes}),
      b2(c.b2, {c.classes});
  DeviceTensor<int32_t> labels(c.labels, {c.batch});
  DeviceTensor<float> probabilities(std::vector<float>(c.batch * c.classes),
                                    {c.batch, c.classes});
  DeviceTensor<float> loss(std::vector<float>(1), {});
  DeviceTensor<float> normed(std::vector<float>(c.batch * c.features),
                             {c.batch, c.features});

  if (!report("classify",
              mlp::kernels::classify(x.view<2>(), g.view<1>(), beta.view<1>(),
                                     w1.view<2>(), b1.view<1>(), w2.view<2>(),
                                     b2.view<1>(), labels.view<1>(),
                                     probabilities.view<2>(), loss.view<0>())) ||
      !report("layernorm", mlp::kernels::layernorm(x.view<2>(), g.view<1>(),
                                                   beta.view<1>(),
                                                   normed.view<2>())))
    return 1;

  std::vector<double> wantProbabilities;
  double wantLoss = 0;
  classify(c, wantProbabilities, wantLoss);
  const std::vector<float> &gotProbabilities = probabilities.read();
  float gotLoss = loss.read()[0];
  double normError =
      maxError(normed.read(), layerNorm(c.x, c.batch, c.features, c.g, c.beta));
  for (auto *t : {&probabilities.status, &loss.status, &normed.status})
    if (!report("reading results", *t))
      return 1;

  std::printf("class probabilities, first rows (accy | reference):\n");
  for (int64_t r = 0; r < 2; ++r) {
    for (int64_t k = 0; k < c.classes; ++k)
      std::printf(" %.4f", gotProbabilities[r * c.classes + k]);
    std::printf("  |");
    for (int64_t k = 0; k < c.classes; ++k)
      std::printf(" %.4f", wantProbabilities[r * c.classes + k]);
    std::printf("\n");
  }
  double probabilityError = maxError(gotProbabilities, wantProbabilities);
  std::printf("cross-entropy loss: %.6f (reference %.6f)\n", gotLoss, wantLoss);
  std::printf("max abs error: probabilities %.2e, loss %.2e, layernorm %.2e\n",
              probabilityError, std::abs(gotLoss - wantLoss), normError);
  bool ok = probabilityError < 1e-5 && std::abs(gotLoss - wantLoss) < 1e-5 &&
            normError < 1e-4;
  std::printf("%s\n", ok ? "results match the reference" : "MISMATCH");
  return ok ? 0 : 1;
}
