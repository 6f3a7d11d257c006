//===- MatmulCases.cpp - `@` at a square and at MLP-like shapes ------------===//
//
// Each shape runs Accy's `@` and cublasSgemm on the same device buffers.
// Accy's result is checked against cuBLAS's everywhere and against the host
// object on a sample of rows (all rows for small shapes).
//
//===----------------------------------------------------------------------===//

#include "Cases.h"
#include "Cublas.h"
#include "HostCall.h"
#include "HostKernels.h"
#include "Tensor.h"

#include "kernels.accy.h"

#include <algorithm>
#include <cmath>

using namespace bench;

namespace {

struct MatmulShape {
  int64_t m, k, n;
  const char *what;
};

std::vector<MatmulShape> shapes(const Settings &settings) {
  if (settings.small)
    return {{64, 48, 80, "square-ish"}, {33, 17, 65, "odd sizes"}};
  return {{4096, 4096, 4096, "square"},
          {16384, 1024, 4096, "MLP up-projection"},
          {16384, 4096, 1024, "MLP down-projection"},
          {8192, 784, 256, "examples/mlp layer 1"}};
}

/// A bound on the size of what is summed for c[i, j]:
/// sum_k |a_ik b_kj| <= (sum_k |a_ik|) * max_k |b_kj|.
class ProductScale {
public:
  ProductScale(const Tensor<float> &a, const Tensor<float> &b, int64_t m,
               int64_t k, int64_t n)
      : rowSums(m), columnMax(n), n(n) {
    for (int64_t i = 0; i < m; ++i)
      for (int64_t p = 0; p < k; ++p)
        rowSums[i] += std::fabs(a.host()[i * k + p]);
    for (int64_t p = 0; p < k; ++p)
      for (int64_t j = 0; j < n; ++j)
        columnMax[j] = std::max(columnMax[j], double(std::fabs(b.host()[p * n + j])));
  }
  double operator()(int64_t row, int64_t column) const {
    return rowSums[row] * columnMax[column];
  }
  /// Scales of the elements of rows [first, ...), by index from there.
  std::function<double(int64_t)> fromRow(int64_t first) const {
    return [this, first](int64_t i) {
      return (*this)(first + i / n, i % n);
    };
  }

private:
  std::vector<double> rowSums, columnMax;
  int64_t n;
};

// Sums of K products in different orders. Measured at K = 4096 with these
// inputs: the host's serial sums are within 1e-7 of this scale from exact
// (double) sums; 2e-6 leaves 20x for the GPU's order and is below TF32's
// error (inputs rounded to 2^-11), so a TF32 SGEMM fails the cuBLAS check.
constexpr Tolerance kMatmulTolerance = {2e-6, 0};

/// The first row of each of `count` blocks of `granule` rows spread evenly
/// over [0, m), all rows when that is no more.
std::vector<int64_t> sampledRows(int64_t m, int64_t granule, int64_t count) {
  int64_t blocks = (m + granule - 1) / granule;
  int64_t wanted = std::clamp<int64_t>((count + granule - 1) / granule, 1, blocks);
  std::vector<int64_t> starts;
  for (int64_t s = 0; s < wanted; ++s)
    starts.push_back((wanted == 1 ? 0 : s * (blocks - 1) / (wanted - 1)) *
                     granule);
  return starts;
}

Measurement matmulCase(const MatmulShape &shape, const Settings &settings) {
  auto [m, k, n, what] = shape;
  Measurement result;
  result.kernel = "matmul";
  result.shape = std::to_string(m) + "x" + std::to_string(k) + " @ " +
                 std::to_string(k) + "x" + std::to_string(n) + " (" + what +
                 ")";
  result.flops = 2.0 * double(m) * double(k) * double(n);
  Tensor<float> a({m, k}), b({k, n}), c({m, n});
  fillUniform(a.host(), -1, 1, settings.seed);
  fillUniform(b.host(), -1, 1, settings.seed + 1);
  for (accy::Status s : {a.upload(), b.upload(), c.allocate()})
    if (!s.ok())
      return failedCase(result.kernel, result.shape, s);
  ProductScale scale(a, b, m, k, n);

  // The host object's loops run at tens of MFLOP/s: check a sample of
  // rows of the large shapes (blocks of rows that keep 16-byte alignment).
  int64_t granule = std::max(alignedRowGranule(k, sizeof(float)),
                             alignedRowGranule(n, sizeof(float)));
  bool everyRow = m * k * n <= (int64_t(1) << 28);
  std::vector<int64_t> starts =
      sampledRows(m, granule, everyRow ? m : settings.matmulCheckRows);
  int64_t rowsChecked = 0;
  for (int64_t start : starts)
    rowsChecked += std::min(granule, m - start);
  result.hostCoverage = rowsChecked == m
                            ? "all"
                            : std::to_string(rowsChecked) + " of " +
                                  std::to_string(m) + " rows";

  CaseSpec spec;
  spec.launch = [&] {
    return bench::kernels::matmul(a.view<2>(), b.view<2>(), c.view<2>());
  };
  spec.readResult = [&](std::vector<float> &got) { return c.download(got); };
  // `want` holds the sampled blocks one after another.
  spec.reference = [&](std::vector<float> &want) {
    want.assign(size_t(rowsChecked * n), 0.f);
    std::vector<int64_t> offsets;
    int64_t offset = 0;
    for (int64_t start : starts) {
      offsets.push_back(offset);
      offset += std::min(granule, m - start) * n;
    }
    forEachChunk(int64_t(starts.size()), 1, [&](int64_t first, int64_t last) {
      for (int64_t s = first; s < last; ++s) {
        int64_t rows = std::min(granule, m - starts[s]);
        Descriptor lhs(&a.host()[starts[s] * k], {rows, k});
        Descriptor rhs(b.host().data(), {k, n});
        Descriptor out(&want[offsets[s]], {rows, n});
        _mlir_ciface_matmul(lhs.get(), rhs.get(), out.get());
      }
    });
  };
  spec.check = [&](const std::vector<float> &got,
                   const std::vector<float> &want) {
    CheckResult check;
    int64_t offset = 0;
    for (int64_t start : starts) {
      int64_t count = std::min(granule, m - start) * n;
      check.merge(compare(&got[start * n], &want[offset], count,
                          kMatmulTolerance, scale.fromRow(start), start * n));
      offset += count;
    }
    return check;
  };
  measure(spec, settings, result);
  if (!result.error.ok())
    return result;

  if (!settings.cublas) {
    result.cublasNote = "cuBLAS is unavailable (above)";
    return result;
  }
  Tensor<float> reference({m, n});
  if (accy::Status s = reference.allocate(); !s.ok()) {
    result.error = s;
    return result;
  }
  auto sgemm = [&] {
    return settings.cublas->matmul(
        static_cast<const float *>(a.deviceData()),
        static_cast<const float *>(b.deviceData()),
        static_cast<float *>(reference.deviceData()), int(m), int(k), int(n));
  };
  if (accy::Status s = timeLaunches(sgemm, settings.timing, result.cublasTiming);
      !s.ok()) {
    result.cublasNote = s.message();
    return result;
  }
  std::vector<float> got, want;
  for (accy::Status s : {c.download(got), reference.download(want)})
    if (!s.ok()) {
      result.error = s;
      return result;
    }
  result.cublasRan = true;
  result.cublasCheck = compare(got.data(), want.data(), m * n,
                               kMatmulTolerance, scale.fromRow(0));
  return result;
}

} // namespace

std::vector<Measurement> bench::matmulCases(const Settings &settings) {
  std::vector<Measurement> results;
  for (const MatmulShape &shape : shapes(settings))
    results.push_back(matmulCase(shape, settings));
  return results;
}
