//===- CudaDriver.cpp - The CUDA driver API, loaded at run time -----------===//
//
// libcuda.so.1 is opened with dlopen, never linked, so a program built with
// Accy starts on machines without NVIDIA's driver. PTX is JIT-compiled by
// the driver (cuModuleLoadData); the image for the newest sm_XX the device
// supports is preferred.
//
//===----------------------------------------------------------------------===//

#include "GpuDriver.h"

#include <algorithm>
#include <cstdlib>
#include <utility>

using namespace accy;

namespace {
// From cuda.h; the driver API's values are stable across versions.
constexpr int kComputeCapabilityMajor = 75;
constexpr int kComputeCapabilityMinor = 76;
constexpr int kMultiprocessorCount = 16;
constexpr int kMemoryClockRate = 36;      // kHz
constexpr int kGlobalMemoryBusWidth = 37; // bits

struct CudaApi {
  int (*init)(unsigned) = nullptr;
  int (*deviceGet)(int *, int) = nullptr;
  int (*deviceGetAttribute)(int *, int, int) = nullptr;
  int (*deviceGetName)(char *, int, int) = nullptr;
  int (*primaryCtxRetain)(void **, int) = nullptr;
  int (*ctxSetCurrent)(void *) = nullptr;
  int (*getErrorString)(int, const char **) = nullptr;
};

/// 90 for "sm_90"; -1 for anything else.
int smVersion(const char *target) {
  std::string name(target);
  if (name.rfind("sm_", 0) != 0)
    return -1;
  return std::atoi(name.c_str() + 3);
}
} // namespace

Status accy::createCudaDevice(std::unique_ptr<Device> &out) {
  SharedLibrary lib;
  std::string error;
  if (!SharedLibrary::open({"libcuda.so.1", "libcuda.so"}, lib, error))
    return {ErrorCode::DeviceUnavailable,
            "cuda: cannot load the CUDA driver (libcuda.so.1): " + error};

  CudaApi api;
  GpuDriver driver;
  driver.kind = DeviceKind::Cuda;
  std::string missing;
  lib.get("cuInit", &api.init, missing);
  lib.get("cuDeviceGet", &api.deviceGet, missing);
  lib.get("cuDeviceGetAttribute", &api.deviceGetAttribute, missing);
  lib.get("cuDeviceGetName", &api.deviceGetName, missing);
  lib.get("cuDevicePrimaryCtxRetain", &api.primaryCtxRetain, missing);
  lib.get("cuCtxSetCurrent", &api.ctxSetCurrent, missing);
  lib.get("cuGetErrorString", &api.getErrorString, missing);
  loadGpuDriverEntries(lib,
                       {"cuModuleLoadData", "cuModuleGetFunction",
                        "cuLaunchKernel", "cuMemAlloc_v2", "cuMemFree_v2",
                        "cuMemcpyHtoDAsync_v2", "cuMemcpyDtoHAsync_v2",
                        "cuStreamSynchronize", "cuMemAllocAsync",
                        "cuMemFreeAsync", "cuEventCreate", "cuEventDestroy_v2",
                        "cuEventRecord", "cuEventSynchronize",
                        "cuEventElapsedTime"},
                       driver, missing);
  if (!missing.empty())
    return {ErrorCode::DeviceUnavailable,
            "cuda: " + lib.path() + " lacks " + missing};

  driver.errorString = [getErrorString = api.getErrorString](int result) {
    const char *text = nullptr;
    if (getErrorString(result, &text) != 0 || !text)
      return std::string("unknown CUDA error");
    return std::string(text);
  };
  auto fail = [&](const std::string &what, int result) {
    return driverError(driver, ErrorCode::DeviceUnavailable, what, result);
  };
  if (int result = api.init(0))
    return fail("cuInit", result);
  int device = 0;
  if (int result = api.deviceGet(&device, 0))
    return fail("no CUDA device", result);
  int major = 0, minor = 0;
  for (auto [value, attribute] : {std::pair{&major, kComputeCapabilityMajor},
                                  std::pair{&minor, kComputeCapabilityMinor}})
    if (int result = api.deviceGetAttribute(value, attribute, device))
      return fail("reading the compute capability", result);
  void *context = nullptr;
  if (int result = api.primaryCtxRetain(&context, device))
    return fail("retaining the primary context", result);
  char name[256] = "CUDA device";
  (void)api.deviceGetName(name, sizeof name, device);

  int capability = major * 10 + minor;
  driver.description = "cuda: " + std::string(name) + " (sm_" +
                       std::to_string(capability) + ")";
  DeviceProperties &properties = driver.properties;
  properties.name = name;
  properties.computeCapability = capability;
  // Informative only: an attribute the driver does not report stays 0.
  int clockKHz = 0;
  for (auto [value, attribute] :
       {std::pair{&properties.multiprocessors, kMultiprocessorCount},
        std::pair{&clockKHz, kMemoryClockRate},
        std::pair{&properties.memoryBusWidthBits, kGlobalMemoryBusWidth}})
    if (api.deviceGetAttribute(value, attribute, device) != 0)
      *value = 0;
  properties.memoryClockKHz = clockKHz;
  driver.makeCurrent = [setCurrent = api.ctxSetCurrent, context] {
    return setCurrent(context);
  };
  // PTX for sm_XX runs on devices of capability XX and later.
  driver.candidateImages = [capability](const detail::Module &module) {
    std::vector<const detail::Image *> images;
    for (int32_t i = 0; i < module.numImages; ++i) {
      const detail::Image &image = module.images[i];
      int sm = smVersion(image.target);
      if (image.format == detail::ImageFormat::Ptx && sm > 0 &&
          sm <= capability)
        images.push_back(&image);
    }
    std::sort(images.begin(), images.end(), [](auto *a, auto *b) {
      return smVersion(a->target) > smVersion(b->target);
    });
    return images;
  };
  out = createGpuDevice(std::move(driver));
  return {};
}
