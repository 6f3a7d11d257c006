//===- GpuDevice.cpp - Kernels on a GPU, through a driver table -----------===//
//
// A launch of kernel K (docs/abi.md, "To run kernel K on a GPU target"):
// load the file's image once, evaluate the launch sizes from the symbols,
// allocate the memory plan's intermediate buffers, launch every entry of the
// target's plan in order on the stream (skipping empty grids), and free the
// buffers in stream order.
//
//===----------------------------------------------------------------------===//

#include "GpuDriver.h"

#include <cstring>
#include <map>
#include <mutex>

using namespace accy;

Status accy::driverError(const GpuDriver &driver, ErrorCode code,
                         const std::string &what, int result) {
  return {code, std::string(deviceKindName(driver.kind)) + ": " + what +
                    ": " + driver.errorString(result) + " (" +
                    std::to_string(result) + ")"};
}

namespace {

struct LoadedModule {
  Status status;
  void *handle = nullptr;
  const detail::Image *image = nullptr;
  std::map<std::string, void *> functions;
};

/// The words of one kernel parameter list, and pointers to each, as
/// cuLaunchKernel/hipModuleLaunchKernel take them.
class ParameterList {
public:
  void addBuffer(void *data, int32_t rank, const int64_t *sizes,
                 const int64_t *strides) {
    uint64_t pointer = reinterpret_cast<uintptr_t>(data);
    words.insert(words.end(), {pointer, pointer, 0});
    for (int32_t i = 0; i < rank; ++i)
      words.push_back(static_cast<uint64_t>(sizes[i]));
    for (int32_t i = 0; i < rank; ++i)
      words.push_back(static_cast<uint64_t>(strides[i]));
  }
  // A smaller scalar sits in the low bytes of its word: the driver copies
  // as many bytes as the kernel's parameter has (little-endian targets).
  void addWord(uint64_t word) { words.push_back(word); }
  void **pointers() {
    addresses.clear();
    for (uint64_t &word : words)
      addresses.push_back(&word);
    return addresses.data();
  }

private:
  std::vector<uint64_t> words;
  std::vector<void *> addresses;
};

class GpuDevice final : public Device {
public:
  explicit GpuDevice(GpuDriver driver) : driver(std::move(driver)) {}

  DeviceKind kind() const override { return driver.kind; }
  std::string name() const override { return driver.description; }

  Status allocate(size_t bytes, void **out) override {
    return call("allocating " + std::to_string(bytes) + " bytes",
                [&] { return driver.memAlloc(out, bytes == 0 ? 1 : bytes); });
  }
  Status release(void *pointer) override {
    return call("freeing memory", [&] { return driver.memFree(pointer); });
  }
  Status copyToDevice(void *device, const void *host, size_t bytes,
                      Stream stream) override {
    return call("copying to the device", [&] {
      return driver.memcpyHtoDAsync(device, host, bytes, stream.handle);
    });
  }
  Status copyToHost(void *host, const void *device, size_t bytes,
                    Stream stream) override {
    return call("copying to the host", [&] {
      return driver.memcpyDtoHAsync(host, device, bytes, stream.handle);
    });
  }
  Status synchronize(Stream stream) override {
    return call("synchronizing",
                [&] { return driver.streamSynchronize(stream.handle); });
  }

  DeviceProperties properties() const override { return driver.properties; }

  Status createEvent(void **event) override {
    if (Status missing = requireEvents(); !missing.ok())
      return missing;
    return call("creating an event",
                [&] { return driver.eventCreate(event, 0); });
  }
  Status destroyEvent(void *event) override {
    if (Status missing = requireEvents(); !missing.ok())
      return missing;
    return call("destroying an event",
                [&] { return driver.eventDestroy(event); });
  }
  Status recordEvent(void *event, Stream stream) override {
    if (Status missing = requireEvents(); !missing.ok())
      return missing;
    return call("recording an event",
                [&] { return driver.eventRecord(event, stream.handle); });
  }
  Status synchronizeEvent(void *event) override {
    if (Status missing = requireEvents(); !missing.ok())
      return missing;
    return call("waiting for an event",
                [&] { return driver.eventSynchronize(event); });
  }
  Status elapsedMilliseconds(void *start, void *end, float *out) override {
    if (Status missing = requireEvents(); !missing.ok())
      return missing;
    return call("reading the time between two events", [&] {
      return driver.eventElapsedTime(out, start, end);
    });
  }

