//===- Event.cpp - A device event with a scope -----------------------------===//

#include "accy/Runtime.h"

#include <utility>

using namespace accy;

Event::Event() { status_ = Runtime::instance().createEvent(&handle_); }

Event::Event(Event &&other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)),
      status_(std::move(other.status_)) {}

Event &Event::operator=(Event &&other) noexcept {
  if (this != &other) {
    (void)Runtime::instance().destroyEvent(handle_);
    handle_ = std::exchange(other.handle_, nullptr);
    status_ = std::move(other.status_);
  }
  return *this;
}

Event::~Event() { (void)Runtime::instance().destroyEvent(handle_); }

Status Event::record(Stream stream) {
  if (!handle_)
    return status_;
  return Runtime::instance().recordEvent(handle_, stream);
}

Status Event::synchronize() const {
  if (!handle_)
    return status_;
  return Runtime::instance().synchronizeEvent(handle_);
}

Status Event::elapsedSince(const Event &start, float *milliseconds) const {
  if (!start.handle_)
    return start.status_;
  if (Status waited = synchronize(); !waited.ok())
    return waited;
  return Runtime::instance().elapsedMilliseconds(start.handle_, handle_,
                                                 milliseconds);
}
