//===- HostKernels.cpp - Calling host objects through the C interface -----===//

#include "HostKernels.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

using namespace accy::e2e;

const char *accy::e2e::name(Elem elem) {
  static const char *names[] = {"f16", "bf16", "f32", "f64",
                                "i32", "i64",  "bool"};
  return names[static_cast<int>(elem)];
}

bool accy::e2e::isFloat(Elem elem) {
  return elem == Elem::F16 || elem == Elem::BF16 || elem == Elem::F32 ||
         elem == Elem::F64;
}

size_t accy::e2e::byteWidth(Elem elem) {
  static const size_t widths[] = {2, 2, 4, 8, 4, 8, 1};
  return widths[static_cast<int>(elem)];
}

/// `value` rounded to a binary format with `mantissa` explicit bits and
/// exponents down to `minExponent` (subnormals below), overflowing past
/// `maxFinite`; round to nearest even.
static double roundToFormat(double value, int mantissa, int minExponent,
                            double maxFinite) {
  if (!std::isfinite(value) || value == 0)
    return value;
  int exponent = std::max(std::ilogb(value), minExponent);
  double quantum = std::ldexp(1.0, exponent - mantissa);
  double rounded = std::nearbyint(value / quantum) * quantum;
  if (std::abs(rounded) > maxFinite)
    return std::copysign(INFINITY, value);
  return rounded;
}

double accy::e2e::roundTo(Elem elem, double value) {
  switch (elem) {
  case Elem::F16:
    return roundToFormat(value, 10, -14, 65504.0);
  case Elem::BF16:
    return roundToFormat(value, 7, -126, 3.3895313892515355e38);
  case Elem::F32:
    return static_cast<float>(value);
  case Elem::F64:
    return value;
  case Elem::I32:
  case Elem::I64:
    // Not through int64_t: the double nearest a large i64 may be 2^63.
    return std::trunc(value);
  case Elem::Bool:
    return value != 0 ? 1.0 : 0.0;
  }
  return value;
}

double accy::e2e::ulp(Elem elem) {
  static const double ulps[] = {0x1p-10, 0x1p-7, 0x1p-23, 0x1p-52, 1, 1, 1};
  return ulps[static_cast<int>(elem)];
}

Tensor Tensor::zeros(std::vector<int64_t> shape, Elem elem) {
  Tensor t;
  t.shape = std::move(shape);
  t.elem = elem;
  t.data.assign(t.numel(), 0.0);
  return t;
}

Tensor Tensor::random(std::vector<int64_t> shape, std::mt19937 &rng, double lo,
                      double hi, Elem elem) {
  Tensor t = zeros(std::move(shape), elem);
  if (isFloat(elem)) {
    std::uniform_real_distribution<double> dist(lo, hi);
    for (double &v : t.data)
      v = roundTo(elem, dist(rng));
    return t;
  }
  std::uniform_int_distribution<int64_t> dist(
      elem == Elem::Bool ? 0 : static_cast<int64_t>(lo),
      elem == Elem::Bool ? 1 : static_cast<int64_t>(hi));
  for (double &v : t.data)
    v = static_cast<double>(dist(rng));
  return t;
}

int64_t Tensor::numel() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::vector<int64_t> Tensor::strides() const {
  std::vector<int64_t> s(shape.size(), 1);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i)
    s[i] = s[i + 1] * shape[i + 1];
  return s;
}

double &Tensor::at(const std::vector<int64_t> &index) {
  int64_t flat = 0;
  std::vector<int64_t> s = strides();
  for (size_t i = 0; i < index.size(); ++i)
    flat += index[i] * s[i];
  return data[flat];
}

double Tensor::at(const std::vector<int64_t> &index) const {
  return const_cast<Tensor *>(this)->at(index);
}

/// The IEEE half or bfloat16 encoding of a value already of that type.
static uint16_t encode16(Elem elem, double value) {
  if (elem == Elem::BF16) {
    float f = static_cast<float>(value); // exact: bf16 is a prefix of f32
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return static_cast<uint16_t>(bits >> 16);
  }
  uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  double a = std::abs(value);
  if (std::isnan(a))
    return 0x7e00;
  if (std::isinf(a))
    return sign | 0x7c00;
  if (a < 0x1p-14) // subnormal (or zero): a multiple of 2^-24
    return sign | static_cast<uint16_t>(a * 0x1p24);
  int e = std::ilogb(a);
  uint16_t mantissa = static_cast<uint16_t>(std::ldexp(a, 10 - e) - 1024);
  return sign | static_cast<uint16_t>((e + 15) << 10) | mantissa;
}

static double decode16(Elem elem, uint16_t bits) {
  if (elem == Elem::BF16) {
    uint32_t wide = static_cast<uint32_t>(bits) << 16;
    float f;
    std::memcpy(&f, &wide, 4);
    return f;
  }
  double sign = bits & 0x8000 ? -1 : 1;
  int e = (bits >> 10) & 0x1f;
  int m = bits & 0x3ff;
  if (e == 0x1f)
    return m ? NAN : sign * INFINITY;
  if (e == 0)
    return sign * std::ldexp(m, -24);
  return sign * std::ldexp(m + 1024, e - 25);
}

namespace {
/// How an element type is held in memory: its C type, and the conversions
/// from and to the doubles a Tensor holds.
template <typename T> struct Plain {
  using Storage = T;
  static T encode(Elem, double v) { return static_cast<T>(v); }
  static double decode(Elem, T v) { return static_cast<double>(v); }
};
struct Bits16 {
  using Storage = uint16_t;
  static uint16_t encode(Elem elem, double v) { return encode16(elem, v); }
  static double decode(Elem elem, uint16_t v) { return decode16(elem, v); }
};
} // namespace