  Status launch(const detail::Kernel &kernel, const detail::TensorArg *args,
                const int64_t *symbols, Stream stream) override;

private:
  Status requireEvents() const {
    if (driver.eventCreate && driver.eventDestroy && driver.eventRecord &&
        driver.eventSynchronize && driver.eventElapsedTime)
      return {};
    return {ErrorCode::DriverError,
            std::string(deviceKindName(driver.kind)) +
                ": the driver library has no events (timing is unavailable)"};
  }

  template <typename F> Status call(const std::string &what, F &&f) {
    if (int result = driver.makeCurrent())
      return driverError(driver, ErrorCode::DriverError, "setting the device",
                         result);
    if (int result = f())
      return driverError(driver, ErrorCode::DriverError, what, result);
    return {};
  }
  LoadedModule &load(const detail::Module &module);
  Status function(LoadedModule &module, const char *name, void **out);
  Status allocateBuffers(const detail::Kernel &kernel,
                         const std::vector<int64_t> &slots,
                         std::vector<void *> &buffers, Stream stream);
  Status releaseBuffers(const std::vector<void *> &buffers, Stream stream);

  GpuDriver driver;
  std::mutex mutex;
  std::map<const detail::Module *, LoadedModule> modules;
};

} // namespace

LoadedModule &GpuDevice::load(const detail::Module &module) {
  auto [it, inserted] = modules.try_emplace(&module);
  LoadedModule &loaded = it->second;
  if (!inserted)
    return loaded;
  std::vector<const detail::Image *> candidates =
      driver.candidateImages(module);
  if (candidates.empty()) {
    std::string available;
    for (int32_t i = 0; i < module.numImages; ++i)
      available += std::string(available.empty() ? "" : ", ") +
                   module.images[i].target;
    loaded.status = {ErrorCode::NoCodeForDevice,
                     std::string(module.name) + ": no image for " +
                         driver.description + " (compiled for: " +
                         (available.empty() ? "no GPU target" : available) +
                         ")"};
    return loaded;
  }
  std::string rejected;
  for (const detail::Image *image : candidates) {
    int result = driver.moduleLoadData(&loaded.handle, image->bytes);
    if (result == 0) {
      loaded.image = image;
      loaded.status = {};
      return loaded;
    }
    rejected += std::string(rejected.empty() ? "" : "; ") + image->target +
                ": " + driver.errorString(result) + " (" +
                std::to_string(result) + ")";
  }
  loaded.status = {ErrorCode::ImageLoadFailed,
                   std::string(deviceKindName(driver.kind)) +
                       ": the driver rejected the image of " + module.name +
                       ": " + rejected};
  return loaded;
}

Status GpuDevice::function(LoadedModule &module, const char *name,
                           void **out) {
  auto it = module.functions.find(name);
  if (it != module.functions.end()) {
    *out = it->second;
    return {};
  }
  if (int result = driver.moduleGetFunction(out, module.handle, name))
    return driverError(driver, ErrorCode::ImageLoadFailed,
                       std::string("looking up kernel function ") + name,
                       result);
  module.functions.emplace(name, *out);
  return {};
}

Status GpuDevice::allocateBuffers(const detail::Kernel &kernel,
                                  const std::vector<int64_t> &slots,
                                  std::vector<void *> &buffers,
                                  Stream stream) {
  for (int32_t i = 0; i < kernel.numBuffers; ++i) {
    size_t bytes = static_cast<size_t>(slots[kernel.buffers[i].bytesSlot]);
    if (bytes == 0)
      bytes = 1; // drivers reject empty allocations
    void *pointer = nullptr;
    int result = driver.memAllocAsync
                     ? driver.memAllocAsync(&pointer, bytes, stream.handle)
                     : driver.memAlloc(&pointer, bytes);
    if (result) {
      Status error = driverError(driver, ErrorCode::DriverError,
                                 "allocating an intermediate buffer of " +
                                     std::to_string(bytes) + " bytes",
                                 result);
      (void)releaseBuffers(buffers, stream);
      return error;
    }
    buffers.push_back(pointer);
  }
  return {};
}

Status GpuDevice::releaseBuffers(const std::vector<void *> &buffers,
                                 Stream stream) {
  if (buffers.empty())
    return {};
  // Without stream-ordered frees the launches must finish first.
  if (!driver.memFreeAsync)
    if (int result = driver.streamSynchronize(stream.handle))
      return driverError(driver, ErrorCode::DriverError, "synchronizing",
                         result);
  Status status;
  for (void *pointer : buffers) {
    int result = driver.memFreeAsync
                     ? driver.memFreeAsync(pointer, stream.handle)
                     : driver.memFree(pointer);
    if (result && status.ok())
      status = driverError(driver, ErrorCode::DriverError,
                           "freeing an intermediate buffer", result);
  }
  return status;
}

