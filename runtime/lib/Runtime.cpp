//===- Runtime.cpp - Choosing the device from ACCY_DEVICE -----------------===//

#include "Device.h"

#include <cstdlib>
#include <string>

using namespace accy;

namespace {
/// The device ACCY_DEVICE asks for; an error status names a bad value or a
/// device that cannot be used.
Status selectDevice(std::unique_ptr<Device> &out) {
  const char *env = std::getenv("ACCY_DEVICE");
  std::string request = env && *env ? env : "auto";
  if (request == "host") {
    out = createHostDevice();
    return {};
  }
  if (request == "cuda")
    return createCudaDevice(out);
  if (request == "hip")
    return createHipDevice(out);
  if (request != "auto")
    return {ErrorCode::DeviceUnavailable,
            "ACCY_DEVICE='" + request +
                "' is not a device (expected auto, host, cuda or hip)"};
  // auto: the first GPU whose driver loads, else the host.
  if (createCudaDevice(out).ok() || createHipDevice(out).ok())
    return {};
  out = createHostDevice();
  return {};
}
} // namespace

Runtime::Runtime() {
  std::unique_ptr<Device> device;
  status_ = selectDevice(device);
  if (status_.ok())
    device_ = device.release();
}

Runtime::~Runtime() { delete device_; }

Runtime &Runtime::instance() {
  // Never destroyed: GPU drivers tear themselves down at exit, and a
  // destructor running after them would call into a dead driver.
  static Runtime *runtime = new Runtime();
  return *runtime;
}

DeviceKind Runtime::device() const {
  return device_ ? device_->kind() : DeviceKind::Host;
}

std::string Runtime::deviceName() const {
  return device_ ? device_->name() : "none (" + status_.message() + ")";
}

Status Runtime::allocate(size_t bytes, void **out) {
  *out = nullptr;
  return device_ ? device_->allocate(bytes, out) : status_;
}

Status Runtime::release(void *pointer) {
  if (!pointer)
    return {};
  return device_ ? device_->release(pointer) : status_;
}

Status Runtime::copyToDevice(void *device, const void *host, size_t bytes,
                             Stream stream) {
  return device_ ? device_->copyToDevice(device, host, bytes, stream)
                 : status_;
}

Status Runtime::copyToHost(void *host, const void *device, size_t bytes,
                           Stream stream) {
  return device_ ? device_->copyToHost(host, device, bytes, stream) : status_;
}

Status Runtime::synchronize(Stream stream) {
  return device_ ? device_->synchronize(stream) : status_;
}

DeviceProperties Runtime::properties() const {
  return device_ ? device_->properties() : DeviceProperties{};
}

Status Runtime::createEvent(void **event) {
  *event = nullptr;
  return device_ ? device_->createEvent(event) : status_;
}

Status Runtime::destroyEvent(void *event) {
  if (!event)
    return {};
  return device_ ? device_->destroyEvent(event) : status_;
}

Status Runtime::recordEvent(void *event, Stream stream) {
  return device_ ? device_->recordEvent(event, stream) : status_;
}

Status Runtime::synchronizeEvent(void *event) {
  return device_ ? device_->synchronizeEvent(event) : status_;
}

Status Runtime::elapsedMilliseconds(void *start, void *end, float *out) {
  return device_ ? device_->elapsedMilliseconds(start, end, out) : status_;
}
