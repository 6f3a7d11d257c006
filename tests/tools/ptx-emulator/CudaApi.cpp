//===- CudaApi.cpp - The CUDA driver API entry points ---------------------===//
//
// What libcuda.so.1 exports and Accy's runtime looks up (runtime/lib/
// CudaDriver.cpp): one device of compute capability 9.0, "Accy PTX
// emulator", whose memory is host memory (device pointers are host
// addresses) and whose cuLaunchKernel runs the kernel to completion by
// interpreting the PTX given to cuModuleLoadData. Streams are synchronous;
// events read the monotonic clock (launch times mean nothing). Errors are
// the driver's codes, with a message on stderr saying what went wrong.
//
//===----------------------------------------------------------------------===//
#include "Profile.h"
#include "Program.h"
#include "Scheduler.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <vector>

using namespace ptxemu;

namespace {

enum : int {
  kSuccess = 0,
  kInvalidValue = 1,
  kOutOfMemory = 2,
  kInvalidPtx = 218,
  kNotFound = 500,
  kLaunchFailed = 719,
};

struct Module {
  std::unique_ptr<Program> program;
};

struct Event {
  bool recorded = false;
  std::chrono::steady_clock::time_point time;
};

void report(const char *what, const std::string &message) {
  std::fprintf(stderr, "ptx-emulator: %s: %s\n", what, message.c_str());
}

/// The device's L2 model, shared by the launches of the process: warm from
/// one launch to the next, emptied by every allocation, free and copy, so
/// a kernel call starts cold (its inputs were just copied from the host)
/// and its launches share what they leave there, as on a GPU.
struct DeviceL2 {
  std::mutex mutex;
  SectorCache model{kH200L2Bytes};
};
DeviceL2 &deviceL2() {
  static DeviceL2 l2;
  return l2;
}
void forgetL2() {
  DeviceL2 &l2 = deviceL2();
  std::lock_guard<std::mutex> lock(l2.mutex);
  l2.model.clear();
}

/// Appends one launch's counters as a line of JSON to `path`
/// (ACCY_PTX_EMULATOR_PROFILE); a file that cannot be written fails the
/// launch rather than losing the figures.
bool appendProfile(const char *path, const std::string &line) {
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  std::FILE *file = std::fopen(path, "a");
  bool ok = file && std::fprintf(file, "%s\n", line.c_str()) > 0;
  if (file)
    ok &= std::fclose(file) == 0;
  if (!ok)
    report("cuLaunchKernel", std::string("cannot append the launch's "
                                         "counters to ") +
                                 path + " (ACCY_PTX_EMULATOR_PROFILE)");
  return ok;
}

} // namespace

#define API extern "C" __attribute__((visibility("default")))

API int cuInit(unsigned flags) {
  (void)flags;
  return kSuccess;
}

API int cuDeviceGet(int *device, int ordinal) {
  if (!device || ordinal != 0)
    return kInvalidValue;
  *device = 0;
  return kSuccess;
}

API int cuDeviceGetCount(int *count) {
  if (!count)
    return kInvalidValue;
  *count = 1;
  return kSuccess;
}

API int cuDeviceGetAttribute(int *value, int attribute, int device) {
  (void)device;
  if (!value)
    return kInvalidValue;
  switch (attribute) {
  case 1: *value = 1024; break;           // max threads per block
  case 2: *value = 1024; break;           // max block dim x
  case 3: *value = 1024; break;           // y
  case 4: *value = 64; break;             // z
  case 5: *value = 2147483647; break;     // max grid dim x
  case 6: case 7: *value = 65535; break;  // y, z
  case 8: *value = 49152; break;          // shared memory per block
  case 10: *value = 32; break;            // warp size
  case 16: *value = 132; break;           // multiprocessors
  case 75: *value = 9; break;             // compute capability major
  case 76: *value = 0; break;             // minor
  case 97: *value = 232448; break;        // max shared memory per block (opt-in)
  default: *value = 0; break;             // not modelled (memory clock, ...)
  }
  return kSuccess;
}

API int cuDeviceGetName(char *name, int length, int device) {
  (void)device;
  if (!name || length <= 0)
    return kInvalidValue;
  std::snprintf(name, static_cast<size_t>(length), "Accy PTX emulator");
  return kSuccess;
}

API int cuDevicePrimaryCtxRetain(void **context, int device) {
  (void)device;
  static int token;
  if (!context)
    return kInvalidValue;
  *context = &token;
  return kSuccess;
}

API int cuCtxSetCurrent(void *context) {
  (void)context;
  return kSuccess;
}

API int cuGetErrorString(int error, const char **text) {
  if (!text)
    return kInvalidValue;
  switch (error) {
  case kSuccess: *text = "no error"; break;
  case kInvalidValue: *text = "invalid argument (CUDA_ERROR_INVALID_VALUE)"; break;
  case kOutOfMemory: *text = "out of memory (CUDA_ERROR_OUT_OF_MEMORY)"; break;
  case kInvalidPtx:
    *text = "a PTX JIT compilation failed (CUDA_ERROR_INVALID_PTX; the "
            "emulator's message is on stderr)";
    break;
  case kNotFound: *text = "named symbol not found (CUDA_ERROR_NOT_FOUND)"; break;
  case kLaunchFailed:
    *text = "unspecified launch failure (CUDA_ERROR_LAUNCH_FAILED; the "
            "emulator's message is on stderr)";
    break;
  default: *text = "unknown error"; return kInvalidValue;
  }
  return kSuccess;
}