Status GpuDevice::launch(const detail::Kernel &kernel,
                         const detail::TensorArg *args, const int64_t *symbols,
                         Stream stream) {
  std::lock_guard<std::mutex> lock(mutex);
  if (int result = driver.makeCurrent())
    return driverError(driver, ErrorCode::DriverError, "setting the device",
                       result);
  LoadedModule &module = load(*kernel.module);
  if (!module.status.ok())
    return module.status;
  const detail::TargetPlan *plan = nullptr;
  for (int32_t i = 0; i < kernel.numTargets; ++i)
    if (std::strcmp(kernel.targets[i].target, module.image->target) == 0)
      plan = &kernel.targets[i];
  if (!plan)
    return {ErrorCode::NoCodeForDevice,
            std::string("kernel '") + kernel.name + "' has no launch plan for " +
                module.image->target};

  std::vector<int64_t> slots(kernel.numSlots);
  kernel.evaluate(symbols, slots.data());
  std::vector<void *> buffers;
  if (Status status = allocateBuffers(kernel, slots, buffers, stream);
      !status.ok())
    return status;

  Status status;
  for (int32_t l = 0; l < plan->numLaunches && status.ok(); ++l) {
    const detail::Launch &launch = plan->launches[l];
    const int64_t *grid = &slots[launch.gridSlot];
    if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0)
      continue; // an empty tensor: nothing to write
    void *fn = nullptr;
    status = function(module, launch.function, &fn);
    if (!status.ok())
      break;
    ParameterList params;
    for (int32_t a = 0; a < launch.numArguments; ++a) {
      const detail::Argument &arg = launch.arguments[a];
      switch (arg.kind) {
      case detail::Argument::Kind::Param:
        params.addBuffer(args[arg.index].data, kernel.params[arg.index].rank,
                         args[arg.index].sizes, args[arg.index].strides);
        break;
      case detail::Argument::Kind::Buffer: {
        const detail::Buffer &buffer = kernel.buffers[arg.index];
        std::vector<int64_t> strides(buffer.rank);
        int64_t stride = 1;
        for (int32_t d = buffer.rank; d-- > 0;) {
          strides[d] = stride;
          stride *= slots[buffer.shapeSlot + d];
        }
        params.addBuffer(buffers[arg.index], buffer.rank,
                         &slots[buffer.shapeSlot], strides.data());
        break;
      }
      case detail::Argument::Kind::Index:
        params.addWord(static_cast<uint64_t>(slots[arg.index]));
        break;
      case detail::Argument::Kind::Scalar:
        params.addWord(arg.scalarBits);
        break;
      }
    }
    if (int result = driver.launchKernel(
            fn, static_cast<unsigned>(grid[0]), static_cast<unsigned>(grid[1]),
            static_cast<unsigned>(grid[2]), launch.block[0], launch.block[1],
            launch.block[2], 0, stream.handle, params.pointers(), nullptr))
      status = driverError(driver, ErrorCode::DriverError,
                           std::string("launching ") + launch.function, result);
  }
  Status released = releaseBuffers(buffers, stream);
  return status.ok() ? released : status;
}

void accy::loadGpuDriverEntries(const SharedLibrary &lib,
                                const GpuDriverSymbols &symbols,
                                GpuDriver &driver, std::string &missing) {
  lib.get(symbols.moduleLoadData, &driver.moduleLoadData, missing);
  lib.get(symbols.moduleGetFunction, &driver.moduleGetFunction, missing);
  lib.get(symbols.launchKernel, &driver.launchKernel, missing);
  lib.get(symbols.memAlloc, &driver.memAlloc, missing);
  lib.get(symbols.memFree, &driver.memFree, missing);
  lib.get(symbols.memcpyHtoDAsync, &driver.memcpyHtoDAsync, missing);
  lib.get(symbols.memcpyDtoHAsync, &driver.memcpyDtoHAsync, missing);
  lib.get(symbols.streamSynchronize, &driver.streamSynchronize, missing);
  lib.getOptional(symbols.memAllocAsync, &driver.memAllocAsync);
  lib.getOptional(symbols.memFreeAsync, &driver.memFreeAsync);
  lib.getOptional(symbols.eventCreate, &driver.eventCreate);
  lib.getOptional(symbols.eventDestroy, &driver.eventDestroy);
  lib.getOptional(symbols.eventRecord, &driver.eventRecord);
  lib.getOptional(symbols.eventSynchronize, &driver.eventSynchronize);
  lib.getOptional(symbols.eventElapsedTime, &driver.eventElapsedTime);
}

std::unique_ptr<Device> accy::createGpuDevice(GpuDriver driver) {
  return std::make_unique<GpuDevice>(std::move(driver));
}
