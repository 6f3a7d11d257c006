//===- Reference.h - Straightforward reference implementations ------------===//
//
// Plain loops in double precision, the meaning LANGUAGE.md gives each
// built-in; the host objects must agree with them within tolerance.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_TESTS_E2E_REFERENCE_H
#define ACCY_TESTS_E2E_REFERENCE_H

#include "HostKernels.h"

#include <functional>
#include <string>

namespace accy::e2e::ref {

using Unary = std::function<double(double)>;
using Binary = std::function<double(double, double)>;

/// NumPy broadcasting of two shapes.
std::vector<int64_t> broadcastShape(const std::vector<int64_t> &a,
                                    const std::vector<int64_t> &b);
Tensor map(const Tensor &x, const Unary &f);
Tensor map(const Tensor &a, const Tensor &b, const Binary &f);
/// Comparisons: a bool tensor.
Tensor compare(const Tensor &a, const Tensor &b,
               const std::function<bool(float, float)> &f);

enum class Reduce { Sum, Mean, Max, Min };
Tensor reduce(const Tensor &x, std::vector<int64_t> axes, bool keepdims,
              Reduce kind);
Tensor softmax(const Tensor &x, int64_t axis);
/// Einsum without ellipses: `spec` like "bij,bjk->bik".
Tensor einsum(const std::string &spec, const std::vector<const Tensor *> &ops);
/// `a @ b` with batch broadcasting on the leading axes.
Tensor matmul(const Tensor &a, const Tensor &b);

double gelu(double x);

} // namespace accy::e2e::ref

#endif
