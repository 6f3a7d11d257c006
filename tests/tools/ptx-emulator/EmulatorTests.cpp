//===- EmulatorTests.cpp - Unit tests of the PTX interpreter --------------===//
//
// Small hand-written PTX kernels through loadProgram and runGrid (no CUDA
// API in between): a block barrier, butterfly and up shuffles with their
// predicate, predicated branches, cvt rounding and saturation, f16
// arithmetic, calls of device functions, a warp's mma.sync against a host
// matrix product, ldmatrix's fragments, cp.async with a partial source,
// and the errors: an unsupported instruction or a call that cannot be
// inlined fails the load naming it, a barrier (or an mma.sync or ldmatrix
// of a partial warp) that can never complete fails the launch.
//
//===----------------------------------------------------------------------===//
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include "Numeric.h"
#include "Program.h"
#include "Scheduler.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

using namespace ptxemu;

namespace {

const char *kHeader = R"(.version 8.0
.target sm_90
.address_size 64
)";

/// Runs `entry` of `body` with one u64 parameter pointing at `out`.
bool run(const std::string &body, uint32_t threads, std::vector<uint32_t> &out,
         std::string &error, uint32_t blocks = 1) {
  std::unique_ptr<Program> program =
      loadProgram((kHeader + body).c_str(), error);
  if (!program)
    return false;
  const Entry *entry = program->find("k");
  REQUIRE(entry);
  uint64_t pointer = reinterpret_cast<uint64_t>(out.data());
  uint8_t params[8];
  std::memcpy(params, &pointer, 8);
  LaunchConfig config;
  config.block[0] = threads;
  config.grid[0] = blocks;
  return runGrid(*entry, config, params, error);
}

/// The common prologue: %rd1 = &out[%tid.x] (u32 elements).
const char *kPrologue = R"(
  ld.param.u64 %rd1, [k_param_0];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd1, %rd1, %rd2;
)";

} // namespace

TEST_CASE("bar.sync makes the block's shared stores visible", "[emulator]") {
  std::string ptx = std::string(R"(
.visible .entry k(.param .u64 k_param_0)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b8 buf[256];
)") + kPrologue + R"(
  mul.wide.u32 %rd3, %r1, 4;
  mov.u64 %rd4, buf;
  add.s64 %rd5, %rd4, %rd3;
  add.s32 %r2, %r1, 100;
  st.shared.u32 [%rd5], %r2;
  bar.sync 0;
  sub.s32 %r3, 63, %r1;
  mul.wide.u32 %rd6, %r3, 4;
  add.s64 %rd7, %rd4, %rd6;
  ld.shared.u32 %r4, [%rd7];
  st.global.u32 [%rd1], %r4;
  ret;
}
)";
  std::vector<uint32_t> out(64, 0);
  std::string error;
  REQUIRE(run(ptx, 64, out, error));
  for (uint32_t i = 0; i < 64; ++i)
    CHECK(out[i] == 100 + 63 - i);
}

TEST_CASE("a thread that exits does not hold up the barrier", "[emulator]") {
  std::string ptx = std::string(R"(
.visible .entry k(.param .u64 k_param_0)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
)") + kPrologue + R"(
  setp.gt.u32 %p1, %r1, 40;
  @%p1 bra $L__done;
  bar.sync 0;
  st.global.u32 [%rd1], 7;
$L__done:
  ret;
}
)";
  std::vector<uint32_t> out(64, 0);
  std::string error;
  REQUIRE(run(ptx, 64, out, error));
  for (uint32_t i = 0; i < 64; ++i)
    CHECK(out[i] == (i <= 40 ? 7u : 0u));
}

