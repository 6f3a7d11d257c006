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

/// The element types of LANGUAGE.md.
enum class Elem { F16, BF16, F32, F64, I32, I64, Bool };

const char *name(Elem elem);
bool isFloat(Elem elem);
/// Bytes per element in memory (bool: one byte, 0 or 1).
size_t byteWidth(Elem elem);
/// The nearest value of `elem` (round to nearest even; integers truncate
/// toward zero as a cast does, bool is `value != 0`).
double roundTo(Elem elem, double value);
/// The distance from 1 to the next larger value (1 for integer types).
double ulp(Elem elem);

/// A dense row-major tensor. Values are held as doubles, each exactly a
/// value of `elem`; they are stored as `elem` only across a kernel call.
struct Tensor {
  std::vector<int64_t> shape;
  Elem elem = Elem::F32;
  std::vector<double> data;

  static Tensor zeros(std::vector<int64_t> shape, Elem elem = Elem::F32);
  /// Uniform in [lo, hi): floats rounded to `elem`, integers in [lo, hi],
  /// bools 0 or 1.
  static Tensor random(std::vector<int64_t> shape, std::mt19937 &rng,
                       double lo = -2, double hi = 2, Elem elem = Elem::F32);
  int64_t numel() const;
  std::vector<int64_t> strides() const;
  double &at(const std::vector<int64_t> &index);
  double at(const std::vector<int64_t> &index) const;
};

/// Calls a kernel's C interface with `inputs` then `outputs`; the outputs'
/// shapes and element types say what the kernel writes. Throws
/// std::runtime_error when the kernel wrote into an input or outside any
/// buffer; an output element it did not write reads as all ones (NaN for
/// floats).
void callKernel(void *function, std::vector<Tensor *> inputs,
                std::vector<Tensor *> outputs);

} // namespace accy::e2e

#endif
