//===- GpuDriver.h - The CUDA driver or HIP, as one table -------*- C++ -*-===//
//
// The CUDA driver API and HIP's module API have the same shape: load an
// image, look up a function, launch it with a grid, a block, a stream and a
// `void **` of parameters. GpuDevice is written once against this table;
// CudaDriver.cpp and HipDriver.cpp fill it from the library they dlopen.
// Every entry returns the driver's status code (0 is success).
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_RUNTIME_GPUDRIVER_H
#define ACCY_RUNTIME_GPUDRIVER_H

#include "Device.h"

#include <functional>
#include <vector>

namespace accy {

struct GpuDriver {
  DeviceKind kind;
  /// "cuda: <device name> (sm_90)".
  std::string description;
  /// What the driver reports about the device (zeros where it does not).
  DeviceProperties properties;
  /// Makes the device current on the calling thread.
  std::function<int()> makeCurrent;
  /// The images of a module this device may load, best first; the first
  /// one the driver accepts is used.
  std::function<std::vector<const detail::Image *>(const detail::Module &)>
      candidateImages;
  std::function<std::string(int)> errorString;

  int (*moduleLoadData)(void **module, const void *image) = nullptr;
  int (*moduleGetFunction)(void **function, void *module,
                           const char *name) = nullptr;
  int (*launchKernel)(void *function, unsigned gridX, unsigned gridY,
                      unsigned gridZ, unsigned blockX, unsigned blockY,
                      unsigned blockZ, unsigned sharedBytes, void *stream,
                      void **params, void **extra) = nullptr;
  int (*memAlloc)(void **pointer, size_t bytes) = nullptr;
  int (*memFree)(void *pointer) = nullptr;
  /// Stream-ordered allocation; null where the driver is too old.
  int (*memAllocAsync)(void **pointer, size_t bytes, void *stream) = nullptr;
  int (*memFreeAsync)(void *pointer, void *stream) = nullptr;
  int (*memcpyHtoDAsync)(void *device, const void *host, size_t bytes,
                         void *stream) = nullptr;
  int (*memcpyDtoHAsync)(void *host, const void *device, size_t bytes,
                         void *stream) = nullptr;
  int (*streamSynchronize)(void *stream) = nullptr;
  /// Events, for timing; null where the library lacks them (every CUDA
  /// driver and HIP has them, but a missing one only disables timing).
  int (*eventCreate)(void **event, unsigned flags) = nullptr;
  int (*eventDestroy)(void *event) = nullptr;
  int (*eventRecord)(void *event, void *stream) = nullptr;
  int (*eventSynchronize)(void *event) = nullptr;
  int (*eventElapsedTime)(float *milliseconds, void *start,
                          void *end) = nullptr;
};

/// An open shared library; closes nothing (drivers stay loaded for the
/// life of the process, as their own at-exit handlers expect).
class SharedLibrary {
public:
  /// Opens the first of `names` that loads; `error` says why none did.
  static bool open(std::initializer_list<const char *> names,
                   SharedLibrary &out, std::string &error);
  /// Looks up `name` into `*slot`; false (and `missing` names it) if absent.
  template <typename F> bool get(const char *name, F *slot,
                                 std::string &missing) const {
    *slot = reinterpret_cast<F>(lookup(name));
    if (!*slot)
      missing += std::string(missing.empty() ? "" : ", ") + name;
    return *slot != nullptr;
  }
  template <typename F> void getOptional(const char *name, F *slot) const {
    *slot = reinterpret_cast<F>(lookup(name));
  }
  const std::string &path() const { return name; }

private:
  void *lookup(const char *symbol) const;
  void *handle = nullptr;
  std::string name;
};

/// What the driver calls each entry of GpuDriver's table.
struct GpuDriverSymbols {
  const char *moduleLoadData, *moduleGetFunction, *launchKernel, *memAlloc,
      *memFree, *memcpyHtoDAsync, *memcpyDtoHAsync, *streamSynchronize;
  /// Optional (newer drivers).
  const char *memAllocAsync, *memFreeAsync;
  /// Optional: without them only the Runtime's event calls fail.
  const char *eventCreate, *eventDestroy, *eventRecord, *eventSynchronize,
      *eventElapsedTime;
};

/// Fills the table's entry points from `lib`; appends the names of absent
/// required ones to `missing`.
void loadGpuDriverEntries(const SharedLibrary &lib,
                          const GpuDriverSymbols &symbols, GpuDriver &driver,
                          std::string &missing);

/// A device over a loaded driver table.
std::unique_ptr<Device> createGpuDevice(GpuDriver driver);

/// Status of a failed driver call: "<what>: <driver message> (<code>)".
Status driverError(const GpuDriver &driver, ErrorCode code,
                   const std::string &what, int result);

} // namespace accy

#endif // ACCY_RUNTIME_GPUDRIVER_H
