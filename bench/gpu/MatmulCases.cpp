//===- MatmulCases.cpp - `@` at a square and at MLP-like shapes
//------------===//
//
// Each shape runs Accy's `@` of f32 inputs against cublasSgemm, and of f16
// and bf16 inputs accumulated in f32 against cublasGemmEx, on the same
// device buffers. Accy's result is checked against cuBLAS's everywhere and
// against the host object on a sample of rows (all rows for small shapes).
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
#include <cstring>
#include <type_traits>

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
  ProductScale(const std::vector<float> &a, const std::vector<float> &b,
               int64_t m, int64_t k, int64_t n)
      : rowSums(m), columnMax(n), n(n) {
    for (int64_t i = 0; i < m; ++i)
      for (int64_t p = 0; p < k; ++p)
        rowSums[i] += std::fabs(a[i * k + p]);
    for (int64_t p = 0; p < k; ++p)
      for (int64_t j = 0; j < n; ++j)
        columnMax[j] = std::max(columnMax[j], double(std::fabs(b[p * n + j])));
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
// f16 and bf16 products are exact in f32, so the same bound would hold for
// sums in any order; tensor cores round (or truncate) inside their adds in
// ways NVIDIA does not specify, which cuBLAS's GemmEx shares: 1e-5 of the
// scale, still below what rounding the inputs to their format would cost.
constexpr Tolerance kHalfMatmulTolerance = {1e-5, 0};

/// The bit pattern of `value`, a multiple of 2^-10 (f16) or 2^-7 (bf16) in
/// [-1, 1], exactly representable in the format.
uint16_t halfBits(float value, bool bf16) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  if (bf16)
    return static_cast<uint16_t>(bits >> 16);
  uint16_t sign = (bits >> 16) & 0x8000;
  if (value == 0)
    return sign;
  int e;
  double m = std::frexp(std::fabs(double(value)), &e); // in [0.5, 1)
  auto mantissa = static_cast<uint16_t>((m * 2 - 1) * 1024);
  return static_cast<uint16_t>(sign | (e - 1 + 15) << 10 | mantissa);
}

/// One `@` of kernels.accy: its input type (f32, or the 16-bit patterns of
/// f16 and bf16), its launcher, its host function and cuBLAS's peer.
template <typename Input> struct MatmulKernel {
  const char *name, *type;
  bool bf16;
  accy::Status (*launch)(accy::TensorView<const Input, 2>,
                         accy::TensorView<const Input, 2>,
                         accy::TensorView<float, 2>, accy::Stream);
  void (*host)(void *, void *, void *);
  Tolerance tolerance;
};

/// Inputs uniform in [-1, 1) (`values`), rounded for 16-bit inputs to a
/// grid their format holds exactly; `stored` is what the kernel reads.
template <typename Input>
void fillInputs(const MatmulKernel<Input> &kernel, std::vector<float> &values,
                std::vector<Input> &stored, uint64_t seed) {
  fillUniform(values, -1, 1, seed);
  if constexpr (std::is_same_v<Input, float>) {
    stored = values;
  } else {
    float grid = kernel.bf16 ? 128 : 1024;
    for (size_t i = 0; i < values.size(); ++i) {
      values[i] = std::nearbyint(values[i] * grid) / grid;
      stored[i] = halfBits(values[i], kernel.bf16);
    }
  }
}

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

template <typename Input>
Measurement matmulCase(const MatmulKernel<Input> &kernel,
                       const MatmulShape &shape, const Settings &settings) {
  auto [m, k, n, what] = shape;
  Measurement result;
  result.kernel = kernel.name;
  result.shape = std::string(kernel.type) + " " + std::to_string(m) + "x" +
                 std::to_string(k) + " @ " + std::to_string(k) + "x" +
                 std::to_string(n) + " (" + what + ")";
  result.flops = 2.0 * double(m) * double(k) * double(n);
  std::vector<float> aValues(size_t(m * k)), bValues(size_t(k * n));
  Tensor<Input> a({m, k}), b({k, n});
  Tensor<float> c({m, n});
  fillInputs(kernel, aValues, a.host(), settings.seed);
  fillInputs(kernel, bValues, b.host(), settings.seed + 1);
  for (accy::Status s : {a.upload(), b.upload(), c.allocate()})
    if (!s.ok())
      return failedCase(result.kernel, result.shape, s);
  ProductScale scale(aValues, bValues, m, k, n);

  // The host object's loops run at tens of MFLOP/s: check a sample of
  // rows of the large shapes (blocks of rows that keep 16-byte alignment).
  int64_t granule = std::max(alignedRowGranule(k, sizeof(Input)),
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
    return kernel.launch(a.template view<2>(), b.template view<2>(),
                         c.view<2>(), accy::Stream());
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
        kernel.host(lhs.get(), rhs.get(), out.get());
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
                          kernel.tolerance, scale.fromRow(start), start * n));
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
  auto peer = [&] {
    auto *out = static_cast<float *>(reference.deviceData());
    if constexpr (std::is_same_v<Input, float>)
      return settings.cublas->matmul(static_cast<const float *>(a.deviceData()),
                                     static_cast<const float *>(b.deviceData()),
                                     out, int(m), int(k), int(n));
    else
      return settings.cublas->halfMatmul(
          static_cast<const uint16_t *>(a.deviceData()),
          static_cast<const uint16_t *>(b.deviceData()), out, int(m), int(k),
          int(n), kernel.bf16);
  };
  if (accy::Status s = timeLaunches(peer, settings.timing, result.cublasTiming);
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
  result.cublasCheck = compare(got.data(), want.data(), m * n, kernel.tolerance,
                               scale.fromRow(0));
  return result;
}

} // namespace

std::vector<Measurement> bench::matmulCases(const Settings &settings) {
  const MatmulKernel<float> f32 = {"matmul",
                                   "f32",
                                   false,
                                   bench::kernels::matmul,
                                   _mlir_ciface_matmul,
                                   kMatmulTolerance};
  const MatmulKernel<uint16_t> halves[] = {
      {"matmul_f16", "f16", false, bench::kernels::matmul_f16,
       _mlir_ciface_matmul_f16, kHalfMatmulTolerance},
      {"matmul_bf16", "bf16", true, bench::kernels::matmul_bf16,
       _mlir_ciface_matmul_bf16, kHalfMatmulTolerance}};
  std::vector<Measurement> results;
  for (const MatmulShape &shape : shapes(settings))
    results.push_back(matmulCase(f32, shape, settings));
  for (const MatmulKernel<uint16_t> &kernel : halves)
    for (const MatmulShape &shape : shapes(settings))
      results.push_back(matmulCase(kernel, shape, settings));
  return results;
}