TEST_CASE("shfl.sync bfly and up exchange lanes", "[emulator]") {
  std::string ptx = std::string(R"(
.visible .entry k(.param .u64 k_param_0)
{
  .reg .pred %p<3>;
  .reg .b32 %r<12>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<8>;
)") + kPrologue + R"(
  mov.u32 %r2, %laneid;
  mul.lo.s32 %r3, %r2, 10;
  shfl.sync.bfly.b32 %r4, %r3, 5, 31, -1;
  shfl.sync.up.b32 %r5|%p1, %r3, 3, 0, -1;
  selp.u32 %r6, 1000, 0, %p1;
  add.s32 %r7, %r5, %r6;
  cvt.rn.f32.u32 %f1, %r2;
  shfl.sync.down.b32 %f2, %f1, 2, 31, -1;
  cvt.rzi.u32.f32 %r8, %f2;
  shfl.sync.idx.b32 %r9, %r2, 3, 6175, -1;
  shl.b32 %r10, %r4, 16;
  add.s32 %r10, %r10, %r7;
  st.global.u32 [%rd1], %r10;
  mul.lo.s32 %r11, %r8, 100;
  add.s32 %r11, %r11, %r9;
  st.global.u32 [%rd1+256], %r11;
  ret;
}
)";
  std::vector<uint32_t> out(128, 0);
  std::string error;
  REQUIRE(run(ptx, 64, out, error));
  for (uint32_t t = 0; t < 64; ++t) {
    uint32_t lane = t % 32;
    uint32_t bfly = (lane ^ 5) * 10;
    uint32_t up = lane >= 3 ? (lane - 3) * 10 + 1000 : lane * 10;
    CHECK(out[t] == (bfly << 16) + up);
    uint32_t down = lane + 2 <= 31 ? lane + 2 : lane;
    // c = 0x181f: segments of 8 lanes (segmask 0x18), clamp 31: lane 3 of
    // each segment.
    uint32_t idx = (lane & 0x18) | 3;
    CHECK(out[64 + t] == down * 100 + idx);
  }
}

TEST_CASE("predicated instructions and branches", "[emulator]") {
  std::string ptx = std::string(R"(
.visible .entry k(.param .u64 k_param_0)
{
  .reg .pred %p<3>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
)") + kPrologue + R"(
  setp.lt.u32 %p1, %r1, 5;
  mov.u32 %r2, 2;
  @!%p1 bra $L__skip;
  mov.u32 %r2, 1;
$L__skip:
  and.b32 %r3, %r1, 1;
  setp.eq.s32 %p2, %r3, 1;
  @%p2 add.s32 %r2, %r2, 10;
  st.global.u32 [%rd1], %r2;
  ret;
}
)";
  std::vector<uint32_t> out(16, 0);
  std::string error;
  REQUIRE(run(ptx, 16, out, error));
  for (uint32_t i = 0; i < 16; ++i)
    CHECK(out[i] == (i < 5 ? 1u : 2u) + (i % 2 ? 10u : 0u));
}

