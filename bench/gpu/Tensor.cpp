//===- Tensor.cpp - Shapes and reproducible random inputs ------------------===//

#include "Tensor.h"
#include "HostCall.h"

#include <random>

using namespace bench;

int64_t bench::numel(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t s : shape)
    n *= s;
  return n;
}

std::string bench::shapeText(const std::vector<int64_t> &shape) {
  std::string text;
  for (int64_t s : shape)
    text += (text.empty() ? "" : "x") + std::to_string(s);
  return text.empty() ? "scalar" : text;
}

namespace {
/// Fills [begin, end) of `values` with draw(rng), a generator per fixed
/// block of elements, so the values do not depend on the thread count.
template <typename T, typename Draw>
void fillBlocks(std::vector<T> &values, uint64_t seed, Draw draw) {
  constexpr int64_t kBlock = 1 << 16;
  int64_t blocks = (static_cast<int64_t>(values.size()) + kBlock - 1) / kBlock;
  forEachChunk(blocks, 1, [&](int64_t first, int64_t last) {
    for (int64_t b = first; b < last; ++b) {
      std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(b));
      size_t end = std::min(values.size(), static_cast<size_t>((b + 1) * kBlock));
      for (size_t i = static_cast<size_t>(b * kBlock); i < end; ++i)
        values[i] = draw(rng);
    }
  });
}
} // namespace

void bench::fillUniform(std::vector<float> &values, float lo, float hi,
                        uint64_t seed) {
  fillBlocks(values, seed, [lo, hi](std::mt19937_64 &rng) {
    return std::uniform_real_distribution<float>(lo, hi)(rng);
  });
}

void bench::fillLabels(std::vector<int32_t> &labels, int32_t classes,
                       uint64_t seed) {
  fillBlocks(labels, seed, [classes](std::mt19937_64 &rng) {
    return std::uniform_int_distribution<int32_t>(0, classes - 1)(rng);
  });
}
