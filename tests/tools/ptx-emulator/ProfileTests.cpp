//===- ProfileTests.cpp - The memory counters against known answers -------===//
//
// Kernels whose memory behaviour is known by construction, run through
// runGrid with a LaunchProfile: a coalesced copy (four sectors a request,
// every byte of every sector used, DRAM traffic = the data once), a
// gather with a stride of 32 elements (32 sectors a request), a
// shared-memory transpose with and without padding (32-way bank conflicts
// on the column read, none with the padding), and a row read twice (the
// second pass hits the block's L1, so neither the L2 nor DRAM sees it
// again), lanes reading their own runs of a sector (the L1 serves all but
// the first load), a second launch over what the first left in the
// L2, cp.async (a global load and a shared store of its warp) and
// ldmatrix (a shared load of the rows its lanes address).
//
//===----------------------------------------------------------------------===//
#include <catch2/catch.hpp>

#include "Profile.h"
#include "Program.h"
#include "Scheduler.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace ptxemu;

namespace {

/// A device buffer of `count` f32, 256-byte aligned as cuMemAlloc's.
struct Buffer {
  explicit Buffer(size_t count)
      : data(static_cast<float *>(std::aligned_alloc(256, count * 4 + 256))),
        count(count) {
    for (size_t i = 0; i < count; ++i)
      data[i] = static_cast<float>(i);
  }
  ~Buffer() { std::free(data); }
  float *data;
  size_t count;
};

/// Runs entry `k` of `body` with one u64 parameter per buffer, `blocks`
/// blocks of `threads` (x, y) threads, through `l2` (a cold one by
/// default), and returns its counters.
LaunchCounters profile(const std::string &body,
                       std::vector<const Buffer *> buffers, uint32_t blocks,
                       uint32_t threadsX, uint32_t threadsY = 1,
                       SectorCache *l2 = nullptr) {
  std::string error;
  std::unique_ptr<Program> program = loadProgram(
      (".version 8.0\n.target sm_90\n.address_size 64\n" + body).c_str(),
      error);
  INFO(error);
  REQUIRE(program);
  const Entry *entry = program->find("k");
  REQUIRE(entry);
  std::vector<uint8_t> params(8 * buffers.size());
  for (size_t i = 0; i < buffers.size(); ++i) {
    uint64_t pointer = reinterpret_cast<uint64_t>(buffers[i]->data);
    std::memcpy(params.data() + 8 * i, &pointer, 8);
  }
  LaunchConfig config;
  config.grid[0] = blocks;
  config.block[0] = threadsX;
  config.block[1] = threadsY;
  LaunchProfile launch(blocks);
  REQUIRE(runGrid(*entry, config, params.data(), error, &launch));
  SectorCache cold(kH200L2Bytes);
  return launch.finish(l2 ? *l2 : cold);
}

/// Kernel `k(k_in, k_out)` with %rd1 = k_in, %rd2 = k_out and registers
/// %p, %r, %f and %rd to spare, running `body`.
std::string kernel(const std::string &body) {
  return R"(
.visible .entry k(.param .u64 k_in, .param .u64 k_out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<12>;
  .reg .f32 %f<8>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [k_in];
  ld.param.u64 %rd2, [k_out];
)" + body +
         "  ret;\n}\n";
}

/// out[i] = in[i * stride], i the global thread index.
std::string strided(int stride) {
  return kernel(R"(
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mad.lo.s32 %r4, %r1, %r2, %r3;
  mul.lo.s32 %r5, %r4, )" +
                std::to_string(stride) + R"(;
  mul.wide.u32 %rd3, %r5, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.f32 %f1, [%rd4];
  mul.wide.u32 %rd5, %r4, 4;
  add.s64 %rd6, %rd2, %rd5;
  st.global.f32 [%rd6], %f1;
)");
}