TEST_CASE("cvt rounds and saturates as PTX says", "[emulator]") {
  std::string ptx = R"(
.visible .entry k(.param .u64 k_param_0)
{
  .reg .b16 %rs<8>;
  .reg .b32 %r<16>;
  .reg .f32 %f<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [k_param_0];
  cvt.rni.s32.f32 %r1, 0f40200000;
  st.global.u32 [%rd1], %r1;
  cvt.rzi.s32.f32 %r2, 0fC02CCCCD;
  st.global.u32 [%rd1+4], %r2;
  cvt.rmi.s32.f32 %r3, 0fC02CCCCD;
  st.global.u32 [%rd1+8], %r3;
  cvt.rpi.s32.f32 %r4, 0f40100000;
  st.global.u32 [%rd1+12], %r4;
  cvt.rzi.s32.f32 %r5, 0f7FC00000;
  st.global.u32 [%rd1+16], %r5;
  cvt.rzi.s32.f32 %r6, 0f4F800000;
  st.global.u32 [%rd1+20], %r6;
  cvt.rn.f16.f32 %rs1, 0f3F803000;
  cvt.rz.f16.f32 %rs2, 0f3F803FFF;
  mov.b32 %r7, {%rs1, %rs2};
  st.global.u32 [%rd1+24], %r7;
  cvt.rn.bf16.f32 %rs3, 0f3F818000;
  cvt.rn.bf16.f32 %rs4, 0f3F808000;
  mov.b32 %r8, {%rs3, %rs4};
  st.global.u32 [%rd1+28], %r8;
  cvt.sat.u8.s32 %r9, 300;
  st.global.u32 [%rd1+32], %r9;
  cvt.rmi.f32.f32 %f1, 0fBFC00000;
  st.global.f32 [%rd1+36], %f1;
  cvt.s64.s32 %rd2, -5;
  st.global.u64 [%rd1+40], %rd2;
  mov.b16 %rs6, 0x3C00;
  mov.b16 %rs7, 0x1401;
  add.rn.f16 %rs5, %rs6, %rs7;
  mov.b32 %r10, {%rs5, %rs5};
  st.global.u32 [%rd1+48], %r10;
  cvt.rn.f32.s64 %f2, 16777217;
  st.global.f32 [%rd1+52], %f2;
  ret;
}
)";
  std::vector<uint32_t> out(16, 0);
  std::string error;
  REQUIRE(run(ptx, 1, out, error));
  CHECK(static_cast<int32_t>(out[0]) == 2);   // 2.5 to nearest even
  CHECK(static_cast<int32_t>(out[1]) == -2);  // -2.7 toward zero
  CHECK(static_cast<int32_t>(out[2]) == -3);  // -2.7 toward -inf
  CHECK(static_cast<int32_t>(out[3]) == 3);   // 2.25 toward +inf
  CHECK(out[4] == 0);                         // NaN -> 0
  CHECK(out[5] == 0x7fffffffu);               // 2^32 saturates
  // 1 + 3 * 2^-11: a tie between 1 + 2^-10 and 1 + 2^-9 in f16 (10
  // fraction bits), to the even one.
  CHECK((out[6] & 0xffff) == 0x3C02);
  CHECK((out[6] >> 16) == 0x3C01);            // toward zero
  CHECK((out[7] & 0xffff) == 0x3F82);         // tie: to even (up)
  CHECK((out[7] >> 16) == 0x3F80);            // tie: to even (down)
  CHECK(out[8] == 255);
  CHECK(bitsToF32(out[9]) == -2.0f);
  CHECK(out[10] == 0xfffffffbu);
  CHECK(out[11] == 0xffffffffu);
  // 1 + (2^-10 + 2^-20): rounds to 1 + 2^-10 (0x1401 is 2^-10 (1 + 2^-10))
  CHECK((out[12] & 0xffff) == 0x3C01);
  CHECK(bitsToF32(out[13]) == 16777216.0f);   // ties to even
}

TEST_CASE("max.NaN and min.NaN propagate NaN and order signed zeros",
          "[emulator]") {
  // 0f7FC00000 is NaN, 0f80000000 is -0.0.
  std::string ptx = R"(
.visible .entry k(.param .u64 k_param_0)
{
  .reg .f32 %f<8>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [k_param_0];
  max.NaN.f32 %f1, 0f7FC00000, 0f3F800000;
  st.global.f32 [%rd1], %f1;
  min.NaN.f32 %f2, 0f3F800000, 0f7FC00000;
  st.global.f32 [%rd1+4], %f2;
  max.f32 %f3, 0f7FC00000, 0f3F800000;
  st.global.f32 [%rd1+8], %f3;
  max.NaN.f32 %f4, 0f80000000, 0f00000000;
  st.global.f32 [%rd1+12], %f4;
  min.NaN.f32 %f5, 0f00000000, 0f80000000;
  st.global.f32 [%rd1+16], %f5;
  max.NaN.f32 %f6, 0f40000000, 0fC0400000;
  st.global.f32 [%rd1+20], %f6;
  ret;
}
)";
  std::vector<uint32_t> out(6, 0);
  std::string error;
  REQUIRE(run(ptx, 1, out, error));
  CHECK(std::isnan(bitsToF32(out[0])));
  CHECK(std::isnan(bitsToF32(out[1])));
  CHECK(bitsToF32(out[2]) == 1.0f); // without .NaN, the number
  CHECK(out[3] == 0x00000000u);     // +0.0
  CHECK(out[4] == 0x80000000u);     // -0.0
  CHECK(bitsToF32(out[5]) == 2.0f);
}

TEST_CASE("max.NaN on integers fails the load", "[emulator]") {
  std::string ptx = R"(
.visible .entry k(.param .u64 k_param_0)
{
  .reg .b32 %r<4>;
  max.NaN.s32 %r1, %r2, %r3;
  ret;
}
)";
  std::vector<uint32_t> out(1, 0);
  std::string error;
  CHECK(!run(ptx, 1, out, error));
  CHECK(error.find("max.NaN.s32") != std::string::npos);
}

