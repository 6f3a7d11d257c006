//===- HipDriver.cpp - HIP's module API, loaded at run time ---------------===//
//
// libamdhip64.so is opened with dlopen, never linked. An AMDGPU code object
// runs only on its exact architecture: the driver is offered each gfx image
// and rejects those for another chip.
//
//===----------------------------------------------------------------------===//

#include "GpuDriver.h"

using namespace accy;

namespace {
struct HipApi {
  int (*init)(unsigned) = nullptr;
  int (*setDevice)(int) = nullptr;
  int (*getDeviceCount)(int *) = nullptr;
  int (*deviceGetName)(char *, int, int) = nullptr;
  const char *(*getErrorString)(int) = nullptr;
};
} // namespace

Status accy::createHipDevice(std::unique_ptr<Device> &out) {
  SharedLibrary lib;
  std::string error;
  if (!SharedLibrary::open({"libamdhip64.so", "libamdhip64.so.6",
                            "libamdhip64.so.5"},
                           lib, error))
    return {ErrorCode::DeviceUnavailable,
            "hip: cannot load HIP (libamdhip64.so): " + error};

  HipApi api;
  GpuDriver driver;
  driver.kind = DeviceKind::Hip;
  std::string missing;
  lib.get("hipInit", &api.init, missing);
  lib.get("hipSetDevice", &api.setDevice, missing);
  lib.get("hipGetDeviceCount", &api.getDeviceCount, missing);
  lib.get("hipGetErrorString", &api.getErrorString, missing);
  lib.getOptional("hipDeviceGetName", &api.deviceGetName);
  loadGpuDriverEntries(lib,
                       {"hipModuleLoadData", "hipModuleGetFunction",
                        "hipModuleLaunchKernel", "hipMalloc", "hipFree",
                        "hipMemcpyHtoDAsync", "hipMemcpyDtoHAsync",
                        "hipStreamSynchronize", "hipMallocAsync",
                        "hipFreeAsync", "hipEventCreateWithFlags",
                        "hipEventDestroy", "hipEventRecord",
                        "hipEventSynchronize", "hipEventElapsedTime"},
                       driver, missing);
  if (!missing.empty())
    return {ErrorCode::DeviceUnavailable,
            "hip: " + lib.path() + " lacks " + missing};

  driver.errorString = [getErrorString = api.getErrorString](int result) {
    const char *text = getErrorString(result);
    return std::string(text ? text : "unknown HIP error");
  };
  auto fail = [&](const std::string &what, int result) {
    return driverError(driver, ErrorCode::DeviceUnavailable, what, result);
  };
  if (int result = api.init(0))
    return fail("hipInit", result);
  int count = 0;
  if (int result = api.getDeviceCount(&count))
    return fail("counting devices", result);
  if (count == 0)
    return {ErrorCode::DeviceUnavailable, "hip: no AMD GPU found"};
  char name[256] = "AMD GPU";
  if (api.deviceGetName)
    (void)api.deviceGetName(name, sizeof name, 0);
  driver.description = "hip: " + std::string(name);
  driver.properties.name = name;
  driver.makeCurrent = [setDevice = api.setDevice] { return setDevice(0); };
  driver.candidateImages = [](const detail::Module &module) {
    std::vector<const detail::Image *> images;
    for (int32_t i = 0; i < module.numImages; ++i)
      if (module.images[i].format == detail::ImageFormat::Hsaco)
        images.push_back(&module.images[i]);
    return images;
  };
  out = createGpuDevice(std::move(driver));
  return {};
}