/// A 32x32 tile through shared memory, transposed: row `ty` stored, then
/// column `ty` read; rows of `pitch` words.
std::string transpose(int pitch) {
  return kernel(R"(
  .shared .align 4 .b8 tile[)" +
                std::to_string(32 * pitch * 4) + R"(];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %tid.y;
  shl.b32 %r3, %r2, 5;
  add.s32 %r3, %r3, %r1;
  mul.wide.u32 %rd3, %r3, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.f32 %f1, [%rd4];
  mov.u64 %rd5, tile;
  mul.lo.s32 %r4, %r2, )" +
                std::to_string(pitch) + R"(;
  add.s32 %r4, %r4, %r1;
  mul.wide.u32 %rd6, %r4, 4;
  add.s64 %rd7, %rd5, %rd6;
  st.shared.f32 [%rd7], %f1;
  bar.sync 0;
  mul.lo.s32 %r5, %r1, )" +
                std::to_string(pitch) + R"(;
  add.s32 %r5, %r5, %r2;
  mul.wide.u32 %rd8, %r5, 4;
  add.s64 %rd9, %rd5, %rd8;
  ld.shared.f32 %f1, [%rd9];
  add.s64 %rd10, %rd2, %rd3;
  st.global.f32 [%rd10], %f1;
)");
}

/// Lane i sums in[4i .. 4i+3] with four scalar loads and stores it at
/// out[i]: each load touches 16 sectors, the last three the first's.
const std::string kFourRuns = kernel(R"(
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.f32 %f1, [%rd4];
  ld.global.f32 %f2, [%rd4+4];
  ld.global.f32 %f3, [%rd4+8];
  ld.global.f32 %f4, [%rd4+12];
  add.f32 %f5, %f1, %f2;
  add.f32 %f6, %f3, %f4;
  add.f32 %f7, %f5, %f6;
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd6, %rd2, %rd5;
  st.global.f32 [%rd6], %f7;
)");

/// A block of 256 threads sums a row of 1024 f32 twice over (two passes of
/// four strided loads each) and thread t stores its sum at out[t].
const std::string kRowTwice = kernel(R"(
  mov.u32 %r1, %tid.x;
  mov.f32 %f1, 0f00000000;
  mov.u32 %r2, 0;
$L__loop:
  and.b32 %r3, %r2, 3;
  shl.b32 %r3, %r3, 8;
  add.s32 %r3, %r3, %r1;
  mul.wide.u32 %rd3, %r3, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.f32 %f2, [%rd4];
  add.f32 %f1, %f1, %f2;
  add.s32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, 8;
  @%p1 bra $L__loop;
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd6, %rd2, %rd5;
  st.global.f32 [%rd6], %f1;
)");

} // namespace

TEST_CASE("a coalesced copy moves its data once, four sectors a request",
          "[profile]") {
  Buffer in(1024), out(1024);
  LaunchCounters c = profile(strided(1), {&in, &out}, 4, 256);
  CHECK(out.data[1000] == 1000.0f);
  // 4 blocks of 8 warps, one load and one store each.
  CHECK(c.globalLoadRequests == 32);
  CHECK(c.globalLoadSectors == 128);
  CHECK(c.globalStoreRequests == 32);
  CHECK(c.globalStoreSectors == 128);
  // Every byte of every sector touched is used.
  CHECK(c.globalBytesRequested == 8192);
  CHECK(c.distinctSectors * 32 == 8192);
  CHECK(c.dramReadBytes == 4096);
  CHECK(c.dramWriteBytes == 4096);
  CHECK(c.sharedRequests == 0);
  // Per PTX line: the load and the store, 32 requests of 4 sectors each.
  REQUIRE(c.globalLines.size() == 2);
  for (const auto &[line, counters] : c.globalLines) {
    CHECK(counters.requests == 32);
    CHECK(counters.sectors == 128);
    CHECK(counters.bytes == 4096);
  }
  CHECK(c.instructions[static_cast<int>(InstClass::LoadStore)] ==
        32 * 4); // two parameter loads, one global load, one store a warp
}