TEST_CASE("an unsupported instruction fails the load, naming it",
          "[emulator]") {
  std::string ptx = std::string(kHeader) + R"(
.visible .entry k(.param .u64 k_param_0)
{
  .reg .b32 %r<4>;
  mov.u32 %r1, 1;
  prmt.b32 %r2, %r1, %r1, 0x3210;
  ret;
}
)";
  std::string error;
  CHECK_FALSE(loadProgram(ptx.c_str(), error));
  CHECK(error.find("prmt.b32") != std::string::npos);
  CHECK(error.find("line 9") != std::string::npos);

  std::string directive = std::string(kHeader) + ".texref t;\n";
  CHECK_FALSE(loadProgram(directive.c_str(), error = ""));
  CHECK(error.find(".texref") != std::string::npos);
}

// What NVPTX prints for a call of an internal function (the outlined
// transcendentals, docs/internals.md): a block declaring the call's .param
// variables, the argument stored, the call, the result loaded.
const char *kClampFunction = R"(
.func (.param .b32 func_retval0) clamp(.param .b32 clamp_param_0)
;
.visible .entry k(.param .u64 k_param_0)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
)";

TEST_CASE("a call runs the function's body with its argument and result",
          "[emulator]") {
  std::string ptx = std::string(kClampFunction) + kPrologue + R"(
  { // callseq 0, 0
  .param .b32 param0;
  st.param.b32 [param0], %r1;
  .param .b32 retval0;
  call.uni (retval0), clamp, (param0);
  ld.param.b32 %r2, [retval0];
  } // callseq 0
  mul.lo.u32 %r3, %r1, 3;
  { // callseq 1, 0
  .param .b32 param0;
  st.param.b32 [param0], %r3;
  .param .b32 retval0;
  call.uni (retval0), clamp, (param0);
  ld.param.b32 %r4, [retval0];
  } // callseq 1
  shl.b32 %r4, %r4, 8;
  add.s32 %r5, %r2, %r4;
  st.global.u32 [%rd1], %r5;
  ret;
}
.func (.param .b32 func_retval0) clamp(.param .b32 clamp_param_0)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  ld.param.b32 %r1, [clamp_param_0];
  setp.gt.u32 %p1, %r1, 20;
  @%p1 bra $L__big;
  st.param.b32 [func_retval0+0], %r1;
  ret;
$L__big:
  mov.u32 %r2, 20;
  st.param.b32 [func_retval0+0], %r2;
  ret;
}
)";
  std::vector<uint32_t> out(32, 0);
  std::string error;
  REQUIRE(run(ptx, 32, out, error));
  for (uint32_t tid = 0; tid < 32; ++tid)
    CHECK(out[tid] == std::min(tid, 20u) + (std::min(tid * 3, 20u) << 8));
}

TEST_CASE("a call that cannot be inlined fails the load, naming it",
          "[emulator]") {
  auto load = [](const std::string &body) {
    std::string error;
    std::string ptx = std::string(kHeader) + kClampFunction + kPrologue +
                      body;
    CHECK_FALSE(loadProgram(ptx.c_str(), error));
    return error;
  };
  std::string callSite = R"(
  .param .b32 param0;
  st.param.b32 [param0], %r1;
  .param .b32 retval0;
  call.uni (retval0), clamp, (param0);
  ld.param.b32 %r2, [retval0];
  ret;
}
)";
  // Declared, never defined.
  CHECK(load(callSite).find("call of clamp, which the module does not "
                            "define") != std::string::npos);
  // Calling itself.
  std::string recursive = callSite + R"(
.func (.param .b32 func_retval0) clamp(.param .b32 clamp_param_0)
{
  .reg .b32 %r<4>;
  .param .b32 param0;
  st.param.b32 [param0], %r1;
  .param .b32 retval0;
  call.uni (retval0), clamp, (param0);
  ld.param.b32 %r2, [retval0];
  st.param.b32 [func_retval0+0], %r2;
  ret;
}
)";
  CHECK(load(recursive).find("recursion") != std::string::npos);
  // An argument that is not a scalar.
  std::string vector = R"(
  .param .align 16 .b8 param0[16];
  call.uni clamp, (param0);
  ret;
}
.func clamp(.param .align 16 .b8 clamp_param_0[16])
{
  ret;
}
)";
  CHECK(load(vector).find("only scalars are supported") != std::string::npos);
}

