//===- Profile.cpp - Memory and instruction counters of a launch ----------===//

#include "Profile.h"

#include <algorithm>
#include <sstream>

using namespace ptxemu;

namespace {

constexpr uint32_t kWarpSize = 32;
constexpr uint64_t kSectorBytes = 32, kLineBytes = 128, kBanks = 32;

/// One access of a warp instruction: which lane made it, and where in the
/// lane's own sequence it came.
struct LaneAccess {
  const Access *access;
  uint32_t sequence;
};

/// The 32-byte sectors (global) or 4-byte words (shared) an access covers.
template <typename F> void forEachUnit(const Access &a, uint64_t unit, F &&f) {
  if (a.bytes == 0)
    return;
  for (uint64_t u = a.address / unit, e = (a.address + a.bytes - 1) / unit;
       u <= e; ++u)
    f(u);
}

bool isGlobal(Access::Kind kind) {
  return kind == Access::GlobalLoad || kind == Access::GlobalStore ||
         kind == Access::GlobalAtomic;
}

/// The bytes a warp instruction's lanes ask for, each once (lanes reading
/// one scalar ask for its bytes once).
uint64_t distinctBytes(const std::vector<LaneAccess> &group) {
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  for (const LaneAccess &lane : group)
    ranges.push_back(
        {lane.access->address, lane.access->address + lane.access->bytes});
  std::sort(ranges.begin(), ranges.end());
  uint64_t bytes = 0, end = 0;
  for (auto [first, last] : ranges) {
    first = std::max(first, end);
    if (last > first)
      bytes += last - first;
    end = std::max(end, last);
  }
  return bytes;
}

/// Counts one warp instruction's accesses (all of one kind) into `c`, and
/// appends the sectors a global instruction sends to the L2 to the block's
/// stream: a load's that the block's L1 lacks, every store's and atomic's
/// (the L1 writes through, dropping its copy).
void countWarpAccess(const std::vector<LaneAccess> &group, uint32_t line,
                     LaunchCounters &c, SectorCache &l1,
                     std::vector<uint64_t> &stream) {
  Access::Kind kind = group.front().access->kind;
  std::vector<uint64_t> units;
  bool global = isGlobal(kind);
  for (const LaneAccess &lane : group)
    forEachUnit(*lane.access, global ? kSectorBytes : 4,
                [&](uint64_t u) { units.push_back(u); });
  std::sort(units.begin(), units.end());
  units.erase(std::unique(units.begin(), units.end()), units.end());
  if (!global) {
    // Distinct words that fall in one bank are served one per wavefront;
    // the same word is a broadcast. A warp moves at most 128 bytes a
    // wavefront.
    uint64_t perBank[kBanks] = {};
    uint64_t worst = 0;
    for (uint64_t word : units)
      worst = std::max(worst, ++perBank[word % kBanks]);
    uint64_t minimum = (units.size() + kBanks - 1) / kBanks;
    uint64_t wavefronts = std::max(worst, minimum);
    ++c.sharedRequests;
    c.sharedWavefronts += wavefronts;
    c.sharedIdealWavefronts += minimum;
    LaunchCounters::SharedLineCounters &perLine = c.sharedLines[line];
    ++perLine.requests;
    perLine.wavefronts += wavefronts;
    perLine.idealWavefronts += minimum;
    return;
  }
  uint64_t bytes = distinctBytes(group);
  c.globalBytesRequested += bytes;
  LaunchCounters::LineCounters &perLine = c.globalLines[line];
  ++perLine.requests;
  perLine.sectors += units.size();
  perLine.bytes += bytes;
  switch (kind) {
  case Access::GlobalLoad:
    ++c.globalLoadRequests;
    c.globalLoadSectors += units.size();
    break;
  case Access::GlobalStore:
    ++c.globalStoreRequests;
    c.globalStoreSectors += units.size();
    break;
  default:
    ++c.globalAtomicRequests;
    c.globalAtomicSectors += units.size();
    break;
  }
  for (uint64_t sector : units) {
    if (kind == Access::GlobalLoad) {
      if (l1.access(sector, false))
        ++c.l1HitSectors;
      else
        stream.push_back(sector << 1);
      continue;
    }
    l1.invalidate(sector);
    // An atomic reads and writes its sector.
    if (kind == Access::GlobalAtomic)
      stream.push_back(sector << 1);
    stream.push_back(sector << 1 | 1);
  }
}

} // namespace

SectorCache::SectorCache(uint64_t bytes)
    : capacity(std::max<uint64_t>(1, bytes / kLineBytes)) {}

