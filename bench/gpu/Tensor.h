//===- Tensor.h - Host values and their copy on the runtime's device ------===//
//
// The benchmark keeps every tensor twice: on the host, where the inputs are
// generated and the host object computes the reference, and in the memory
// of the device the Accy runtime selected, where the generated launchers
// read and write it.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_BENCH_GPU_TENSOR_H
#define ACCY_BENCH_GPU_TENSOR_H

#include "accy/Runtime.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace bench {

int64_t numel(const std::vector<int64_t> &shape);
/// "16384x4096".
std::string shapeText(const std::vector<int64_t> &shape);

template <typename T> class Tensor {
public:
  explicit Tensor(std::vector<int64_t> shape)
      : shape_(std::move(shape)), host_(static_cast<size_t>(numel(shape_))) {}

  const std::vector<int64_t> &shape() const { return shape_; }
  std::vector<T> &host() { return host_; }
  const std::vector<T> &host() const { return host_; }
  size_t bytes() const { return host_.size() * sizeof(T); }

  /// Allocates the device copy for a result and fills it with NaN, so an
  /// element a kernel leaves unwritten fails the check.
  accy::Status allocate() {
    std::fill(host_.begin(), host_.end(),
              std::numeric_limits<T>::quiet_NaN());
    return upload();
  }
  /// Allocates the device copy and uploads the host values into it.
  accy::Status upload() {
    device_ = accy::DeviceBuffer(bytes());
    if (!device_.status().ok())
      return device_.status();
    return device_.upload(host_.data(), bytes());
  }
  /// The device copy's values, read back into `out`.
  accy::Status download(std::vector<T> &out) const {
    out.resize(host_.size());
    return device_.download(out.data(), bytes());
  }
  void *deviceData() const { return device_.data(); }

  template <size_t Rank> accy::TensorView<T, Rank> view() const {
    std::array<int64_t, Rank> sizes{};
    std::copy(shape_.begin(), shape_.end(), sizes.begin());
    return device_.view<T, Rank>(sizes);
  }

private:
  std::vector<int64_t> shape_;
  std::vector<T> host_;
  accy::DeviceBuffer device_;
};

/// Fills `values` with uniform numbers in [lo, hi), in parallel chunks
/// each with its own generator seeded from `seed`: the same seed gives the
/// same values on every machine.
void fillUniform(std::vector<float> &values, float lo, float hi,
                 uint64_t seed);
/// Class ids in [0, classes).
void fillLabels(std::vector<int32_t> &labels, int32_t classes, uint64_t seed);

} // namespace bench

#endif