/// Calls `f` with the codec of `elem`.
template <typename F> static void withCodec(Elem elem, F &&f) {
  switch (elem) {
  case Elem::F16:
  case Elem::BF16:
    return f(Bits16());
  case Elem::F32:
    return f(Plain<float>());
  case Elem::F64:
    return f(Plain<double>());
  case Elem::I32:
    return f(Plain<int32_t>());
  case Elem::I64:
    return f(Plain<int64_t>());
  case Elem::Bool:
    return f(Plain<uint8_t>());
  }
}

/// Bytes before and after each buffer that a kernel must leave alone (a
/// multiple of 16, so that elements stay 16-byte aligned), and their value.
constexpr size_t kGuardBytes = 64;
constexpr unsigned char kGuard = 0xa5;

/// Bytes of `t`'s elements in memory (at least one element's worth).
static size_t elementBytes(const Tensor &t) {
  return std::max<size_t>(t.data.size(), 1) * byteWidth(t.elem);
}

/// A tensor's elements in memory, as the kernel reads and writes them,
/// between guard bytes. An output's elements are all ones instead (NaN, -1,
/// an invalid bool): an element the kernel does not write shows.
static std::vector<unsigned char> store(const Tensor &t, bool isOutput) {
  std::vector<unsigned char> bytes(kGuardBytes + elementBytes(t) + kGuardBytes,
                                   kGuard);
  if (isOutput) {
    std::fill_n(bytes.begin() + kGuardBytes, elementBytes(t), 0xff);
    return bytes;
  }
  withCodec(t.elem, [&](auto codec) {
    using Codec = decltype(codec);
    for (size_t i = 0; i < t.data.size(); ++i) {
      typename Codec::Storage v = Codec::encode(t.elem, t.data[i]);
      std::memcpy(bytes.data() + kGuardBytes + i * sizeof(v), &v, sizeof(v));
    }
  });
  return bytes;
}

static void load(Tensor &t, const std::vector<unsigned char> &bytes) {
  withCodec(t.elem, [&](auto codec) {
    using Codec = decltype(codec);
    for (size_t i = 0; i < t.data.size(); ++i) {
      typename Codec::Storage v;
      std::memcpy(&v, bytes.data() + kGuardBytes + i * sizeof(v), sizeof(v));
      t.data[i] = Codec::decode(t.elem, v);
    }
  });
}

/// The memref descriptor of a buffer of `t`'s shape.
static std::vector<int64_t> describe(const Tensor &t,
                                     std::vector<unsigned char> &bytes) {
  void *ptr = bytes.data() + kGuardBytes;
  int64_t word;
  std::memcpy(&word, &ptr, sizeof(word));
  std::vector<int64_t> words = {word, word, 0};
  for (int64_t d : t.shape)
    words.push_back(d);
  for (int64_t s : t.strides())
    words.push_back(s);
  return words;
}

namespace {
constexpr size_t kMaxArguments = 16;
using Caller = void (*)(void *, void *const *);

/// Calls `function` with the first N of `args`.
template <size_t N> struct CallWith {
  template <size_t... I>
  static void expand(void *function, void *const *args,
                     std::index_sequence<I...>) {
    using Fn = void (*)(decltype((void)I, static_cast<void *>(nullptr))...);
    reinterpret_cast<Fn>(function)(args[I]...);
  }
  static void call(void *function, void *const *args) {
    expand(function, args, std::make_index_sequence<N>());
  }
};

template <size_t... N>
constexpr std::array<Caller, sizeof...(N)> callers(std::index_sequence<N...>) {
  return {&CallWith<N>::call...};
}
} // namespace

void accy::e2e::callKernel(void *function, std::vector<Tensor *> inputs,
                           std::vector<Tensor *> outputs) {
  std::vector<Tensor *> all = inputs;
  all.insert(all.end(), outputs.begin(), outputs.end());
  if (all.size() > kMaxArguments)
    throw std::logic_error("callKernel: too many arguments");
  std::vector<std::vector<unsigned char>> buffers;
  std::vector<std::vector<int64_t>> descriptors;
  buffers.reserve(all.size());
  for (size_t i = 0; i < all.size(); ++i) {
    buffers.push_back(store(*all[i], /*isOutput=*/i >= inputs.size()));
    descriptors.push_back(describe(*all[i], buffers.back()));
  }
  std::vector<std::vector<unsigned char>> before(
      buffers.begin(), buffers.begin() + inputs.size());
  std::vector<void *> args;
  for (std::vector<int64_t> &d : descriptors)
    args.push_back(d.data());
  static constexpr auto table =
      callers(std::make_index_sequence<kMaxArguments + 1>());
  table[args.size()](function, args.data());
  // docs/abi.md: inputs are never written, and nothing past a buffer is.
  for (size_t i = 0; i < all.size(); ++i) {
    const std::vector<unsigned char> &bytes = buffers[i];
    if (i < inputs.size() && bytes != before[i])
      throw std::runtime_error("the kernel wrote into input " +
                               std::to_string(i));
    auto untouched = [](auto begin, auto end) {
      return std::all_of(begin, end,
                         [](unsigned char b) { return b == kGuard; });
    };
    if (!untouched(bytes.begin(), bytes.begin() + kGuardBytes) ||
        !untouched(bytes.end() - kGuardBytes, bytes.end()))
      throw std::runtime_error("the kernel wrote outside argument " +
                               std::to_string(i));
  }
  for (size_t i = inputs.size(); i < all.size(); ++i)
    load(*all[i], buffers[i]);
}
