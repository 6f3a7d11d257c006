//===- Occupancy.h - How full a kernel keeps an sm_90 multiprocessor ------===//
//
// The theoretical occupancy CUDA's occupancy calculator gives for an H100
// or H200 (sm_90): resident warps over the 64 a multiprocessor holds, as
// limited by the block size, the registers (65,536 a multiprocessor,
// allocated 256 a warp) and the shared memory (228 KiB, 128-byte units,
// 1 KiB reserved a block). Registers come from `ptxas -v` when a CUDA
// toolkit is installed, else from what the PTX declares (an upper bound:
// NVVM's virtual registers), and the report says which.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_BENCH_GPU_OCCUPANCY_H
#define ACCY_BENCH_GPU_OCCUPANCY_H

#include "accy/Runtime.h"

#include <map>
#include <string>

namespace bench {

/// Resident warps of an sm_90 multiprocessor over 64, for blocks of
/// `threads` threads using `registers` registers a thread and
/// `sharedBytes` of shared memory a block; 0 when such a block cannot run.
double sm90Occupancy(int threads, int registers, int sharedBytes);

/// The ptxas to use: `choice` "none" gives "", "auto" looks in PATH,
/// $CUDA_HOME/bin and /usr/local/cuda/bin, anything else is the path.
std::string findPtxas(const std::string &choice);

/// `ptxas -arch=ARCH -v PTX`: registers a thread of each entry.
accy::Status ptxasRegisters(const std::string &ptxas, const std::string &ptx,
                            const std::string &arch,
                            std::map<std::string, int> &out);

} // namespace bench

#endif
