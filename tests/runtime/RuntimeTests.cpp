// The runtime against a hand-written registration table (what accyc writes
// into NAME.accy.cpp) for `kernel k(in0: f32[N, 4], in1: f32[N]) -> f32[N]`,
// whose host code computes out0[i] = sum(in0[i, :]) + in1[i].
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include "accy/runtime/Kernel.h"

#include <vector>

using namespace accy;

namespace {

int hostCalls = 0;

/// The host entry: a strided memref descriptor per parameter.
void hostEntry(void *const *descriptors) {
  ++hostCalls;
  auto *in0 = static_cast<const int64_t *>(descriptors[0]);
  auto *in1 = static_cast<const int64_t *>(descriptors[1]);
  auto *out = static_cast<const int64_t *>(descriptors[2]);
  auto *x = reinterpret_cast<const float *>(in0[1]);
  auto *y = reinterpret_cast<const float *>(in1[1]);
  auto *z = reinterpret_cast<float *>(out[1]);
  for (int64_t i = 0; i < in0[3]; ++i) {
    z[i] = y[i];
    for (int64_t j = 0; j < in0[4]; ++j)
      z[i] += x[i * in0[5] + j * in0[6]];
  }
}

void noEvaluate(const int64_t *, int64_t *) {}

const detail::Dim kDims0[] = {{-1, 0}, {4, 0}};
const detail::Dim kDims1[] = {{-1, 0}};
const detail::Param kParams[] = {{"in0", ElementType::F32, 2, kDims0, false},
                                 {"in1", ElementType::F32, 1, kDims1, false},
                                 {"out0", ElementType::F32, 1, kDims1, true}};
const char *const kDimNames[] = {"N"};
const detail::SymbolRef kSymbols[] = {{0, 0}, {1, 0}, {2, 0}};
extern const detail::Module kModule;
const detail::Kernel kKernel = {"k",      &kModule,   kParams,  3,
                                kDimNames, 1,         kSymbols, 3,
                                nullptr,  0,          nullptr,  0,
                                noEvaluate, 0,        hostEntry};
const detail::Kernel kNoHost = {"gpu_only", &kModule,  kParams,  3,
                                kDimNames,  1,         kSymbols, 3,
                                nullptr,    0,         nullptr,  0,
                                noEvaluate, 0,         nullptr};
const detail::Kernel *const kKernels[] = {&kKernel, &kNoHost};
const detail::Module kModule = {"test", nullptr, 0, kKernels, 2};

struct Call {
  alignas(16) float x[16] = {};
  alignas(16) float y[8] = {};
  alignas(16) float z[8] = {};
  std::vector<int64_t> sizes0 = {2, 4}, strides0 = {4, 1};
  std::vector<int64_t> sizes1 = {2}, strides1 = {1};
  std::vector<int64_t> sizes2 = {2}, strides2 = {1};
  void *data[3] = {x, y, z};

  Status launch(const detail::Kernel &kernel = kKernel) {
    detail::TensorArg args[] = {{data[0], sizes0.data(), strides0.data()},
                                {data[1], sizes1.data(), strides1.data()},
                                {data[2], sizes2.data(), strides2.data()}};
    return detail::launch(kernel, args, Stream{});
  }
};

} // namespace

TEST_CASE("the runtime runs on the host when ACCY_DEVICE=host") {
  REQUIRE(Runtime::instance().status().ok());
  CHECK(Runtime::instance().device() == DeviceKind::Host);
  CHECK(Runtime::instance().deviceName() == "host");
}

TEST_CASE("a valid call reaches the host code with its descriptors") {
  Call call;
  for (int i = 0; i < 8; ++i)
    call.x[i] = static_cast<float>(i);
  call.y[0] = 100;
  call.y[1] = 200;
  int before = hostCalls;
  Status status = call.launch();
  REQUIRE(status.ok());
  CHECK(hostCalls == before + 1);
  CHECK(call.z[0] == 100 + 0 + 1 + 2 + 3);
  CHECK(call.z[1] == 200 + 4 + 5 + 6 + 7);
}

