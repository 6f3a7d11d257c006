//===- MemoryModel.h - A kernel call's memory traffic on the PTX emulator -===//
//
// With --model the driver runs each case once on tests/tools/ptx-emulator's
// libcuda.so.1 with ACCY_PTX_EMULATOR_PROFILE pointing at a file of its
// own, and reads back what the emulator counted for every launch of that
// call: DRAM bytes through its L2 model, sectors, bank conflicts. Set
// beside the bytes the call must move, that says how far a kernel is from
// reading its inputs once and writing its outputs once, without a GPU.
// See the emulator's README ("Memory counters") for what is modelled.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_BENCH_GPU_MEMORYMODEL_H
#define ACCY_BENCH_GPU_MEMORYMODEL_H

#include "accy/Runtime.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace bench {

/// One launch of a call, as the emulator saw it.
struct ModelledLaunch {
  std::string kernel;
  int threads = 0;
  /// What the PTX declares (Occupancy.h says why that is an upper bound).
  int ptxRegisters = 0;
  int sharedBytes = 0;
};

/// The emulator's counters summed over every launch of one kernel call.
struct ModelledTraffic {
  /// The launches, in order.
  std::vector<ModelledLaunch> launches;
  /// The lowest sm_90 occupancy of the launches, and where their register
  /// counts came from ("ptxas", or "at least, PTX": the PTX's declared
  /// registers, a lower bound); -1 before it is estimated.
  double occupancy = -1;
  std::string occupancySource;
  uint64_t dramReadBytes = 0, dramWriteBytes = 0;
  uint64_t sectorBytes = 0; // 32 x the sectors of every global request
  uint64_t l2Bytes = 0;     // of those and atomics', what the L1 did not serve
  uint64_t bytesRequested = 0; // what the lanes asked for
  /// Shared requests, their wavefronts and the fewest they could take.
  uint64_t sharedRequests = 0, sharedWavefronts = 0, sharedIdealWavefronts = 0;

  uint64_t dramBytes() const { return dramReadBytes + dramWriteBytes; }
  /// Bytes used of the bytes in the sectors touched (1 when none).
  double sectorEfficiency() const;
  /// Shared-memory wavefronts beyond the ideal per request (bank
  /// conflicts; 0 without shared memory).
  double bankConflictRate() const;
};

/// Fills `t.occupancy`: registers from `ptxas` (entry name to registers)
/// where it has the kernel, else the PTX's declarations.
void estimateOccupancy(ModelledTraffic &t,
                       const std::map<std::string, int> &ptxas);

/// Runs `launch` once with the emulator counting into a file of this
/// process's, and sums what it wrote. An error when the launch fails or
/// nothing was counted (not the emulator: ACCY_DEVICE=cuda with its
/// libcuda.so.1 first on LD_LIBRARY_PATH).
accy::Status countLaunches(const std::function<accy::Status()> &launch,
                           ModelledTraffic &out);

} // namespace bench

#endif
