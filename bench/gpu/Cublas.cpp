//===- Cublas.cpp - cublasSgemm through dlopen -----------------------------===//

#include "Cublas.h"

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
  const char *(*statusString)(int status) = nullptr;
};

namespace {
constexpr int kOpN = 0;         // CUBLAS_OP_N
constexpr int kDefaultMath = 0; // CUBLAS_DEFAULT_MATH: no TF32 for SGEMM

std::vector<std::string> candidates(const std::string &path) {
  if (!path.empty())
    return {path};
  std::vector<std::string> names = {"libcublas.so", "libcublas.so.13",
                                    "libcublas.so.12", "libcublas.so.11"};
  for (const char *prefix :
       {static_cast<const char *>(std::getenv("CUDA_HOME")), "/usr/local/cuda"})
    if (prefix && *prefix)
      names.push_back(std::string(prefix) + "/lib64/libcublas.so");
  return names;
}

template <typename F> bool lookup(void *library, const char *name, F *slot) {
  *slot = reinterpret_cast<F>(dlsym(library, name));
  return *slot != nullptr;
}
} // namespace

accy::Status Cublas::load(const std::string &path,
                          std::unique_ptr<Cublas> &out) {
  auto api = std::make_unique<Api>();
  std::string tried, opened;
  for (const std::string &name : candidates(path)) {
    api->library = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (api->library) {
      opened = name;
      break;
    }
    const char *why = dlerror();
    tried += (tried.empty() ? "" : "; ") + std::string(why ? why : name);
  }
  if (!api->library)
    return {accy::ErrorCode::DeviceUnavailable, "cannot load cuBLAS: " + tried};
  if (!lookup(api->library, "cublasCreate_v2", &api->create) ||
      !lookup(api->library, "cublasDestroy_v2", &api->destroy) ||
      !lookup(api->library, "cublasSgemm_v2", &api->sgemm))
    return {accy::ErrorCode::DeviceUnavailable,
            opened + " lacks cublasCreate_v2, cublasDestroy_v2 or "
                     "cublasSgemm_v2"};
  lookup(api->library, "cublasGetVersion_v2", &api->getVersion);
  lookup(api->library, "cublasSetMathMode", &api->setMathMode);
  lookup(api->library, "cublasGetStatusString", &api->statusString);

  std::unique_ptr<Cublas> cublas(new Cublas());
  cublas->api_ = std::move(api);
  Api &a = *cublas->api_;
  if (int status = a.create(&cublas->handle_)) {
    cublas->handle_ = nullptr;
    return {accy::ErrorCode::DriverError,
            "cublasCreate failed: " +
                std::string(a.statusString ? a.statusString(status) : "") +
                " (" + std::to_string(status) + ")"};
  }
  if (a.setMathMode)
    (void)a.setMathMode(cublas->handle_, kDefaultMath);
  int version = 0;
  if (a.getVersion)
    (void)a.getVersion(cublas->handle_, &version);
  cublas->description_ = opened + " (version " + std::to_string(version) + ")";
  out = std::move(cublas);
  return {};
}

Cublas::~Cublas() {
  if (handle_)
    (void)api_->destroy(handle_);
}

accy::Status Cublas::matmul(const float *a, const float *b, float *c, int m,
                            int k, int n) {
  // Row-major C = A B is column-major C^T = B^T A^T: swap the operands.
  const float alpha = 1, beta = 0;
  if (int status = api_->sgemm(handle_, kOpN, kOpN, n, m, k, &alpha, b, n, a,
                               k, &beta, c, n))
    return {accy::ErrorCode::DriverError,
            "cublasSgemm failed: " +
                std::string(api_->statusString ? api_->statusString(status)
                                               : "") +
                " (" + std::to_string(status) + ")"};
  return {};
}
