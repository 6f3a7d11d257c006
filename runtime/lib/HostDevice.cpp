//===- HostDevice.cpp - Kernels on the CPU, through the host object -------===//
//
// The host object exports `_mlir_ciface_K(desc *...)` (docs/abi.md); the
// generated code wraps it as Kernel::host, taking one strided memref
// descriptor {allocated, aligned, offset, sizes[R], strides[R]} per
// parameter. Host "device memory" is ordinary memory.
//
//===----------------------------------------------------------------------===//

#include "Device.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

using namespace accy;

namespace {

/// A host event: when it was last recorded, if it was.
struct HostEvent {
  bool recorded = false;
  std::chrono::steady_clock::time_point time;
};

class HostDevice final : public Device {
public:
  DeviceKind kind() const override { return DeviceKind::Host; }
  std::string name() const override { return "host"; }

  Status allocate(size_t bytes, void **out) override {
    // aligned_alloc wants a multiple of the alignment.
    size_t rounded = (bytes + 255) / 256 * 256;
    *out = std::aligned_alloc(256, rounded == 0 ? 256 : rounded);
    if (!*out)
      return {ErrorCode::DriverError,
              "host: cannot allocate " + std::to_string(bytes) + " bytes"};
    return {};
  }
  Status release(void *pointer) override {
    std::free(pointer);
    return {};
  }
  Status copyToDevice(void *device, const void *host, size_t bytes,
                      Stream) override {
    std::memcpy(device, host, bytes);
    return {};
  }
  Status copyToHost(void *host, const void *device, size_t bytes,
                    Stream) override {
    std::memcpy(host, device, bytes);
    return {};
  }
  Status synchronize(Stream) override { return {}; }

  DeviceProperties properties() const override {
    DeviceProperties properties;
    properties.name = "host";
    return properties;
  }

  // Host launches finish before they return, so the clock at record() is
  // the time the queued work was done.
  Status createEvent(void **event) override {
    *event = new (std::nothrow) HostEvent();
    if (!*event)
      return {ErrorCode::DriverError, "host: cannot allocate an event"};
    return {};
  }
  Status destroyEvent(void *event) override {
    delete static_cast<HostEvent *>(event);
    return {};
  }
  Status recordEvent(void *event, Stream) override {
    auto *host = static_cast<HostEvent *>(event);
    host->recorded = true;
    host->time = std::chrono::steady_clock::now();
    return {};
  }
  Status synchronizeEvent(void *) override { return {}; }
  Status elapsedMilliseconds(void *start, void *end, float *out) override {
    auto *from = static_cast<HostEvent *>(start);
    auto *to = static_cast<HostEvent *>(end);
    if (!from->recorded || !to->recorded)
      return {ErrorCode::InvalidArgument,
              "host: elapsed time between events that were not both recorded"};
    *out = std::chrono::duration<float, std::milli>(to->time - from->time)
               .count();
    return {};
  }

  Status launch(const detail::Kernel &kernel, const detail::TensorArg *args,
                const int64_t *, Stream) override {
    if (!kernel.host)
      return {ErrorCode::NoCodeForDevice,
              std::string("kernel '") + kernel.name +
                  "' was not compiled for the host (add 'host' to the "
                  "TARGETS of accy_add_kernels)"};
    std::vector<std::vector<int64_t>> descriptors(kernel.numParams);
    std::vector<void *> pointers(kernel.numParams);
    for (int32_t i = 0; i < kernel.numParams; ++i) {
      int32_t rank = kernel.params[i].rank;
      std::vector<int64_t> &d = descriptors[i];
      int64_t data = static_cast<int64_t>(reinterpret_cast<intptr_t>(args[i].data));
      d = {data, data, 0};
      d.insert(d.end(), args[i].sizes, args[i].sizes + rank);
      d.insert(d.end(), args[i].strides, args[i].strides + rank);
      pointers[i] = d.data();
    }
    kernel.host(pointers.data());
    return {};
  }
};

} // namespace

std::unique_ptr<Device> accy::createHostDevice() {
  return std::make_unique<HostDevice>();
}
