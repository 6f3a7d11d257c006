//===- Profile.h - What a launch did to memory, counted per warp ----------===//
//
// The counters Nsight Compute reports for a kernel's memory behaviour,
// computed from what the interpreter executed: global requests and the
// 32-byte sectors each touches, shared-memory requests and their bank
// conflicts, warp instructions by class, and the DRAM bytes an L2 cache
// would let through. The interpreter does not run a warp in lockstep, so
// a warp instruction is the k-th execution of one instruction by the
// lanes of a warp (converged execution: lanes that skip it, as on a
// divergent path, are simply not in it). See README.md, "Memory counters".
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_PTX_EMULATOR_PROFILE_H
#define ACCY_PTX_EMULATOR_PROFILE_H

#include "Program.h"

#include <cstdint>
#include <list>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace ptxemu {

/// Classes of warp instructions, as a performance model sees them.
enum class InstClass : uint8_t {
  Fma, // fma/mad on floats
  Alu, // other arithmetic, logic, conversion, moves, compares
  Sfu, // rcp, sqrt, rsqrt, ex2, lg2, sin, cos, tanh
  LoadStore,
  Shuffle,
  Barrier,
  Control, // branches, exit
  Tensor,  // mma.sync
  Count
};
const char *instClassName(InstClass c);
InstClass classify(const Inst &I);

/// One memory access of one thread.
struct Access {
  enum Kind : uint8_t {
    GlobalLoad,
    GlobalStore,
    GlobalAtomic,
    SharedLoad,
    SharedStore,
    SharedAtomic
  };
  uint32_t pc;
  uint32_t instance; // the thread's how-manieth execution of pc
  uint64_t address;  // global: the address; shared: the offset in the block's
  uint32_t bytes;
  Kind kind;
};

/// What one thread executed, when a launch is profiled.
struct ThreadTrace {
  std::vector<uint32_t> executions; // per pc
  std::vector<Access> accesses;
  void reset(size_t codeSize);
};

/// The counters of one launch. Requests and wavefronts are per warp
/// instruction; sectors are 32 bytes.
struct LaunchCounters {
  uint64_t instructions[static_cast<int>(InstClass::Count)] = {};
  uint64_t globalLoadRequests = 0, globalLoadSectors = 0;
  uint64_t globalStoreRequests = 0, globalStoreSectors = 0;
  uint64_t globalAtomicRequests = 0, globalAtomicSectors = 0;
  /// Bytes the lanes asked for (loads and stores), each once a request.
  uint64_t globalBytesRequested = 0;
  /// Distinct sectors the launch read and wrote: the DRAM traffic of a
  /// cache that never evicts.
  uint64_t distinctSectors = 0;
  /// Sectors of global loads the block's L1 held (they never reach the L2).
  uint64_t l1HitSectors = 0;
  /// Through the L2 model: sectors read from DRAM, sectors written back.
  uint64_t dramReadBytes = 0, dramWriteBytes = 0;
  /// Shared warp instructions, the wavefronts they took and the fewest
  /// they could have taken (one per 128 bytes of distinct words: 128-bit
  /// accesses of a warp take four however they fall), as Nsight Compute's
  /// "ideal" wavefronts; bank conflicts are the difference.
  uint64_t sharedRequests = 0, sharedWavefronts = 0, sharedIdealWavefronts = 0;
  /// Per PTX line of a global access: requests, sectors and bytes asked
  /// for, to find the instruction that wastes its sectors.
  struct LineCounters {
    uint64_t requests = 0, sectors = 0, bytes = 0;
  };
  std::map<uint32_t, LineCounters> globalLines;
  /// Per PTX line of a shared access: requests and their wavefronts, to
  /// find the instruction whose lanes conflict on banks.
  struct SharedLineCounters {
    uint64_t requests = 0, wavefronts = 0, idealWavefronts = 0;
  };
  std::map<uint32_t, SharedLineCounters> sharedLines;

  void add(const LaunchCounters &other);
  /// One line of JSON naming the kernel, its launch shape and what the
  /// PTX declares of its resources (registers, static shared memory).
  std::string toJson(const Entry &entry, const uint32_t grid[3],
                     const uint32_t block[3], uint32_t dynamicShared) const;
};

/// A cache, fully associative and LRU, of 128-byte lines that hold 32-byte
/// sectors: the L2 (and each block's L1). A read of a sector it lacks costs
/// 32 bytes from the level below; a write allocates without reading, and a
/// sector that becomes dirty costs 32 bytes of write-back (counted then, so
/// nothing is owed at eviction).
class SectorCache {
public:
  explicit SectorCache(uint64_t bytes);
  /// Sector `sector` (address / 32) read or written; whether it was there.
  bool access(uint64_t sector, bool write);
  /// Drops one sector (an L1's copy of what a store wrote to the L2).
  void invalidate(uint64_t sector);
  /// Empties the cache (its dirty sectors were counted when written).
  void clear();

  uint64_t readBytes = 0, writtenBytes = 0;

private:
  struct Line {
    std::list<uint64_t>::iterator position;
    uint8_t valid, dirty;
  };
  uint64_t capacity;
  std::list<uint64_t> order; // most recent first
  std::unordered_map<uint64_t, Line> lines;
};

/// Collects a launch's counters from the traces of its blocks, whatever
/// threads ran them, and orders the blocks' global sectors by block index
/// for the L2 model, so the result does not depend on the OS threads.
class LaunchProfile {
public:
  explicit LaunchProfile(uint64_t numBlocks) : blockSectors(numBlocks) {}

  /// Counts the warps of one block from its threads' traces (threads in
  /// block order, 32 to a warp). Safe to call from several threads for
  /// different blocks.
  void addBlock(uint64_t blockIndex, std::vector<ThreadTrace> &threads,
                const Entry &entry);

  /// The launch's counters, `l2` run over every block's sectors in block
  /// order: its DRAM bytes are what `l2` counted meanwhile.
  LaunchCounters finish(SectorCache &l2);

private:
  std::mutex mutex;
  LaunchCounters total; // guarded by mutex
  /// Per block, in program order: sector index << 1 | is a write. Each
  /// block writes only its own.
  std::vector<std::vector<uint64_t>> blockSectors;
};

/// The L2 of an H100/H200 (50 MiB), the size the model assumes.
inline constexpr uint64_t kH200L2Bytes = 50ull << 20;
/// The L1 a block has to itself in the model: an H100/H200 multiprocessor
/// has 256 KiB of L1 and shared memory together, shared by its blocks.
inline constexpr uint64_t kL1Bytes = 128ull << 10;

} // namespace ptxemu

#endif