TEST_CASE("a barrier that can never complete is a deadlock, not a hang",
          "[emulator]") {
  std::string ptx = std::string(R"(
.visible .entry k(.param .u64 k_param_0)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
)") + kPrologue + R"(
  setp.lt.u32 %p1, %r1, 16;
  @%p1 bra $L__shuffle;
  bar.sync 0;
  ret;
$L__shuffle:
  shfl.sync.bfly.b32 %r2, %r1, 1, 31, -1;
  ret;
}
)";
  std::vector<uint32_t> out(32, 0);
  std::string error;
  CHECK_FALSE(run(ptx, 32, out, error));
  CHECK(error.find("deadlock") != std::string::npos);
  CHECK(error.find("16 thread(s) wait at bar.sync") != std::string::npos);
  CHECK(error.find("16 thread(s) wait at shfl.sync") != std::string::npos);
}

TEST_CASE("a shared access out of bounds fails the launch", "[emulator]") {
  std::string ptx = std::string(R"(
.visible .entry k(.param .u64 k_param_0)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 buf[16];
  mov.u64 %rd1, buf;
  st.shared.u32 [%rd1+16], 1;
  ret;
}
)");
  std::vector<uint32_t> out(1, 0);
  std::string error;
  CHECK_FALSE(run(ptx, 1, out, error));
  CHECK(error.find("invalid shared store") != std::string::npos);
}

namespace {

/// D = A B + C by one warp's mma.sync (m16n8k16, `type` f16 or bf16): each
/// lane loads its fragments from A (16 x 16, row-major), B (stored n-major,
/// Bt[n][k]) and C (16 x 8 f32) with the layouts of the PTX ISA, and
/// stores its part of D like C.
std::string mmaKernel(const std::string &type) {
  return R"(
.visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc,
                  .param .u64 pd)
{
  .reg .b32 %r<20>;
  .reg .f32 %f<12>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [pa];
  ld.param.u64 %rd2, [pb];
  ld.param.u64 %rd3, [pc];
  ld.param.u64 %rd4, [pd];
  mov.u32 %r1, %tid.x;
  shr.u32 %r2, %r1, 2;
  and.b32 %r3, %r1, 3;
  shl.b32 %r4, %r3, 1;
  mad.lo.s32 %r5, %r2, 16, %r4;
  mul.wide.u32 %rd5, %r5, 2;
  add.s64 %rd6, %rd1, %rd5;
  ld.global.b32 %r10, [%rd6];
  ld.global.b32 %r11, [%rd6+256];
  ld.global.b32 %r12, [%rd6+16];
  ld.global.b32 %r13, [%rd6+272];
  add.s64 %rd7, %rd2, %rd5;
  ld.global.b32 %r14, [%rd7];
  ld.global.b32 %r15, [%rd7+16];
  mad.lo.s32 %r6, %r2, 8, %r4;
  mul.wide.u32 %rd8, %r6, 4;
  add.s64 %rd9, %rd3, %rd8;
  ld.global.f32 %f1, [%rd9];
  ld.global.f32 %f2, [%rd9+4];
  ld.global.f32 %f3, [%rd9+256];
  ld.global.f32 %f4, [%rd9+260];
  mma.sync.aligned.m16n8k16.row.col.f32.)" +
         type + "." + type +
         R"(.f32 {%f5, %f6, %f7, %f8}, {%r10, %r11, %r12, %r13}, {%r14, %r15}, {%f1, %f2, %f3, %f4};
  add.s64 %rd10, %rd4, %rd8;
  st.global.f32 [%rd10], %f5;
  st.global.f32 [%rd10+4], %f6;
  st.global.f32 [%rd10+256], %f7;
  st.global.f32 [%rd10+260], %f8;
  ret;
}
)";
}

} // namespace

