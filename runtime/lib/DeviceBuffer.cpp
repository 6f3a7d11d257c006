//===- DeviceBuffer.cpp - Device memory with a scope ----------------------===//

#include "accy/Runtime.h"

#include <utility>

using namespace accy;

DeviceBuffer::DeviceBuffer(size_t bytes) : size_(bytes) {
  status_ = Runtime::instance().allocate(bytes, &data_);
  if (!status_.ok())
    size_ = 0;
}

DeviceBuffer::DeviceBuffer(DeviceBuffer &&other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)), status_(std::move(other.status_)) {}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&other) noexcept {
  if (this != &other) {
    (void)Runtime::instance().release(data_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    status_ = std::move(other.status_);
  }
  return *this;
}

DeviceBuffer::~DeviceBuffer() { (void)Runtime::instance().release(data_); }

static Status checkSize(const Status &status, size_t bytes, size_t size) {
  if (!status.ok())
    return status;
  if (bytes > size)
    return {ErrorCode::InvalidArgument,
            "copy of " + std::to_string(bytes) + " bytes into a buffer of " +
                std::to_string(size)};
  return {};
}

Status DeviceBuffer::upload(const void *host, size_t bytes, Stream stream) {
  if (Status status = checkSize(status_, bytes, size_); !status.ok())
    return status;
  return Runtime::instance().copyToDevice(data_, host, bytes, stream);
}

Status DeviceBuffer::download(void *host, size_t bytes, Stream stream) const {
  if (Status status = checkSize(status_, bytes, size_); !status.ok())
    return status;
  if (Status status = Runtime::instance().copyToHost(host, data_, bytes, stream);
      !status.ok())
    return status;
  return Runtime::instance().synchronize(stream);
}
