//===- HostCall.h - Running the host object's kernels on many threads -----===//
//
// The reference results come from the same kernels compiled for the host:
// the host object's C interface `_mlir_ciface_K` (docs/abi.md), which the
// runtime calls when ACCY_DEVICE=host. The benchmark calls it directly so
// that it can run on every core at once: a kernel whose rows are
// independent (softmax, layer norm, cumsum, the elementwise chain, `@`)
// runs on slices of rows, one call per slice, in parallel. The functions
// keep no state and are reentrant (docs/abi.md).
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_BENCH_GPU_HOSTCALL_H
#define ACCY_BENCH_GPU_HOSTCALL_H

#include <cstdint>
#include <functional>
#include <vector>

namespace bench {

/// The strided memref descriptor of a dense row-major tensor at `data`:
/// {allocated, aligned, offset, sizes[R], strides[R]}, 8-byte fields.
class Descriptor {
public:
  Descriptor(const void *data, const std::vector<int64_t> &sizes);
  void *get() { return words.data(); }

private:
  std::vector<int64_t> words;
};

/// Threads for host work: the machine's cores.
unsigned hostThreads();

/// Splits [0, count) into contiguous chunks whose bounds are multiples of
/// `granule` (but the last) and runs body(first, last) on each, on up to
/// hostThreads() threads; returns when all are done.
void forEachChunk(int64_t count, int64_t granule,
                  const std::function<void(int64_t, int64_t)> &body);

/// Rows per slice so that every slice of rows of `rowElements` elements of
/// `elementBytes` each starts 16-byte aligned, as the host object requires.
int64_t alignedRowGranule(int64_t rowElements, int64_t elementBytes);

} // namespace bench

#endif
