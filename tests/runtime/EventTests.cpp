// Events and device properties on the device ACCY_DEVICE selects: ctest runs
// this on the host and on the stand-in libcuda (tests/cmake/fake-cuda),
// whose launches do nothing and whose events read the monotonic clock.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include "accy/Runtime.h"

#include <chrono>
#include <thread>

using namespace accy;

namespace {
void busyFor(std::chrono::milliseconds duration) {
  auto until = std::chrono::steady_clock::now() + duration;
  while (std::chrono::steady_clock::now() < until)
    std::this_thread::yield();
}
} // namespace

TEST_CASE("events time the work between two records") {
  REQUIRE(Runtime::instance().status().ok());
  Event start, end;
  REQUIRE(start.status().ok());
  REQUIRE(end.status().ok());
  REQUIRE(start.record().ok());
  busyFor(std::chrono::milliseconds(20));
  REQUIRE(end.record().ok());
  float ms = -1;
  REQUIRE(end.elapsedSince(start, &ms).ok());
  CHECK(ms >= 19.0f);
  CHECK(ms < 10000.0f);
  // Recording again moves the mark.
  REQUIRE(start.record().ok());
  REQUIRE(end.record().ok());
  REQUIRE(end.elapsedSince(start, &ms).ok());
  CHECK(ms < 19.0f);
}

TEST_CASE("an event that was never recorded has no elapsed time") {
  Event start, end;
  REQUIRE(end.record().ok());
  float ms = -1;
  Status status = end.elapsedSince(start, &ms);
  CHECK_FALSE(status.ok());
  CHECK(status.code() ==
        (Runtime::instance().device() == DeviceKind::Host
             ? ErrorCode::InvalidArgument
             : ErrorCode::DriverError));
}

TEST_CASE("moved events are destroyed once") {
  Event a;
  REQUIRE(a.record().ok());
  Event b = std::move(a);
  CHECK(b.status().ok());
  CHECK(b.synchronize().ok());
  a = std::move(b);
  CHECK(a.synchronize().ok());
}

TEST_CASE("the device describes itself") {
  DeviceProperties properties = Runtime::instance().properties();
  if (Runtime::instance().device() == DeviceKind::Host) {
    CHECK(properties.name == "host");
    CHECK(properties.computeCapability == 0);
    CHECK(properties.memoryClockKHz == 0);
  } else {
    // The stand-in reports compute capability 9.0 and no other attribute.
    CHECK(properties.name == "Fake CUDA device");
    CHECK(properties.computeCapability == 90);
    CHECK(properties.memoryClockKHz == 0);
    CHECK(properties.memoryBusWidthBits == 0);
  }
}
