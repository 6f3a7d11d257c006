//===- Reference.h - Straightforward reference implementations ------------===//
//
// Plain loops in double precision, the meaning LANGUAGE.md gives each
// built-in; the host objects must agree with them within tolerance. Every
// result is rounded once to its element type (the first operand's unless
// said otherwise).
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_TESTS_E2E_REFERENCE_H
#define ACCY_TESTS_E2E_REFERENCE_H

#include "HostKernels.h"

#include <functional>
#include <string>

namespace accy::e2e::ref {

using Index = std::vector<int64_t>;
using Unary = std::function<double(double)>;
using Binary = std::function<double(double, double)>;

/// Calls f on every index of `shape`, in row-major order.
void forEachIndex(const Index &shape,
                  const std::function<void(const Index &)> &f);
/// NumPy broadcasting of two shapes.
Index broadcastShape(const Index &a, const Index &b);
Tensor map(const Tensor &x, const Unary &f);
Tensor map(const Tensor &x, Elem result, const Unary &f);
Tensor map(const Tensor &a, const Tensor &b, const Binary &f);
/// `x` rounded to `elem` (as cast<elem>; f64 keeps a chain of reference
/// steps unrounded until its end).
Tensor cast(const Tensor &x, Elem elem);
/// Comparisons: a bool tensor.
Tensor compare(const Tensor &a, const Tensor &b,
               const std::function<bool(double, double)> &f);
/// select(cond, a, b) with broadcasting; the element type of `a`.
Tensor select(const Tensor &cond, const Tensor &a, const Tensor &b);

enum class Reduce { Sum, Mean, Max, Min };
Tensor reduce(const Tensor &x, Index axes, bool keepdims, Reduce kind);
Tensor softmax(const Tensor &x, int64_t axis);
Tensor logSoftmax(const Tensor &x, int64_t axis);
/// (x - mean) / sqrt(var + eps) * g + b over the last axis.
Tensor layerNorm(const Tensor &x, const Tensor &g, const Tensor &b, double eps);

/// Einsum without ellipses: `spec` like "bij,bjk->bik".
Tensor einsum(const std::string &spec, const std::vector<const Tensor *> &ops);
/// `a @ b` with batch broadcasting on the leading axes.
Tensor matmul(const Tensor &a, const Tensor &b);

/// x[start_0:stop_0, start_1:stop_1, ...].
Tensor slice(const Tensor &x, const Index &starts, const Index &stops);
/// take(x, idx, axis), indices clamped to [0, size - 1].
Tensor take(const Tensor &x, const Tensor &idx, int64_t axis);
Tensor transpose(const Tensor &x, const Index &perm);
Tensor concat(const std::vector<const Tensor *> &parts, int64_t axis);

enum class Scan { Sum, Max };
Tensor scan(const Tensor &x, int64_t axis, Scan kind);

/// Rank-0 losses, labels clamped like gathers.
Tensor mse(const Tensor &pred, const Tensor &target);
Tensor crossEntropy(const Tensor &logits, const Tensor &labels);
Tensor nll(const Tensor &logp, const Tensor &labels);

double gelu(double x);

} // namespace accy::e2e::ref

#endif
