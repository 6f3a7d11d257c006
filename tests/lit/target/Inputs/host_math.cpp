//===- host_math.cpp - ulp error of exp, log, tanh, rsqrt -----------------===//
//
// Sweeps the f32 range through the host object of math.mlir and prints the
// largest error in ulp (of the correctly rounded result) of each function,
// with the special values checked exactly. Exits non-zero above 4 ulp.
//
//===----------------------------------------------------------------------===//
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

struct Memref1 {
  float *allocated, *aligned;
  int64_t offset, size, stride;
};
extern "C" void _mlir_ciface_mathfns(Memref1 *, Memref1 *, Memref1 *,
                                     Memref1 *, Memref1 *);

static Memref1 wrap(std::vector<float> &v) {
  return {v.data(), v.data(), 0, (int64_t)v.size(), 1};
}

static double ulps(float got, double ref) {
  if (std::isnan(ref))
    return std::isnan(got) ? 0 : 1e9;
  float rounded = (float)ref;
  if (std::isinf(rounded))
    return (std::isinf(got) && (got > 0) == (rounded > 0)) ? 0 : 1e9;
  double ulp = std::nextafter(std::fabs(rounded), INFINITY) - std::fabs(rounded);
  return std::fabs((double)got - ref) / ulp;
}

int main() {
  std::vector<float> x;
  for (float v = -110.f; v <= 110.f; v += 0.00731f)
    x.push_back(v);
  for (int e = -149; e < 128; ++e)
    x.push_back(std::ldexp(1.2345f, e));
  const float special[] = {0.f, -0.f, INFINITY, -INFINITY, NAN, 88.72f,
                           88.73f, -103.9f, 1e-45f};
  for (float v : special)
    x.push_back(v);
  size_t n = x.size();
  std::vector<float> e(n), l(n), t(n), r(n);
  Memref1 X = wrap(x), E = wrap(e), L = wrap(l), T = wrap(t), R = wrap(r);
  _mlir_ciface_mathfns(&X, &E, &L, &T, &R);

  double worst[4] = {0, 0, 0, 0};
  for (size_t i = 0; i < n; ++i) {
    double a = x[i];
    worst[0] = std::fmax(worst[0], ulps(e[i], std::exp(a)));
    worst[1] = std::fmax(worst[1], ulps(l[i], std::log(a)));
    worst[2] = std::fmax(worst[2], ulps(t[i], std::tanh(a)));
    worst[3] = std::fmax(worst[3], ulps(r[i], 1.0 / std::sqrt(a)));
  }
  const char *names[4] = {"exp", "log", "tanh", "rsqrt"};
  bool ok = true;
  for (int f = 0; f < 4; ++f) {
    std::printf("%s max ulp %.2f %s\n", names[f], worst[f],
                worst[f] <= 4 ? "ok" : "FAIL");
    ok &= worst[f] <= 4;
  }
  return ok ? 0 : 1;
}
