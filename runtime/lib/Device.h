//===- Device.h - A place kernels run: the host, or a GPU driver -*- C++ -*-===//
#ifndef ACCY_RUNTIME_DEVICE_H
#define ACCY_RUNTIME_DEVICE_H

#include "accy/runtime/Kernel.h"

#include <memory>

namespace accy {

class Device {
public:
  virtual ~Device() = default;
  virtual DeviceKind kind() const = 0;
  virtual std::string name() const = 0;
  virtual Status allocate(size_t bytes, void **out) = 0;
  virtual Status release(void *pointer) = 0;
  virtual Status copyToDevice(void *device, const void *host, size_t bytes,
                              Stream stream) = 0;
  virtual Status copyToHost(void *host, const void *device, size_t bytes,
                            Stream stream) = 0;
  virtual Status synchronize(Stream stream) = 0;
  virtual DeviceProperties properties() const = 0;
  virtual Status createEvent(void **event) = 0;
  virtual Status destroyEvent(void *event) = 0;
  virtual Status recordEvent(void *event, Stream stream) = 0;
  virtual Status synchronizeEvent(void *event) = 0;
  /// Milliseconds between two events that completed.
  virtual Status elapsedMilliseconds(void *start, void *end, float *out) = 0;
  /// Runs `kernel` on arguments already checked against its signature;
  /// `symbols` are the values of the kernel summary's symbols.
  virtual Status launch(const detail::Kernel &kernel,
                        const detail::TensorArg *args, const int64_t *symbols,
                        Stream stream) = 0;
};

std::unique_ptr<Device> createHostDevice();
/// Loads libcuda.so.1 and takes device 0; an error says why it cannot.
Status createCudaDevice(std::unique_ptr<Device> &out);
/// Loads libamdhip64.so and takes device 0; an error says why it cannot.
Status createHipDevice(std::unique_ptr<Device> &out);

} // namespace accy

#endif // ACCY_RUNTIME_DEVICE_H