TEST_CASE("a gather with a stride of 32 elements touches 32 sectors a "
          "request",
          "[profile]") {
  Buffer in(32 * 32), out(32);
  LaunchCounters c = profile(strided(32), {&in, &out}, 1, 32);
  CHECK(out.data[5] == 160.0f);
  CHECK(c.globalLoadRequests == 1);
  CHECK(c.globalLoadSectors == 32);
  CHECK(c.globalStoreSectors == 4);
  // 128 bytes used of the 1,024 the load's sectors hold, plus the store's.
  CHECK(c.globalBytesRequested == 256);
  CHECK(c.dramReadBytes == 32 * 32);
}

TEST_CASE("a shared-memory transpose conflicts on every bank unless padded",
          "[profile]") {
  Buffer in(1024), out(1024);
  LaunchCounters plain = profile(transpose(32), {&in, &out}, 1, 32, 32);
  CHECK(out.data[1 * 32 + 2] == in.data[2 * 32 + 1]);
  // 32 warps store a row each (one wavefront) and read a column each: 32
  // words of one bank, 32 wavefronts.
  CHECK(plain.sharedRequests == 64);
  CHECK(plain.sharedWavefronts == 32 + 32 * 32);
  CHECK(plain.sharedIdealWavefronts == 64);
  CHECK(plain.instructions[static_cast<int>(InstClass::Barrier)] == 32);
  // Per PTX line: the store's one wavefront a request, the load's 32.
  REQUIRE(plain.sharedLines.size() == 2);
  CHECK(plain.sharedLines.begin()->second.requests == 32);
  CHECK(plain.sharedLines.begin()->second.wavefronts == 32);
  CHECK(plain.sharedLines.rbegin()->second.requests == 32);
  CHECK(plain.sharedLines.rbegin()->second.wavefronts == 32 * 32);

  Buffer paddedOut(1024);
  LaunchCounters padded = profile(transpose(33), {&in, &paddedOut}, 1, 32, 32);
  CHECK(paddedOut.data[1 * 32 + 2] == in.data[2 * 32 + 1]);
  CHECK(padded.sharedRequests == 64);
  CHECK(padded.sharedWavefronts == 64);
  CHECK(padded.sharedIdealWavefronts == 64);
}

TEST_CASE("128-bit shared accesses take four wavefronts a warp, none of "
          "them a conflict",
          "[profile]") {
  Buffer in(128), out(128);
  // Lane i stores in[4i .. 4i+3] to tile[4i ..] and reads back the run of
  // lane 31 - i.
  LaunchCounters c = profile(kernel(R"(
  .shared .align 16 .b8 tile[512];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4];
  mov.u64 %rd5, tile;
  add.s64 %rd6, %rd5, %rd3;
  st.shared.v4.f32 [%rd6], {%f1, %f2, %f3, %f4};
  bar.sync 0;
  sub.s32 %r2, 31, %r1;
  mul.wide.u32 %rd7, %r2, 16;
  add.s64 %rd8, %rd5, %rd7;
  ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [%rd8];
  add.s64 %rd9, %rd2, %rd3;
  st.global.v4.f32 [%rd9], {%f1, %f2, %f3, %f4};
)"),
                             {&in, &out}, 1, 32);
  CHECK(out.data[0] == 124.0f);
  CHECK(out.data[127] == 3.0f);
  CHECK(c.sharedRequests == 2);
  CHECK(c.sharedWavefronts == 8);
  CHECK(c.sharedIdealWavefronts == 8);
}

TEST_CASE("a row read twice comes from DRAM once", "[profile]") {
  Buffer in(1024), out(256);
  LaunchCounters c = profile(kRowTwice, {&in, &out}, 1, 256);
  // Thread t sums in[t], in[t + 256], in[t + 512], in[t + 768] twice.
  CHECK(out.data[3] == 2.0f * (3 + 259 + 515 + 771));
  // 8 warps, 8 loads each, 4 sectors each: the row's 128 sectors twice.
  CHECK(c.globalLoadRequests == 64);
  CHECK(c.globalLoadSectors == 256);
  CHECK(c.dramReadBytes == 4096);
  CHECK(c.dramWriteBytes == 1024);
  CHECK(c.distinctSectors * 32 == 4096 + 1024);
  // The second pass finds the row in the block's L1.
  CHECK(c.l1HitSectors == 128);
}