TEST_CASE("mma.sync m16n8k16 multiplies a warp's fragments as the PTX ISA "
          "lays them out",
          "[emulator]") {
  for (bool bf16 : {false, true}) {
    INFO((bf16 ? "bf16" : "f16"));
    // Small multiples of 1/4: exact in f16, bf16 and their products' sums.
    auto value = [](int i) { return ((i * 7) % 11 - 5) * 0.25; };
    auto bits = [&](double v) {
      return static_cast<uint16_t>(bf16 ? doubleToBf16(v) : doubleToHalf(v));
    };
    std::vector<uint16_t> a(16 * 16), bt(8 * 16);
    std::vector<float> c(16 * 8), d(16 * 8, -1.0f);
    for (int i = 0; i < 16 * 16; ++i)
      a[i] = bits(value(i));
    for (int i = 0; i < 8 * 16; ++i)
      bt[i] = bits(value(3 * i + 1));
    for (int i = 0; i < 16 * 8; ++i)
      c[i] = static_cast<float>(value(5 * i + 2) * 4);
    std::string error;
    std::unique_ptr<Program> program = loadProgram(
        (kHeader + mmaKernel(bf16 ? "bf16" : "f16")).c_str(), error);
    INFO(error);
    REQUIRE(program);
    uint64_t pointers[4] = {reinterpret_cast<uint64_t>(a.data()),
                            reinterpret_cast<uint64_t>(bt.data()),
                            reinterpret_cast<uint64_t>(c.data()),
                            reinterpret_cast<uint64_t>(d.data())};
    uint8_t params[32];
    std::memcpy(params, pointers, 32);
    LaunchConfig config;
    config.block[0] = 32;
    REQUIRE(runGrid(*program->find("k"), config, params, error));
    for (int m = 0; m < 16; ++m)
      for (int n = 0; n < 8; ++n) {
        double expected = c[m * 8 + n];
        for (int k = 0; k < 16; ++k)
          expected += value(m * 16 + k) * value(3 * (n * 16 + k) + 1);
        INFO("D[" << m << "][" << n << "]");
        CHECK(d[m * 8 + n] == static_cast<float>(expected));
      }
  }
}

TEST_CASE("mma.sync and ldmatrix wait for the whole warp", "[emulator]") {
  // A partial warp: an .aligned warp instruction can never complete.
  struct Case {
    const char *instruction;
    uint32_t threads;
    const char *message;
  } cases[] = {
      {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f2, %f3, %f4, "
       "%f5}, {%r1, %r1, %r1, %r1}, {%r1, %r1}, {%f1, %f1, %f1, %f1};",
       16, "16 thread(s) wait at mma.sync"},
      {"ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r2}, [%r3];", 8,
       "8 thread(s) wait at ldmatrix"}};
  for (const Case &c : cases) {
    INFO(c.instruction);
    std::string error;
    std::vector<uint32_t> out(32);
    CHECK_FALSE(run(std::string(R"(
.visible .entry k(.param .u64 k_param_0)
{
  .reg .b32 %r<8>;
  .reg .f32 %f<8>;
  .shared .align 16 .b8 tile[512];
  mov.b32 %r1, 0;
  mov.f32 %f1, 0f00000000;
  mov.u32 %r3, tile;
  )") + c.instruction + R"(
  ret;
}
)",
                    c.threads, out, error));
    CHECK(error.find(c.message) != std::string::npos);
  }
}