TEST_CASE("static and symbolic sizes are checked before the launch") {
  int before = hostCalls;
  SECTION("a static size") {
    Call call;
    call.sizes0 = {2, 5};
    call.strides0 = {5, 1};
    Status status = call.launch();
    CHECK(status.code() == ErrorCode::ShapeMismatch);
    CHECK_THAT(status.message(),
               Catch::Contains("parameter 'in0' (f32[N, 4]): dimension 1 is 5, "
                               "expected 4"));
  }
  SECTION("a symbolic size named twice") {
    Call call;
    call.sizes1 = {3};
    Status status = call.launch();
    CHECK(status.code() == ErrorCode::ShapeMismatch);
    CHECK_THAT(status.message(),
               Catch::Contains("'in1' (f32[N]): dimension 0 is N = 3, but "
                               "parameter 'in0' has N = 2"));
  }
  SECTION("a negative size") {
    Call call;
    call.sizes0 = {-1, 4};
    CHECK(call.launch().code() == ErrorCode::InvalidArgument);
  }
  CHECK(hostCalls == before);
}

TEST_CASE("views must be dense, row-major, aligned and not overlap") {
  int before = hostCalls;
  SECTION("a transposed view") {
    Call call;
    call.strides0 = {1, 2};
    Status status = call.launch();
    CHECK(status.code() == ErrorCode::InvalidArgument);
    CHECK_THAT(status.message(), Catch::Contains("not row-major contiguous"));
  }
  SECTION("null data") {
    Call call;
    call.data[1] = nullptr;
    CHECK_THAT(call.launch().message(), Catch::Contains("data is null"));
  }
  SECTION("misaligned data") {
    Call call;
    call.data[0] = call.x + 1;
    CHECK_THAT(call.launch().message(), Catch::Contains("16-byte aligned"));
  }
  SECTION("a result overlapping an input") {
    Call call;
    call.data[2] = call.x + 4;
    Status status = call.launch();
    CHECK(status.code() == ErrorCode::InvalidArgument);
    CHECK_THAT(status.message(),
               Catch::Contains("result 'out0' overlaps parameter 'in0'"));
  }
  CHECK(hostCalls == before);
}

TEST_CASE("strides of size-1 dimensions and empty tensors are accepted") {
  Call call;
  call.sizes0 = {1, 4};
  call.strides0 = {1000, 1};
  call.sizes1 = call.sizes2 = {1};
  CHECK(call.launch().ok());
  Call empty;
  empty.sizes0 = {0, 4};
  empty.sizes1 = empty.sizes2 = {0};
  empty.data[0] = empty.data[1] = empty.data[2] = nullptr;
  CHECK(empty.launch().ok());
}

TEST_CASE("a kernel without host code is an error on the host") {
  Call call;
  Status status = call.launch(kNoHost);
  CHECK(status.code() == ErrorCode::NoCodeForDevice);
  CHECK_THAT(status.message(), Catch::Contains("add 'host' to the TARGETS"));
}

TEST_CASE("device buffers copy in and out and refuse overlong copies") {
  DeviceBuffer buffer(4 * sizeof(float));
  REQUIRE(buffer.status().ok());
  CHECK(reinterpret_cast<uintptr_t>(buffer.data()) % 256 == 0);
  float in[4] = {1, 2, 3, 4}, out[4] = {};
  REQUIRE(buffer.upload(in, sizeof in).ok());
  REQUIRE(buffer.download(out, sizeof out).ok());
  CHECK(out[3] == 4);
  float big[5] = {};
  CHECK(buffer.upload(big, sizeof big).code() == ErrorCode::InvalidArgument);
  DeviceBuffer moved = std::move(buffer);
  CHECK(moved.size() == 4 * sizeof(float));
  CHECK(buffer.data() == nullptr);
}
