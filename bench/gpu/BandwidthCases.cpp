//===- BandwidthCases.cpp - Softmax, layer norm, cross-entropy, cumsum, ----===//
//===- and a long elementwise chain, each moving 256 MiB or more -----------===//
//
// Every tensor is several times the size of an H100/H200's 50 MB L2 cache,
// so repeated launches read it from HBM. Shapes are "rows x row length";
// the host reference runs on slices of rows in parallel.
//
//===----------------------------------------------------------------------===//

#include "Cases.h"
#include "HostCall.h"
#include "HostKernels.h"
#include "Tensor.h"

#include "kernels.accy.h"

#include <algorithm>
#include <cmath>

using namespace bench;
namespace k = bench::kernels;

namespace {

using CheckFn = std::function<CheckResult(const std::vector<float> &got,
                                          const std::vector<float> &want)>;

/// Rows x columns: the full size (64 Mi elements, 256 MiB in f32), a
/// small one with a row length that is not a multiple of any block size,
/// or for the memory model rows of the full length, 4 MiB in f32.
struct Rows {
  int64_t rows, columns;
};
constexpr int64_t kModelElements = int64_t(1) << 20;
Rows rowShape(const Settings &settings, Rows full) {
  if (settings.small)
    return {37, 300};
  if (settings.model)
    return {std::max<int64_t>(1, kModelElements / full.columns), full.columns};
  return full;
}

Measurement named(const char *kernel, const std::vector<int64_t> &shape) {
  Measurement m;
  m.kernel = kernel;
  m.shape = shapeText(shape);
  m.hostCoverage = "all";
  return m;
}

/// The first error of uploading inputs and allocating results.
accy::Status firstError(std::initializer_list<accy::Status> steps) {
  for (const accy::Status &s : steps)
    if (!s.ok())
      return s;
  return {};
}

/// `want` = the host kernel on every row of `x` [rows, columns], one
/// call(in, out) per slice of rows, the slices in parallel.
void referenceByRows(const Tensor<float> &x, Rows shape,
                     std::vector<float> &want,
                     const std::function<void(Descriptor &, Descriptor &)> &call) {
  auto [rows, columns] = shape;
  want.resize(x.host().size());
  forEachChunk(rows, alignedRowGranule(columns, sizeof(float)),
               [&](int64_t first, int64_t last) {
                 Descriptor in(&x.host()[first * columns],
                               {last - first, columns});
                 Descriptor out(&want[first * columns],
                                {last - first, columns});
                 call(in, out);
               });
}

CheckFn relativeCheck(Tolerance tolerance) {
  return [tolerance](const std::vector<float> &got,
                     const std::vector<float> &want) {
    if (got.size() != want.size())
      return CheckResult{};
    return compare(got.data(), want.data(), int64_t(got.size()), tolerance);
  };
}

/// A prefix sum may cancel to near zero, so the error is measured against
/// the sum of the absolute values so far, S_i: any summation order is
/// within i eps S_i; 1e-5 S_i is that bound for i ~ 84, far above the
/// typical sqrt(i) eps S_i of a scan of random terms.
CheckFn prefixSumCheck(const Tensor<float> &x, Rows shape) {
  return [&x, shape](const std::vector<float> &got,
                     const std::vector<float> &want) {
    auto [rows, columns] = shape;
    CheckResult result;
    if (got.size() != want.size())
      return result;
    std::vector<double> prefix(columns);
    for (int64_t r = 0; r < rows; ++r) {
      const float *row = &x.host()[r * columns];
      double sum = 0;
      for (int64_t c = 0; c < columns; ++c)
        prefix[c] = sum += std::fabs(row[c]);
      result.merge(compare(&got[r * columns], &want[r * columns], columns,
                           {1e-5, 1e-6}, [&](int64_t c) { return prefix[c]; },
                           r * columns));
    }
    return result;
  };
}

template <typename T>
std::function<accy::Status(std::vector<float> &)> reader(const Tensor<T> &t) {
  return [&t](std::vector<float> &got) { return t.download(got); };
}

using RowKernel = accy::Status (*)(accy::TensorView<const float, 2>,
                                   accy::TensorView<float, 2>, accy::Stream);
using HostRowKernel = void (*)(void *, void *);

/// A kernel y[rows, columns] = f(x[rows, columns]) with independent rows,
/// x uniform in [-range, range).
Measurement rowMapCase(const Settings &settings, const char *name,
                       float range, RowKernel kernel, HostRowKernel host,
                       const std::function<CheckFn(const Tensor<float> &,
                                                   Rows)> &makeCheck) {
  Rows shape = rowShape(settings, {16384, 4096});
  Measurement m = named(name, {shape.rows, shape.columns});
  Tensor<float> x({shape.rows, shape.columns}), y({shape.rows, shape.columns});
  fillUniform(x.host(), -range, range, settings.seed);
  if (accy::Status s = firstError({x.upload(), y.allocate()}); !s.ok())
    return failedCase(m.kernel, m.shape, s);
  m.bytes = double(x.bytes() + y.bytes());

  CaseSpec spec;
  spec.launch = [&] { return kernel(x.view<2>(), y.view<2>(), {}); };
  spec.readResult = reader(y);
  spec.reference = [&](std::vector<float> &want) {
    referenceByRows(x, shape, want, [host](Descriptor &in, Descriptor &out) {
      host(in.get(), out.get());
    });
  };
  spec.check = makeCheck(x, shape);
  measure(spec, settings, m);
  return m;
}

} // namespace

