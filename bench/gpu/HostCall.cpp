//===- HostCall.cpp - Descriptors and parallel slices ----------------------===//

#include "HostCall.h"

#include <algorithm>
#include <atomic>
#include <numeric>
#include <thread>

using namespace bench;

Descriptor::Descriptor(const void *data, const std::vector<int64_t> &sizes) {
  auto address = static_cast<int64_t>(reinterpret_cast<intptr_t>(data));
  words = {address, address, 0};
  words.insert(words.end(), sizes.begin(), sizes.end());
  std::vector<int64_t> strides(sizes.size());
  int64_t stride = 1;
  for (size_t d = sizes.size(); d-- > 0;) {
    strides[d] = stride;
    stride *= sizes[d];
  }
  words.insert(words.end(), strides.begin(), strides.end());
}

unsigned bench::hostThreads() {
  return std::max(1u, std::thread::hardware_concurrency());
}

void bench::forEachChunk(int64_t count, int64_t granule,
                         const std::function<void(int64_t, int64_t)> &body) {
  if (count <= 0)
    return;
  int64_t units = (count + granule - 1) / granule;
  // A few chunks per thread even out rows of unequal cost.
  int64_t chunks = std::min<int64_t>(units, int64_t(hostThreads()) * 4);
  int64_t unitsPerChunk = (units + chunks - 1) / chunks;
  std::vector<std::pair<int64_t, int64_t>> ranges;
  for (int64_t u = 0; u < units; u += unitsPerChunk)
    ranges.push_back({u * granule, std::min(count, (u + unitsPerChunk) * granule)});
  if (ranges.size() == 1) {
    body(ranges[0].first, ranges[0].second);
    return;
  }
  std::atomic_size_t next{0};
  std::vector<std::thread> threads;
  size_t numThreads = std::min<size_t>(hostThreads(), ranges.size());
  for (size_t t = 0; t < numThreads; ++t)
    threads.emplace_back([&] {
      for (size_t i = next++; i < ranges.size(); i = next++)
        body(ranges[i].first, ranges[i].second);
    });
  for (std::thread &thread : threads)
    thread.join();
}

int64_t bench::alignedRowGranule(int64_t rowElements, int64_t elementBytes) {
  int64_t rowBytes = rowElements * elementBytes;
  if (rowBytes == 0)
    return 1;
  return 16 / std::gcd(rowBytes, int64_t(16));
}