TEST_CASE("cp.async copies into shared memory at once, zero-filling past "
          "its source size",
          "[emulator]") {
  // out[0..127] in; thread t copies words 4t..4t+3 into tile[t] (thread 0
  // only 8 of the 16 bytes), then stores tile[31 - t] at out[128 + 4t].
  std::vector<uint32_t> out(256);
  for (uint32_t i = 0; i < 128; ++i)
    out[i] = 1000 + i;
  std::string error;
  REQUIRE(run(R"(
.visible .entry k(.param .u64 k_param_0)
{
  .reg .pred %p<2>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<12>;
  .shared .align 16 .b8 tile[512];
  ld.param.u64 %rd1, [k_param_0];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 16;
  add.s64 %rd3, %rd1, %rd2;
  mov.u32 %r2, tile;
  shl.b32 %r3, %r1, 4;
  add.s32 %r4, %r2, %r3;
  setp.eq.u32 %p1, %r1, 0;
  selp.b32 %r5, 8, 16, %p1;
  cp.async.cg.shared.global [%r4], [%rd3], 16, %r5;
  cp.async.commit_group;
  cp.async.wait_group 0;
  bar.sync 0;
  sub.u32 %r6, 31, %r1;
  shl.b32 %r7, %r6, 4;
  add.s32 %r8, %r2, %r7;
  ld.shared.v4.u32 {%r9, %r10, %r11, %r0}, [%r8];
  add.s64 %rd4, %rd3, 512;
  st.global.v4.u32 [%rd4], {%r9, %r10, %r11, %r0};
  ret;
}
)",
              32, out, error));
  INFO(error);
  for (uint32_t t = 0; t < 32; ++t)
    for (uint32_t j = 0; j < 4; ++j) {
      uint32_t from = 31 - t;
      uint32_t expected = from == 0 && j >= 2 ? 0 : 1000 + 4 * from + j;
      CHECK(out[128 + 4 * t + j] == expected);
    }
}

TEST_CASE("ldmatrix gives each lane its fragments of 8x8 matrices as the "
          "PTX ISA lays them out",
          "[emulator]") {
  // out[0..127]: a 16 x 16 matrix of 16-bit M[r][c] = 16 r + c + 1, copied
  // into a tile; ldmatrix.x4 with lane l at row l % 16, column 8 (l / 16)
  // (the four 8x8 quarters, as an mma's A fragment) into out[128 + 4l + i],
  // ldmatrix.x2.trans with lane l < 16 at row l, column 0 into
  // out[256 + 2l + i].
  std::vector<uint32_t> out(320);
  auto element = [](uint32_t r, uint32_t c) { return 16 * r + c + 1; };
  for (uint32_t i = 0; i < 128; ++i)
    out[i] = element(i / 8, 2 * (i % 8)) | element(i / 8, 2 * (i % 8) + 1)
                                               << 16;
  std::string error;
  REQUIRE(run(R"(
.visible .entry k(.param .u64 k_param_0)
{
  .reg .b32 %r<24>;
  .reg .b64 %rd<12>;
  .shared .align 16 .b8 tile[512];
  ld.param.u64 %rd1, [k_param_0];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 16;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.v4.u32 {%r10, %r11, %r12, %r13}, [%rd3];
  mov.u32 %r2, tile;
  shl.b32 %r3, %r1, 4;
  add.s32 %r4, %r2, %r3;
  st.shared.v4.u32 [%r4], {%r10, %r11, %r12, %r13};
  bar.sync 0;
  and.b32 %r5, %r1, 15;
  shr.u32 %r6, %r1, 4;
  shl.b32 %r7, %r5, 5;
  shl.b32 %r8, %r6, 4;
  add.s32 %r9, %r7, %r8;
  add.s32 %r9, %r2, %r9;
  ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r14, %r15, %r16, %r17}, [%r9];
  add.s64 %rd4, %rd3, 512;
  st.global.v4.u32 [%rd4], {%r14, %r15, %r16, %r17};
  add.s32 %r18, %r2, %r7;
  ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%r19, %r20}, [%r18];
  mul.wide.u32 %rd5, %r1, 8;
  add.s64 %rd6, %rd1, %rd5;
  st.global.v2.u32 [%rd6+1024], {%r19, %r20};
  ret;
}
)",
              32, out, error));
  INFO(error);
  auto pair = [&](uint32_t r0, uint32_t c0, uint32_t r1, uint32_t c1) {
    return element(r0, c0) | element(r1, c1) << 16;
  };
  for (uint32_t l = 0; l < 32; ++l) {
    INFO("lane " << l);
    for (uint32_t i = 0; i < 4; ++i) {
      uint32_t r = 8 * (i % 2) + l / 4, c = 8 * (i / 2) + 2 * (l % 4);
      CHECK(out[128 + 4 * l + i] == pair(r, c, r, c + 1));
    }
    for (uint32_t i = 0; i < 2; ++i) {
      uint32_t r = 8 * i + 2 * (l % 4), c = l / 4;
      CHECK(out[256 + 2 * l + i] == pair(r, c, r + 1, c));
    }
  }
}