bool SectorCache::access(uint64_t sector, bool write) {
  constexpr uint64_t kSectorsPerLine = kLineBytes / kSectorBytes;
  uint64_t lineIndex = sector / kSectorsPerLine;
  uint8_t bit = uint8_t(1u << (sector % kSectorsPerLine));
  auto found = lines.find(lineIndex);
  if (found == lines.end()) {
    if (lines.size() == capacity) {
      lines.erase(order.back());
      order.pop_back();
    }
    order.push_front(lineIndex);
    found = lines.emplace(lineIndex, Line{order.begin(), 0, 0}).first;
  } else {
    order.splice(order.begin(), order, found->second.position);
  }
  Line &line = found->second;
  bool present = line.valid & bit;
  if (write && !(line.dirty & bit)) {
    writtenBytes += kSectorBytes;
    line.dirty |= bit;
  } else if (!write && !present) {
    readBytes += kSectorBytes;
  }
  line.valid |= bit;
  return present;
}

void SectorCache::invalidate(uint64_t sector) {
  constexpr uint64_t kSectorsPerLine = kLineBytes / kSectorBytes;
  auto found = lines.find(sector / kSectorsPerLine);
  if (found != lines.end())
    found->second.valid &= uint8_t(~(1u << (sector % kSectorsPerLine)));
}

void SectorCache::clear() {
  lines.clear();
  order.clear();
}

const char *ptxemu::instClassName(InstClass c) {
  switch (c) {
  case InstClass::Fma:
    return "fma";
  case InstClass::Alu:
    return "alu";
  case InstClass::Sfu:
    return "sfu";
  case InstClass::LoadStore:
    return "load_store";
  case InstClass::Shuffle:
    return "shuffle";
  case InstClass::Barrier:
    return "barrier";
  case InstClass::Control:
    return "control";
  case InstClass::Tensor:
    return "tensor";
  case InstClass::Count:
    break;
  }
  return "?";
}

InstClass ptxemu::classify(const Inst &I) {
  switch (I.op) {
  case Op::Fma:
    return InstClass::Fma;
  case Op::Mad:
    return isFloat(I.type) ? InstClass::Fma : InstClass::Alu;
  case Op::Rcp:
  case Op::Sqrt:
  case Op::Rsqrt:
  case Op::Ex2:
  case Op::Lg2:
  case Op::Sin:
  case Op::Cos:
  case Op::Tanh:
    return InstClass::Sfu;
  case Op::Ld:
  case Op::St:
  case Op::Atom:
  case Op::CpAsync:
  case Op::Ldmatrix:
    return InstClass::LoadStore;
  case Op::Shfl:
    return InstClass::Shuffle;
  case Op::Bar:
    return InstClass::Barrier;
  case Op::Bra:
  case Op::Exit:
    return InstClass::Control;
  case Op::Mma:
    return InstClass::Tensor;
  default:
    return InstClass::Alu;
  }
}

void ThreadTrace::reset(size_t codeSize) {
  executions.assign(codeSize, 0);
  accesses.clear();
}

void LaunchCounters::add(const LaunchCounters &o) {
  for (int i = 0; i < static_cast<int>(InstClass::Count); ++i)
    instructions[i] += o.instructions[i];
  globalLoadRequests += o.globalLoadRequests;
  globalLoadSectors += o.globalLoadSectors;
  globalStoreRequests += o.globalStoreRequests;
  globalStoreSectors += o.globalStoreSectors;
  globalAtomicRequests += o.globalAtomicRequests;
  globalAtomicSectors += o.globalAtomicSectors;
  globalBytesRequested += o.globalBytesRequested;
  l1HitSectors += o.l1HitSectors;
  distinctSectors += o.distinctSectors;
  dramReadBytes += o.dramReadBytes;
  dramWriteBytes += o.dramWriteBytes;
  sharedRequests += o.sharedRequests;
  for (const auto &[line, counters] : o.globalLines) {
    LineCounters &mine = globalLines[line];
    mine.requests += counters.requests;
    mine.sectors += counters.sectors;
    mine.bytes += counters.bytes;
  }
  for (const auto &[line, counters] : o.sharedLines) {
    SharedLineCounters &mine = sharedLines[line];
    mine.requests += counters.requests;
    mine.wavefronts += counters.wavefronts;
    mine.idealWavefronts += counters.idealWavefronts;
  }
  sharedWavefronts += o.sharedWavefronts;
  sharedIdealWavefronts += o.sharedIdealWavefronts;
}

