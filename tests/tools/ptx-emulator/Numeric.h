//===- Numeric.h - Floating-point formats and rounding for the emulator ---===//
//
// PTX computes in f16, bf16, f32 and f64 with explicit rounding modes; the
// host has no native f16/bf16 and rounds only to nearest. These helpers
// convert between the formats bit-exactly (round to nearest even by
// default, or toward zero / -inf / +inf) so cvt, f16 arithmetic and the
// rounding modifiers mean what they mean on the GPU.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_PTX_EMULATOR_NUMERIC_H
#define ACCY_PTX_EMULATOR_NUMERIC_H

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace ptxemu {

enum class Round : uint8_t { Default, RN, RZ, RM, RP, RNI, RZI, RMI, RPI };

inline float bitsToF32(uint64_t bits) {
  uint32_t b = static_cast<uint32_t>(bits);
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
inline uint64_t f32ToBits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
inline double bitsToF64(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}
inline uint64_t f64ToBits(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}

/// A binary floating-point format narrower than double.
struct Format {
  int mantissaBits; // explicit fraction bits
  int exponentBits;
  int bias() const { return (1 << (exponentBits - 1)) - 1; }
  int minExponent() const { return 1 - bias(); }
  int maxExponent() const { return bias(); }
};
constexpr Format kHalf{10, 5};
constexpr Format kBFloat{7, 8};
constexpr Format kSingle{23, 8};

/// The value of `bits` in `format`, exactly.
inline double decode(Format format, uint64_t bits) {
  int total = 1 + format.exponentBits + format.mantissaBits;
  bool sign = (bits >> (total - 1)) & 1;
  uint64_t exponent = (bits >> format.mantissaBits) &
                      ((uint64_t(1) << format.exponentBits) - 1);
  uint64_t mantissa = bits & ((uint64_t(1) << format.mantissaBits) - 1);
  double value;
  if (exponent == (uint64_t(1) << format.exponentBits) - 1)
    value = mantissa ? NAN : INFINITY;
  else if (exponent == 0)
    value = std::ldexp(double(mantissa),
                       format.minExponent() - format.mantissaBits);
  else
    value = std::ldexp(double(mantissa | (uint64_t(1) << format.mantissaBits)),
                       int(exponent) - format.bias() - format.mantissaBits);
  return sign ? -value : value;
}

/// `value` rounded to `format` by `mode` (RN/Default: nearest even).
inline uint64_t encode(Format format, double value, Round mode = Round::RN) {
  int total = 1 + format.exponentBits + format.mantissaBits;
  uint64_t signBit = uint64_t(1) << (total - 1);
  uint64_t expAll = (uint64_t(1) << format.exponentBits) - 1;
  uint64_t infBits = expAll << format.mantissaBits;
  if (std::isnan(value)) // canonical quiet NaN, as the GPU produces
    return infBits | (uint64_t(1) << (format.mantissaBits - 1)) |
           ((uint64_t(1) << (format.mantissaBits - 1)) - 1);
  bool negative = std::signbit(value);
  uint64_t sign = negative ? signBit : 0;
  double a = std::fabs(value);
  uint64_t maxFinite = infBits - 1;
  if (std::isinf(a))
    return sign | infBits;
  if (a == 0)
    return sign;
  int e;
  std::frexp(a, &e);
  int exponent = e - 1;
  if (exponent < format.minExponent())
    exponent = format.minExponent();
  double scaled = std::ldexp(a, format.mantissaBits - exponent);
  double r;
  switch (mode) {
  case Round::RZ: r = std::trunc(scaled); break;
  case Round::RM: r = negative ? std::ceil(scaled) : std::floor(scaled); break;
  case Round::RP: r = negative ? std::floor(scaled) : std::ceil(scaled); break;
  default: r = std::nearbyint(scaled); break;
  }
  double rounded = std::ldexp(r, exponent - format.mantissaBits);
  if (rounded == 0)
    return sign;
  std::frexp(rounded, &e);
  int re = e - 1;
  if (re > format.maxExponent()) {
    bool toInf = mode == Round::RN || mode == Round::Default ||
                 (mode == Round::RM && negative) ||
                 (mode == Round::RP && !negative);
    return sign | (toInf ? infBits : maxFinite);
  }
  if (re < format.minExponent()) // subnormal
    return sign | uint64_t(std::ldexp(rounded, format.mantissaBits -
                                                   format.minExponent()));
  uint64_t mantissa =
      uint64_t(std::ldexp(rounded, format.mantissaBits - re)) -
      (uint64_t(1) << format.mantissaBits);
  return sign | (uint64_t(re + format.bias()) << format.mantissaBits) |
         mantissa;
}

inline double halfToDouble(uint64_t bits) { return decode(kHalf, bits & 0xffff); }
inline double bf16ToDouble(uint64_t bits) { return decode(kBFloat, bits & 0xffff); }
inline uint64_t doubleToHalf(double v, Round mode = Round::RN) {
  return encode(kHalf, v, mode);
}
inline uint64_t doubleToBf16(double v, Round mode = Round::RN) {
  return encode(kBFloat, v, mode);
}
inline float doubleToF32(double v, Round mode) {
  if (mode == Round::RN || mode == Round::Default)
    return static_cast<float>(v);
  if (std::isnan(v))
    return static_cast<float>(v);
  return bitsToF32(encode(kSingle, v, mode));
}

/// Rounds to an integral value by an integer rounding mode (rni/rzi/...).
inline double roundIntegral(double v, Round mode) {
  switch (mode) {
  case Round::RZI: return std::trunc(v);
  case Round::RMI: return std::floor(v);
  case Round::RPI: return std::ceil(v);
  default: return std::nearbyint(v);
  }
}

/// Flushes a subnormal f32 to a zero of the same sign (.ftz).
inline float flushSubnormal(float f) {
  return std::fpclassify(f) == FP_SUBNORMAL ? std::copysign(0.0f, f) : f;
}

} // namespace ptxemu

#endif
