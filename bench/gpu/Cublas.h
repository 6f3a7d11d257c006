//===- Cublas.h - cuBLAS's SGEMM, loaded at run time ----------------------===//
//
// The yardstick for `@`: cublasSgemm on the same device buffers, in FP32
// (cuBLAS's default math mode, which never uses TF32 for SGEMM), and
// cublasGemmEx for f16 and bf16 inputs accumulated in f32. The library
// is opened with dlopen, so the benchmark builds without a CUDA toolkit and
// reports cuBLAS as unavailable where it is missing.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_BENCH_GPU_CUBLAS_H
#define ACCY_BENCH_GPU_CUBLAS_H

#include "accy/Runtime.h"

#include <cstdint>
#include <memory>
#include <string>

namespace bench {

class Cublas {
public:
  /// Opens `path`, or when empty the usual names (libcublas.so,
  /// libcublas.so.13/.12/.11, $CUDA_HOME/lib64, /usr/local/cuda/lib64), and
  /// creates a handle on the current CUDA device.
  static accy::Status load(const std::string &path,
                           std::unique_ptr<Cublas> &out);
  ~Cublas();

  /// c[m, n] = a[m, k] @ b[k, n], row-major, in device memory.
  accy::Status matmul(const float *a, const float *b, float *c, int m, int k,
                      int n);
  /// The same of f16 (or with `bf16`, bf16) bit patterns into f32, computed
  /// in f32 (cublasGemmEx with CUBLAS_COMPUTE_32F: tensor cores).
  accy::Status halfMatmul(const uint16_t *a, const uint16_t *b, float *c, int m,
                          int k, int n, bool bf16);
  /// "libcublas.so.13 (version 130000)".
  const std::string &description() const { return description_; }

  struct Api;

private:
  Cublas() = default;
  std::unique_ptr<Api> api_;
  void *handle_ = nullptr;
  std::string description_;
};

} // namespace bench

#endif