std::string LaunchCounters::toJson(const Entry &entry, const uint32_t grid[3],
                                   const uint32_t block[3],
                                   uint32_t dynamicShared) const {
  std::ostringstream os;
  os << "{\"kernel\": \"" << entry.name << "\", \"grid\": [" << grid[0] << ", "
     << grid[1] << ", " << grid[2] << "], \"block\": [" << block[0] << ", "
     << block[1] << ", " << block[2]
     << "], \"ptx_registers\": " << entry.declaredRegisters
     << ", \"shared_bytes\": " << entry.staticShared + dynamicShared
     << ", \"instructions\": {";
  for (int i = 0; i < static_cast<int>(InstClass::Count); ++i)
    os << (i ? ", " : "") << "\"" << instClassName(static_cast<InstClass>(i))
       << "\": " << instructions[i];
  os << "}, \"global_load_requests\": " << globalLoadRequests
     << ", \"global_load_sectors\": " << globalLoadSectors
     << ", \"global_store_requests\": " << globalStoreRequests
     << ", \"global_store_sectors\": " << globalStoreSectors
     << ", \"global_atomic_requests\": " << globalAtomicRequests
     << ", \"global_atomic_sectors\": " << globalAtomicSectors
     << ", \"global_bytes_requested\": " << globalBytesRequested
     << ", \"l1_hit_sectors\": " << l1HitSectors
     << ", \"distinct_sector_bytes\": " << distinctSectors * kSectorBytes
     << ", \"dram_read_bytes\": " << dramReadBytes
     << ", \"dram_write_bytes\": " << dramWriteBytes
     << ", \"shared_requests\": " << sharedRequests
     << ", \"shared_wavefronts\": " << sharedWavefronts
     << ", \"shared_ideal_wavefronts\": " << sharedIdealWavefronts
     << ", \"global_lines\": [";
  bool first = true;
  for (const auto &[line, counters] : globalLines) {
    os << (first ? "" : ", ") << "{\"line\": " << line
       << ", \"requests\": " << counters.requests
       << ", \"sectors\": " << counters.sectors
       << ", \"bytes\": " << counters.bytes << "}";
    first = false;
  }
  os << "], \"shared_lines\": [";
  first = true;
  for (const auto &[line, counters] : sharedLines) {
    os << (first ? "" : ", ") << "{\"line\": " << line
       << ", \"requests\": " << counters.requests
       << ", \"wavefronts\": " << counters.wavefronts
       << ", \"ideal_wavefronts\": " << counters.idealWavefronts << "}";
    first = false;
  }
  os << "]}";
  return os.str();
}

void LaunchProfile::addBlock(uint64_t blockIndex,
                             std::vector<ThreadTrace> &threads,
                             const Entry &entry) {
  LaunchCounters c;
  SectorCache l1(kL1Bytes);
  std::vector<uint64_t> &stream = blockSectors[blockIndex];
  std::vector<LaneAccess> accesses;
  for (size_t first = 0; first < threads.size(); first += kWarpSize) {
    size_t last = std::min(first + kWarpSize, threads.size());
    // A warp issues an instruction as often as its busiest lane runs it.
    for (size_t pc = 0; pc < entry.code.size(); ++pc) {
      uint32_t issued = 0;
      for (size_t t = first; t < last; ++t)
        issued = std::max(issued, threads[t].executions[pc]);
      c.instructions[static_cast<int>(classify(entry.code[pc]))] += issued;
    }
    // The k-th execution of an access by each lane is one warp
    // instruction; instructions in the order their first lane made them.
    accesses.clear();
    for (size_t t = first; t < last; ++t)
      for (size_t i = 0; i < threads[t].accesses.size(); ++i)
        accesses.push_back({&threads[t].accesses[i], uint32_t(i)});
    auto sameInstruction = [](const LaneAccess &a, const LaneAccess &b) {
      return a.access->pc == b.access->pc &&
             a.access->instance == b.access->instance &&
             a.access->kind == b.access->kind;
    };
    std::sort(accesses.begin(), accesses.end(),
              [](const LaneAccess &a, const LaneAccess &b) {
                const Access &x = *a.access, &y = *b.access;
                if (x.pc != y.pc)
                  return x.pc < y.pc;
                if (x.instance != y.instance)
                  return x.instance < y.instance;
                if (x.kind != y.kind)
                  return x.kind < y.kind;
                return a.sequence < b.sequence;
              });
    std::vector<std::pair<uint32_t, std::vector<LaneAccess>>> groups;
    for (size_t i = 0; i < accesses.size(); ++i) {
      if (i == 0 || !sameInstruction(accesses[i - 1], accesses[i]))
        groups.push_back({accesses[i].sequence, {}});
      groups.back().first = std::min(groups.back().first, accesses[i].sequence);
      groups.back().second.push_back(accesses[i]);
    }
    std::stable_sort(
        groups.begin(), groups.end(),
        [](const auto &a, const auto &b) { return a.first < b.first; });
    for (const auto &group : groups)
      countWarpAccess(group.second,
                      entry.code[group.second.front().access->pc].line, c, l1,
                      stream);
  }
  std::lock_guard<std::mutex> lock(mutex);
  total.add(c);
}

LaunchCounters LaunchProfile::finish(SectorCache &l2) {
  LaunchCounters result = total;
  std::vector<uint64_t> distinct;
  uint64_t read = l2.readBytes, written = l2.writtenBytes;
  for (const std::vector<uint64_t> &stream : blockSectors)
    for (uint64_t entry : stream) {
      l2.access(entry >> 1, entry & 1);
      distinct.push_back(entry >> 1);
    }
  std::sort(distinct.begin(), distinct.end());
  result.distinctSectors =
      std::unique(distinct.begin(), distinct.end()) - distinct.begin();
  result.dramReadBytes = l2.readBytes - read;
  result.dramWriteBytes = l2.writtenBytes - written;
  return result;
}
