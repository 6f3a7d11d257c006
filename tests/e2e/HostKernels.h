//===- HostKernels.h - Calling host objects through the C interface -------===//
//
// Each kernel of a host object is exported as `_mlir_ciface_NAME`, taking a
// pointer to a strided memref descriptor per input, then per result (see
// docs/abi.md). Every descriptor is {allocated, aligned, offset, sizes[R],
// strides[R]} with 8-byte fields, so one generic form covers every rank.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_TESTS_E2E_HOSTKERNELS_H
#define ACCY_TESTS_E2E_HOSTKERNELS_H

#include <cstdint>
#include <random>
#include <vector>

namespace accy::e2e {

/// A dense row-major tensor of f32 (or of bool, stored one byte each).
struct Tensor {
  std::vector<int64_t> shape;
  std::vector<float> data;
  std::vector<uint8_t> bools;
  bool isBool = false;

  static Tensor zeros(std::vector<int64_t> shape, bool isBool = false);
  static Tensor random(std::vector<int64_t> shape, std::mt19937 &rng,
                       float lo = -2.f, float hi = 2.f);
  int64_t numel() const;
  std::vector<int64_t> strides() const;
  float &at(const std::vector<int64_t> &index);
  float at(const std::vector<int64_t> &index) const;
};

/// The memref descriptor of a tensor, laid out as the C interface expects.
struct Descriptor {
  explicit Descriptor(Tensor &t);
  std::vector<int64_t> words;
  void *get() { return words.data(); }
};

/// Calls a kernel's C interface with `inputs` then `outputs`.
void callKernel(void *function, std::vector<Tensor *> inputs,
                std::vector<Tensor *> outputs);

} // namespace accy::e2e

#endif
