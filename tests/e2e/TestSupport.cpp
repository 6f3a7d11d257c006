//===- TestSupport.cpp - Shared helpers of the end-to-end tests -----------===//

#define CATCH_CONFIG_MAIN
#include "TestSupport.h"

#include <cmath>

using namespace accy::e2e;

std::mt19937 &accy::e2e::rng() {
  static std::mt19937 generator(20261129);
  return generator;
}

std::vector<Tensor> accy::e2e::outputs(const std::vector<int64_t> &shape,
                                       std::initializer_list<Elem> elems) {
  std::vector<Tensor> outs;
  for (Elem e : elems)
    outs.push_back(Tensor::zeros(shape, e));
  return outs;
}

std::vector<Tensor *> accy::e2e::pointers(std::vector<Tensor> &ts) {
  std::vector<Tensor *> ptrs;
  for (Tensor &t : ts)
    ptrs.push_back(&t);
  return ptrs;
}

void accy::e2e::requireClose(const Tensor &actual, const Tensor &expected,
                             double rtol, double atol) {
  REQUIRE(actual.shape == expected.shape);
  REQUIRE(name(actual.elem) == std::string(name(expected.elem)));
  bool exact = !isFloat(expected.elem);
  if (rtol < 0)
    rtol = ulps(expected.elem, 8);
  if (atol < 0)
    atol = ulps(expected.elem, 4);
  for (int64_t i = 0; i < expected.numel(); ++i) {
    double a = actual.data[i], e = expected.data[i];
    bool ok = exact           ? a == e
              : std::isnan(e) ? std::isnan(a)
              : std::isinf(e) ? a == e
                              : std::abs(a - e) <= atol + rtol * std::abs(e);
    if (ok)
      continue;
    INFO(name(expected.elem) << " element " << i << " of " << expected.numel()
                             << ": got " << a << ", expected " << e << " (rtol "
                             << rtol << ", atol " << atol << ")");
    REQUIRE(ok);
  }
}