TEST_CASE("a launch reads from the L2 what the launch before left there",
          "[profile]") {
  Buffer in(1024), out(1024);
  SectorCache l2(kH200L2Bytes);
  LaunchCounters first = profile(strided(1), {&in, &out}, 4, 256, 1, &l2);
  CHECK(first.dramReadBytes == 4096);
  CHECK(first.dramWriteBytes == 4096);
  LaunchCounters second = profile(strided(1), {&in, &out}, 4, 256, 1, &l2);
  CHECK(second.globalLoadSectors == 128);
  CHECK(second.dramReadBytes == 0);
  // Its stores dirty sectors already dirty: written back once.
  CHECK(second.dramWriteBytes == 0);
  l2.clear();
  LaunchCounters third = profile(strided(1), {&in, &out}, 4, 256, 1, &l2);
  CHECK(third.dramReadBytes == 4096);
}

TEST_CASE("loads of sectors a lane's earlier load touched hit the L1",
          "[profile]") {
  Buffer in(128), out(32);
  LaunchCounters c = profile(kFourRuns, {&in, &out}, 1, 32);
  CHECK(out.data[2] == 8.0f + 9.0f + 10.0f + 11.0f);
  // Four requests of 16 sectors, a quarter of each sector's bytes used...
  CHECK(c.globalLoadRequests == 4);
  CHECK(c.globalLoadSectors == 64);
  // ...but the last three find the first one's sectors in the L1.
  CHECK(c.l1HitSectors == 48);
  CHECK(c.dramReadBytes == 512);
}

TEST_CASE("lanes reading one scalar ask for its bytes once", "[profile]") {
  Buffer in(32), out(32);
  LaunchCounters c = profile(strided(0), {&in, &out}, 1, 32);
  CHECK(out.data[31] == 0.0f);
  CHECK(c.globalLoadRequests == 1);
  CHECK(c.globalLoadSectors == 1);
  // 4 bytes of the load, 128 of the store.
  CHECK(c.globalBytesRequested == 4 + 128);
}

TEST_CASE("cp.async is a global load and a shared store of its warp",
          "[profile]") {
  Buffer in(128), out(1);
  // Lane i copies in[4i .. 4i+3] into tile[16 i]: 512 consecutive bytes.
  LaunchCounters c = profile(kernel(R"(
  .shared .align 16 .b8 tile[512];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd4, %rd1, %rd3;
  mov.u32 %r2, tile;
  shl.b32 %r3, %r1, 4;
  add.s32 %r4, %r2, %r3;
  cp.async.ca.shared.global [%r4], [%rd4], 16;
  cp.async.wait_all;
)"),
                             {&in, &out}, 1, 32);
  CHECK(c.globalLoadRequests == 1);
  CHECK(c.globalLoadSectors == 16);
  CHECK(c.globalBytesRequested == 512);
  CHECK(c.sharedRequests == 1);
  CHECK(c.sharedWavefronts == 4);
  CHECK(c.sharedIdealWavefronts == 4);
}

TEST_CASE("ldmatrix is a shared load of the rows its lanes address",
          "[profile]") {
  Buffer in(1), out(1);
  // 32 rows of 16 bytes, lane l at row l of a 512-byte tile: four
  // wavefronts, none a conflict.
  LaunchCounters c = profile(kernel(R"(
  .shared .align 16 .b8 tile[1024];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, tile;
  shl.b32 %r3, %r1, 4;
  add.s32 %r4, %r2, %r3;
  ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r5, %r6, %r7, %r8}, [%r4];
)"),
                             {&in, &out}, 1, 32);
  CHECK(c.sharedRequests == 1);
  CHECK(c.sharedWavefronts == 4);
  CHECK(c.sharedIdealWavefronts == 4);
  // Two parameter loads and the ldmatrix.
  CHECK(c.instructions[static_cast<int>(InstClass::LoadStore)] == 3);
}