Measurement bench::softmaxCase(const Settings &settings) {
  // Each output is exp(x - max) / sum: a few ulp from exp and the
  // division, and the sum's rounding, which depends on its order (the GPU
  // splits a row across threads). A sum of D positive terms in any order
  // is within (D - 1) eps of the exact sum; 1e-4 ~ 0.2 D eps for D = 4096.
  return rowMapCase(settings, "softmax", 4, k::row_softmax,
                    _mlir_ciface_row_softmax,
                    [](const Tensor<float> &, Rows) {
                      return relativeCheck({1e-4, 0});
                    });
}

Measurement bench::cumsumCase(const Settings &settings) {
  return rowMapCase(settings, "cumsum", 1, k::row_cumsum,
                    _mlir_ciface_row_cumsum, prefixSumCheck);
}

Measurement bench::layerNormCase(const Settings &settings) {
  Rows shape = rowShape(settings, {16384, 4096});
  auto [n, d] = shape;
  Measurement m = named("layer_norm", {n, d});
  Tensor<float> x({n, d}), g({d}), b({d}), y({n, d});
  fillUniform(x.host(), -2, 2, settings.seed);
  fillUniform(g.host(), 0.5f, 1.5f, settings.seed + 1);
  fillUniform(b.host(), -0.5f, 0.5f, settings.seed + 2);
  if (accy::Status s =
          firstError({x.upload(), g.upload(), b.upload(), y.allocate()});
      !s.ok())
    return failedCase(m.kernel, m.shape, s);
  m.bytes = double(x.bytes() + g.bytes() + b.bytes() + y.bytes());

  CaseSpec spec;
  spec.launch = [&] {
    return k::layer_norm(x.view<2>(), g.view<1>(), b.view<1>(), y.view<2>());
  };
  spec.readResult = reader(y);
  spec.reference = [&](std::vector<float> &want) {
    referenceByRows(x, shape, want, [&](Descriptor &in, Descriptor &out) {
      Descriptor gain(g.host().data(), {d}), bias(b.host().data(), {d});
      _mlir_ciface_layer_norm(in.get(), gain.get(), bias.get(), out.get());
    });
  };
  // Outputs are O(1); the mean and variance are sums of D terms in an
  // unspecified order (as softmax's), then rsqrt within 4 ulp.
  spec.check = relativeCheck({1e-4, 1e-4});
  measure(spec, settings, m);
  return m;
}

Measurement bench::crossEntropyCase(const Settings &settings) {
  // A batch of 4096 rows over a 16384-word vocabulary.
  auto [batch, classes] = rowShape(settings, {4096, 16384});
  Measurement m = named("cross_entropy", {batch, classes});
  Tensor<float> logits({batch, classes}), loss(std::vector<int64_t>{});
  Tensor<int32_t> labels({batch});
  fillUniform(logits.host(), -4, 4, settings.seed);
  fillLabels(labels.host(), int32_t(classes), settings.seed + 1);
  if (accy::Status s =
          firstError({logits.upload(), labels.upload(), loss.allocate()});
      !s.ok())
    return failedCase(m.kernel, m.shape, s);
  m.bytes = double(logits.bytes() + labels.bytes() + loss.bytes());

  CaseSpec spec;
  spec.launch = [&] {
    return k::xent(logits.view<2>(), labels.view<1>(), loss.view<0>());
  };
  spec.readResult = reader(loss);
  // The mean over the batch is one value: one call on the whole tensor.
  spec.reference = [&](std::vector<float> &want) {
    want.resize(1);
    Descriptor in(logits.host().data(), {batch, classes});
    Descriptor ids(labels.host().data(), {batch});
    Descriptor out(want.data(), {});
    _mlir_ciface_xent(in.get(), ids.get(), out.get());
  };
  // A log-sum-exp per row (sums of C positive terms), then a mean of B
  // terms of the same sign: both within 1e-4 as softmax's sums.
  spec.check = relativeCheck({1e-4, 0});
  measure(spec, settings, m);
  return m;
}

Measurement bench::elementwiseChainCase(const Settings &settings) {
  int64_t n = settings.small   ? 1001
              : settings.model ? kModelElements
                               : int64_t(1) << 26;
  Measurement m = named("elementwise", {n});
  Tensor<float> x({n}), y({n}), z({n});
  fillUniform(x.host(), -3, 3, settings.seed);
  fillUniform(y.host(), -3, 3, settings.seed + 1);
  if (accy::Status s = firstError({x.upload(), y.upload(), z.allocate()});
      !s.ok())
    return failedCase(m.kernel, m.shape, s);
  m.bytes = double(x.bytes() + y.bytes() + z.bytes());

  CaseSpec spec;
  spec.launch = [&] { return k::chain(x.view<1>(), y.view<1>(), z.view<1>()); };
  spec.readResult = reader(z);
  spec.reference = [&](std::vector<float> &want) {
    want.resize(z.host().size());
    // Slices of 4 elements keep every slice 16-byte aligned.
    forEachChunk(n, 4, [&](int64_t first, int64_t last) {
      Descriptor a(&x.host()[first], {last - first});
      Descriptor b(&y.host()[first], {last - first});
      Descriptor out(&want[first], {last - first});
      _mlir_ciface_chain(a.get(), b.get(), out.get());
    });
  };
  // No reductions; host and GPU round each operation alike (no FMA
  // contraction), the transcendentals within 4 ulp each. Through the chain
  // (|x| <= 3 scaling sigmoid's error, then silu) that bounds the error by
  // about 2e-6 where terms cancel: 4e-6 absolute, 1e-5 relative.
  spec.check = relativeCheck({1e-5, 4e-6});
  measure(spec, settings, m);
  return m;
}