API int cuModuleLoadData(void **module, const void *image) {
  if (!module || !image)
    return kInvalidValue;
  std::string error;
  std::unique_ptr<Program> program =
      loadProgram(static_cast<const char *>(image), error);
  if (!program) {
    report("cuModuleLoadData", error + " (CUDA_ERROR_INVALID_PTX)");
    return kInvalidPtx;
  }
  *module = new Module{std::move(program)};
  return kSuccess;
}

API int cuModuleUnload(void *module) {
  delete static_cast<Module *>(module);
  return kSuccess;
}

API int cuModuleGetFunction(void **function, void *module, const char *name) {
  if (!function || !module || !name)
    return kInvalidValue;
  const Entry *entry = static_cast<Module *>(module)->program->find(name);
  if (!entry)
    return kNotFound;
  *function = const_cast<Entry *>(entry);
  return kSuccess;
}

API int cuLaunchKernel(void *function, unsigned gx, unsigned gy, unsigned gz,
                       unsigned bx, unsigned by, unsigned bz, unsigned shared,
                       void *stream, void **params, void **extra) {
  (void)stream;
  if (!function)
    return kInvalidValue;
  const Entry &entry = *static_cast<const Entry *>(function);
  if (!params && !entry.params.empty()) {
    report("cuLaunchKernel",
           entry.name + ": kernelParams is null (the 'extra' form is not "
                        "supported)");
    return kInvalidValue;
  }
  (void)extra;
  std::vector<uint8_t> buffer(entry.paramBytes + 8);
  for (size_t i = 0; i < entry.params.size(); ++i)
    std::memcpy(buffer.data() + entry.params[i].offset, params[i],
                entry.params[i].size);
  LaunchConfig config;
  config.grid[0] = gx;
  config.grid[1] = gy;
  config.grid[2] = gz;
  config.block[0] = bx;
  config.block[1] = by;
  config.block[2] = bz;
  config.dynamicShared = shared;
  std::string error;
  const char *profilePath = std::getenv("ACCY_PTX_EMULATOR_PROFILE");
  std::unique_ptr<LaunchProfile> profile;
  if (profilePath && *profilePath)
    profile = std::make_unique<LaunchProfile>(uint64_t(gx) * gy * gz);
  if (!runGrid(entry, config, buffer.data(), error, profile.get())) {
    report("cuLaunchKernel", error + " (CUDA_ERROR_LAUNCH_FAILED)");
    return kLaunchFailed;
  }
  if (!profile)
    return kSuccess;
  DeviceL2 &l2 = deviceL2();
  std::unique_lock<std::mutex> lock(l2.mutex);
  LaunchCounters counters = profile->finish(l2.model);
  lock.unlock();
  if (!appendProfile(profilePath,
                     counters.toJson(entry, config.grid, config.block,
                                     config.dynamicShared)))
    return kLaunchFailed;
  return kSuccess;
}

API int cuMemAlloc_v2(void **pointer, size_t bytes) {
  if (!pointer)
    return kInvalidValue;
  forgetL2();
  size_t rounded = (bytes + 255) / 256 * 256;
  *pointer = std::aligned_alloc(256, rounded ? rounded : 256);
  if (!*pointer)
    return kOutOfMemory;
  // Fresh device memory is not zero: all ones (NaN for floats) shows a
  // kernel that reads what nothing wrote.
  std::memset(*pointer, 0xff, rounded);
  return kSuccess;
}

API int cuMemFree_v2(void *pointer) {
  forgetL2();
  std::free(pointer);
  return kSuccess;
}

API int cuMemAllocAsync(void **pointer, size_t bytes, void *stream) {
  (void)stream;
  return cuMemAlloc_v2(pointer, bytes);
}

API int cuMemFreeAsync(void *pointer, void *stream) {
  (void)stream;
  return cuMemFree_v2(pointer);
}

API int cuMemcpyHtoDAsync_v2(void *device, const void *host, size_t bytes,
                             void *stream) {
  (void)stream;
  if (bytes && (!device || !host))
    return kInvalidValue;
  forgetL2();
  std::memcpy(device, host, bytes);
  return kSuccess;
}

API int cuMemcpyDtoHAsync_v2(void *host, const void *device, size_t bytes,
                             void *stream) {
  (void)stream;
  if (bytes && (!device || !host))
    return kInvalidValue;
  forgetL2();
  std::memcpy(host, device, bytes);
  return kSuccess;
}

API int cuStreamSynchronize(void *stream) {
  (void)stream;
  return kSuccess;
}

API int cuEventCreate(void **event, unsigned flags) {
  (void)flags;
  if (!event)
    return kInvalidValue;
  *event = new (std::nothrow) Event;
  return *event ? kSuccess : kOutOfMemory;
}

API int cuEventDestroy_v2(void *event) {
  delete static_cast<Event *>(event);
  return kSuccess;
}

API int cuEventRecord(void *event, void *stream) {
  (void)stream;
  if (!event)
    return kInvalidValue;
  auto *e = static_cast<Event *>(event);
  e->recorded = true;
  e->time = std::chrono::steady_clock::now();
  return kSuccess;
}

API int cuEventSynchronize(void *event) {
  (void)event;
  return kSuccess;
}

API int cuEventElapsedTime(float *milliseconds, void *start, void *end) {
  auto *a = static_cast<Event *>(start), *b = static_cast<Event *>(end);
  if (!milliseconds || !a || !b || !a->recorded || !b->recorded)
    return kInvalidValue;
  *milliseconds =
      std::chrono::duration<float, std::milli>(b->time - a->time).count();
  return kSuccess;
}
