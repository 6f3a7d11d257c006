//===- Cublas.cpp - cublasSgemm through dlopen -----------------------------===//

#include "Cublas.h"

#include <algorithm>
#include <cstdlib>
#include <dlfcn.h>
#include <vector>

using namespace bench;

// From cublas_api.h; stable across cuBLAS versions.
struct Cublas::Api {
  void *library = nullptr;
  int (*create)(void **handle) = nullptr;
  int (*destroy)(void *handle) = nullptr;
  int (*getVersion)(void *handle, int *version) = nullptr;
  int (*setMathMode)(void *handle, int mode) = nullptr;
  int (*sgemm)(void *handle, int transa, int transb, int m, int n, int k,
               const float *alpha, const float *a, int lda, const float *b,
               int ldb, const float *beta, float *c, int ldc) = nullptr;
  int (*gemmEx)(void *handle, int transa, int transb, int m, int n, int k,
                const void *alpha, const void *a, int aType, int lda,
                const void *b, int bType, int ldb, const void *beta, void *c,
                int cType, int ldc, int computeType, int algo) = nullptr;
  const char *(*statusString)(int status) = nullptr;
};

namespace {
constexpr int kOpN = 0;         // CUBLAS_OP_N
constexpr int kDefaultMath = 0; // CUBLAS_DEFAULT_MATH: no TF32 for SGEMM
// cudaDataType_t, cublasComputeType_t and cublasGemmAlgo_t (library_types.h,
// cublas_api.h).
constexpr int kR16F = 2, kR16BF = 14, kR32F = 0;
constexpr int kCompute32F = 68;
constexpr int kGemmDefault = -1;

std::vector<std::string> candidates(const std::string &path) {
  if (!path.empty())
    return {path};
  std::vector<std::string> names = {"libcublas.so", "libcublas.so.13",
                                    "libcublas.so.12", "libcublas.so.11"};
  for (const char *prefix :
       {static_cast<const char *>(std::getenv("CUDA_HOME")), "/usr/local/cuda"})
    if (prefix && *prefix &&
        std::find(names.begin(), names.end(),
                  std::string(prefix) + "/lib64/libcublas.so") == names.end())
      names.push_back(std::string(prefix) + "/lib64/libcublas.so");
  return names;
}

template <typename F> bool lookup(void *library, const char *name, F *slot) {
  *slot = reinterpret_cast<F>(dlsym(library, name));
  return *slot != nullptr;
}
} // namespace

namespace {
/// Opens one candidate library and creates a handle; an error says why not.
accy::Status open(const std::string &name, Cublas::Api &api, void **handle) {
  api.library = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!api.library) {
    const char *why = dlerror();
    return {accy::ErrorCode::DeviceUnavailable, why ? why : name};
  }
  if (!lookup(api.library, "cublasCreate_v2", &api.create) ||
      !lookup(api.library, "cublasDestroy_v2", &api.destroy) ||
      !lookup(api.library, "cublasSgemm_v2", &api.sgemm))
    return {accy::ErrorCode::DeviceUnavailable,
            name + " lacks cublasCreate_v2, cublasDestroy_v2 or "
                   "cublasSgemm_v2"};
  lookup(api.library, "cublasGemmEx", &api.gemmEx);
  lookup(api.library, "cublasGetVersion_v2", &api.getVersion);
  lookup(api.library, "cublasSetMathMode", &api.setMathMode);
  lookup(api.library, "cublasGetStatusString", &api.statusString);
  if (int status = api.create(handle)) {
    *handle = nullptr;
    return {accy::ErrorCode::DriverError,
            name + ": cublasCreate failed: " +
                std::string(api.statusString ? api.statusString(status) : "") +
                " (" + std::to_string(status) + ")"};
  }
  return {};
}
} // namespace

accy::Status Cublas::load(const std::string &path,
                          std::unique_ptr<Cublas> &out) {
  // A library built for a newer CUDA than the driver's opens but cannot
  // create a handle: go on to the next one.
  std::string tried;
  for (const std::string &name : candidates(path)) {
    std::unique_ptr<Cublas> cublas(new Cublas());
    cublas->api_ = std::make_unique<Api>();
    Api &api = *cublas->api_;
    if (accy::Status s = open(name, api, &cublas->handle_); !s.ok()) {
      tried += (tried.empty() ? "" : "; ") + s.message();
      continue;
    }
    if (api.setMathMode)
      (void)api.setMathMode(cublas->handle_, kDefaultMath);
    int version = 0;
    if (api.getVersion)
      (void)api.getVersion(cublas->handle_, &version);
    cublas->description_ = name + " (version " + std::to_string(version) + ")";
    out = std::move(cublas);
    return {};
  }
  return {accy::ErrorCode::DeviceUnavailable, "cannot use cuBLAS: " + tried};
}

Cublas::~Cublas() {
  if (handle_)
    (void)api_->destroy(handle_);
}

/// The error of cuBLAS function `name` that returned `status`, or none.
static accy::Status checked(const Cublas::Api &api, const char *name,
                            int status) {
  if (!status)
    return {};
  return {accy::ErrorCode::DriverError,
          std::string(name) + " failed: " +
              std::string(api.statusString ? api.statusString(status) : "") +
              " (" + std::to_string(status) + ")"};
}

accy::Status Cublas::matmul(const float *a, const float *b, float *c, int m,
                            int k, int n) {
  // Row-major C = A B is column-major C^T = B^T A^T: swap the operands.
  const float alpha = 1, beta = 0;
  return checked(*api_, "cublasSgemm",
                 api_->sgemm(handle_, kOpN, kOpN, n, m, k, &alpha, b, n, a, k,
                             &beta, c, n));
}

accy::Status Cublas::halfMatmul(const uint16_t *a, const uint16_t *b, float *c,
                                int m, int k, int n, bool bf16) {
  if (!api_->gemmEx)
    return {accy::ErrorCode::DeviceUnavailable,
            description_ + " lacks cublasGemmEx"};
  const float alpha = 1, beta = 0;
  int type = bf16 ? kR16BF : kR16F;
  return checked(*api_, "cublasGemmEx",
                 api_->gemmEx(handle_, kOpN, kOpN, n, m, k, &alpha, b, type, n,
                              a, type, k, &beta, c, kR32F, n, kCompute32F,
                              kGemmDefault));
}
