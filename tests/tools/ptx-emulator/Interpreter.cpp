//===- Interpreter.cpp - Executes one PTX thread --------------------------===//
//
// A switch over pre-decoded instructions. Registers are 64-bit slots; a
// value of a narrower type is kept zero-extended and every read casts to
// the width the instruction's type says (sign-extending for .sN), so one
// file serves every register class. f16/bf16 arithmetic is computed in
// double and rounded once to the format; f32 and f64 use the host's IEEE
// arithmetic (round to nearest), approximate functions use libm.
//
//===----------------------------------------------------------------------===//
#include "Interpreter.h"
#include "Profile.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <mutex>

using namespace ptxemu;

namespace {

inline uint64_t mask(int bits) {
  return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
}
inline int64_t signExtend(uint64_t v, int bits) {
  if (bits >= 64)
    return static_cast<int64_t>(v);
  int shift = 64 - bits;
  return static_cast<int64_t>(v << shift) >> shift;
}

/// A float operand of any float type as a double (exact).
inline double toDouble(Type t, uint64_t bits) {
  switch (t) {
  case Type::F16: return halfToDouble(bits);
  case Type::BF16: return bf16ToDouble(bits);
  case Type::F32: return bitsToF32(bits);
  default: return bitsToF64(bits);
  }
}
/// A double rounded to nearest in float type `t`, as bits.
inline uint64_t fromDouble(Type t, double v, Round mode = Round::RN) {
  switch (t) {
  case Type::F16: return doubleToHalf(v, mode);
  case Type::BF16: return doubleToBf16(v, mode);
  case Type::F32: return f32ToBits(doubleToF32(v, mode));
  default: return f64ToBits(v);
  }
}
inline double saturate(double v) {
  if (std::isnan(v))
    return 0;
  return v < 0 ? 0.0 : v > 1 ? 1.0 : v;
}

std::mutex atomicMutex;

/// Integer operand as int64 (sign-extended for .s types, else zero-extended).
inline int64_t intValue(Type t, uint64_t bits) {
  int w = bitWidth(t);
  return isSigned(t) ? signExtend(bits, w) : static_cast<int64_t>(bits & mask(w));
}

uint64_t convert(const Inst &I, uint64_t bits) {
  Type d = I.type, s = I.type2;
  int dw = bitWidth(d);
  if (isFloat(s)) {
    double v = toDouble(s, bits);
    if (I.ftz && s == Type::F32)
      v = flushSubnormal(static_cast<float>(v));
    if (isFloat(d)) {
      if (I.round >= Round::RNI)
        v = roundIntegral(v, I.round);
      if (I.sat)
        v = saturate(v);
      Round mode = I.round >= Round::RNI ? Round::RN : I.round;
      uint64_t out = fromDouble(d, v, mode);
      if (I.ftz && d == Type::F32)
        out = f32ToBits(flushSubnormal(bitsToF32(out)));
      return out;
    }
    if (std::isnan(v))
      return 0;
    v = roundIntegral(v, I.round);
    if (isSigned(d)) {
      double lo = -std::ldexp(1.0, dw - 1), hi = std::ldexp(1.0, dw - 1);
      int64_t r = v <= lo ? static_cast<int64_t>(lo)
                  : v >= hi ? static_cast<int64_t>(mask(dw - 1))
                            : static_cast<int64_t>(v);
      if (v <= lo)
        r = dw == 64 ? INT64_MIN : -(int64_t(1) << (dw - 1));
      return static_cast<uint64_t>(r) & mask(dw);
    }
    double hi = std::ldexp(1.0, dw);
    if (v <= 0)
      return 0;
    if (v >= hi)
      return mask(dw);
    return static_cast<uint64_t>(v);
  }
  // Integer source.
  int sw = bitWidth(s);
  bool sSigned = isSigned(s);
  int64_t sv = signExtend(bits, sw);
  uint64_t uv = bits & mask(sw);
  if (isFloat(d)) {
    Round mode = I.round == Round::Default ? Round::RN : I.round;
    if (d == Type::F32 && mode == Round::RN)
      return f32ToBits(sSigned ? static_cast<float>(sv) : static_cast<float>(uv));
    if (d == Type::F64 && mode == Round::RN)
      return f64ToBits(sSigned ? static_cast<double>(sv) : static_cast<double>(uv));
    double v = sSigned ? static_cast<double>(sv) : static_cast<double>(uv);
    if (d == Type::F64)
      return f64ToBits(v);
    return fromDouble(d, v, mode);
  }
  if (I.sat) {
    // Clamp the source value to the destination's range.
    if (isSigned(d)) {
      int64_t lo = dw == 64 ? INT64_MIN : -(int64_t(1) << (dw - 1));
      int64_t hi = dw == 64 ? INT64_MAX : (int64_t(1) << (dw - 1)) - 1;
      if (sSigned) {
        sv = std::min(std::max(sv, lo), hi);
        return static_cast<uint64_t>(sv) & mask(dw);
      }
      return (uv > static_cast<uint64_t>(hi) ? static_cast<uint64_t>(hi) : uv) &
             mask(dw);
    }
    if (sSigned && sv < 0)
      return 0;
    uint64_t value = sSigned ? static_cast<uint64_t>(sv) : uv;
    return value > mask(dw) ? mask(dw) : value;
  }
  uint64_t value = sSigned ? static_cast<uint64_t>(sv) : uv;
  return value & mask(dw);
}

bool compare(Cmp cmp, Type t, uint64_t a, uint64_t b) {
  if (isFloat(t)) {
    double x = toDouble(t, a), y = toDouble(t, b);
    bool unordered = std::isnan(x) || std::isnan(y);
    switch (cmp) {
    case Cmp::Eq: return !unordered && x == y;
    case Cmp::Ne: return !unordered && x != y;
    case Cmp::Lt: return !unordered && x < y;
    case Cmp::Le: return !unordered && x <= y;
    case Cmp::Gt: return !unordered && x > y;
    case Cmp::Ge: return !unordered && x >= y;
    case Cmp::Equ: return unordered || x == y;
    case Cmp::Neu: return unordered || x != y;
    case Cmp::Ltu: return unordered || x < y;
    case Cmp::Leu: return unordered || x <= y;
    case Cmp::Gtu: return unordered || x > y;
    case Cmp::Geu: return unordered || x >= y;
    case Cmp::Num: return !unordered;
    case Cmp::Nan: return unordered;
    default: return false;
    }
  }
  int w = bitWidth(t);
  uint64_t ua = a & mask(w), ub = b & mask(w);
  int64_t sa = signExtend(a, w), sb = signExtend(b, w);
  bool s = isSigned(t);
  switch (cmp) {
  case Cmp::Eq: return ua == ub;
  case Cmp::Ne: return ua != ub;
  case Cmp::Lt: return s ? sa < sb : ua < ub;
  case Cmp::Le: return s ? sa <= sb : ua <= ub;
  case Cmp::Gt: return s ? sa > sb : ua > ub;
  case Cmp::Ge: return s ? sa >= sb : ua >= ub;
  case Cmp::Lo: return ua < ub;
  case Cmp::Ls: return ua <= ub;
  case Cmp::Hi: return ua > ub;
  case Cmp::Hs: return ua >= ub;
  default: return false;
  }
}

/// f32 results of .ftz/.sat instructions.
inline float finishF32(const Inst &I, float v) {
  if (I.ftz)
    v = flushSubnormal(v);
  if (I.sat)
    v = static_cast<float>(saturate(v));
  return v;
}
inline float inF32(const Inst &I, uint64_t bits) {
  float v = bitsToF32(bits);
  return I.ftz ? flushSubnormal(v) : v;
}

/// A float binary or ternary operation in the instruction's type.
template <typename F32Op, typename F64Op>
inline uint64_t floatOp(const Inst &I, const uint64_t *r, F32Op f32, F64Op f64) {
  switch (I.type) {
  case Type::F32: {
    float v = f32(inF32(I, r[I.src[0]]), inF32(I, r[I.src[1]]),
                  inF32(I, r[I.src[2]]));
    return f32ToBits(finishF32(I, v));
  }
  case Type::F64: {
    double v = f64(bitsToF64(r[I.src[0]]), bitsToF64(r[I.src[1]]),
                   bitsToF64(r[I.src[2]]));
    if (I.sat)
      v = saturate(v);
    return f64ToBits(v);
  }
  default: { // f16, bf16: exact in double, rounded once
    double v = f64(toDouble(I.type, r[I.src[0]]), toDouble(I.type, r[I.src[1]]),
                   toDouble(I.type, r[I.src[2]]));
    if (I.sat)
      v = saturate(v);
    return fromDouble(I.type, v);
  }
  }
}

template <typename T> T fminNum(T a, T b) { return std::fmin(a, b); }
template <typename T> T fmaxNum(T a, T b) { return std::fmax(a, b); }

/// min.NaN and max.NaN: a NaN operand gives NaN, and -0.0 is below +0.0
/// (IEEE 754-2019 minimum and maximum, LLVM's llvm.minimum/llvm.maximum).
template <typename T> T fminimum(T a, T b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<T>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
template <typename T> T fmaximum(T a, T b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<T>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

uint64_t bitReverse(uint64_t v, int w) {
  uint64_t out = 0;
  for (int i = 0; i < w; ++i)
    if (v >> i & 1)
      out |= uint64_t(1) << (w - 1 - i);
  return out;
}

bool atomic(const BlockEnv &env, const Inst &I, uint64_t *r, uint8_t *p) {
  std::lock_guard<std::mutex> lock(atomicMutex);
  int w = bitWidth(I.type);
  uint64_t old = 0;
  std::memcpy(&old, p, w / 8);
  uint64_t b = r[I.src[1]], c = r[I.src[2]], out = old;
  switch (I.atom) {
  case AtomOp::Add:
    if (I.type == Type::F32)
      out = f32ToBits(bitsToF32(old) + bitsToF32(b));
    else if (I.type == Type::F64)
      out = f64ToBits(bitsToF64(old) + bitsToF64(b));
    else
      out = old + b;
    break;
  case AtomOp::Min:
  case AtomOp::Max: {
    bool isMin = I.atom == AtomOp::Min;
    if (I.type == Type::F32) {
      float x = bitsToF32(old), y = bitsToF32(b);
      out = f32ToBits(isMin ? std::fmin(x, y) : std::fmax(x, y));
    } else if (isSigned(I.type)) {
      int64_t x = signExtend(old, w), y = signExtend(b, w);
      out = static_cast<uint64_t>(isMin ? std::min(x, y) : std::max(x, y));
    } else {
      uint64_t x = old & mask(w), y = b & mask(w);
      out = isMin ? std::min(x, y) : std::max(x, y);
    }
    break;
  }
  case AtomOp::Exch: out = b; break;
  case AtomOp::Cas: out = (old & mask(w)) == (b & mask(w)) ? c : old; break;
  case AtomOp::And: out = old & b; break;
  case AtomOp::Or: out = old | b; break;
  case AtomOp::Xor: out = old ^ b; break;
  case AtomOp::Inc:
    out = (old & mask(w)) >= (b & mask(w)) ? 0 : old + 1;
    break;
  case AtomOp::Dec:
    out = ((old & mask(w)) == 0 || (old & mask(w)) > (b & mask(w))) ? b
                                                                     : old - 1;
    break;
  }
  out &= mask(w);
  std::memcpy(p, &out, w / 8);
  if (I.numDst)
    r[I.dst[0]] = old & mask(w);
  (void)env;
  return true;
}

} // namespace

void ptxemu::mmaSync(const Inst &I, uint64_t *const regs[32]) {
  auto element = [&](uint64_t word, int half) {
    uint64_t bits = word >> (16 * half) & 0xffff;
    return I.type == Type::BF16 ? bf16ToDouble(bits) : halfToDouble(bits);
  };
  // A 16x16 row-major, B 16x8 (k, n), C 16x8; lane = 4 * group + t.
  double a[16][16], b[16][8], c[16][8];
  for (uint32_t lane = 0; lane < 32; ++lane) {
    const uint64_t *r = regs[lane];
    uint32_t g = lane / 4, t = lane % 4;
    for (int i = 0; i < 4; ++i)
      for (int h = 0; h < 2; ++h)
        a[g + 8 * (i % 2)][2 * t + h + 8 * (i / 2)] = element(r[I.src[i]], h);
    for (int i = 0; i < 2; ++i)
      for (int h = 0; h < 2; ++h)
        b[2 * t + h + 8 * i][g] = element(r[I.src[4 + i]], h);
    for (int i = 0; i < 4; ++i) {
      float value;
      uint32_t bits = static_cast<uint32_t>(r[I.src[6 + i]]);
      std::memcpy(&value, &bits, 4);
      c[g + 8 * (i / 2)][2 * t + i % 2] = value;
    }
  }
  for (uint32_t lane = 0; lane < 32; ++lane) {
    uint32_t g = lane / 4, t = lane % 4;
    for (int i = 0; i < 4; ++i) {
      uint32_t m = g + 8 * (i / 2), n = 2 * t + i % 2;
      double sum = c[m][n];
      for (int k = 0; k < 16; ++k)
        sum += a[m][k] * b[k][n];
      float value = static_cast<float>(sum);
      uint32_t bits;
      std::memcpy(&bits, &value, 4);
      regs[lane][I.dst[i]] = bits;
    }
  }
}

void ptxemu::loadMatrices(const Inst &I, const uint8_t *const rows[32],
                          uint64_t *const regs[32]) {
  auto element = [&](uint32_t matrix, uint32_t row, uint32_t col) {
    uint16_t bits;
    std::memcpy(&bits, rows[8 * matrix + row] + 2 * col, 2);
    return static_cast<uint64_t>(bits);
  };
  for (uint32_t lane = 0; lane < 32; ++lane)
    for (uint32_t i = 0; i < I.vec; ++i) {
      uint32_t a = lane / 4, b = 2 * (lane % 4);
      uint64_t low = I.transpose ? element(i, b, a) : element(i, a, b);
      uint64_t high = I.transpose ? element(i, b + 1, a) : element(i, a, b + 1);
      regs[lane][I.dst[i]] = low | high << 16;
    }
}

uint32_t ptxemu::shuffleResult(ShflMode mode, uint32_t lane, uint32_t b,
                               uint32_t c, const uint32_t *values,
                               uint32_t participating, bool &inRange) {
  uint32_t clamp = c & 0x1f, segmask = (c >> 8) & 0x1f;
  uint32_t maxLane = (lane & segmask) | (clamp & ~segmask);
  uint32_t minLane = lane & segmask;
  int64_t j = lane;
  switch (mode) {
  case ShflMode::Up:
    j = int64_t(lane) - int64_t(b & 0x1f);
    inRange = j >= int64_t(maxLane);
    break;
  case ShflMode::Down:
    j = int64_t(lane) + int64_t(b & 0x1f);
    inRange = j <= int64_t(maxLane);
    break;
  case ShflMode::Bfly:
    j = lane ^ (b & 0x1f);
    inRange = j <= int64_t(maxLane);
    break;
  case ShflMode::Idx:
    j = minLane | (b & 0x1f & ~segmask);
    inRange = j <= int64_t(maxLane);
    break;
  }
  if (!inRange)
    j = lane;
  if (j < 0 || j > 31 || !(participating >> j & 1))
    return values[lane];
  return values[j];
}

Stop ptxemu::runThread(const BlockEnv &env, ThreadState &thread) {
  const Inst *code = env.entry->code.data();
  uint64_t *r = thread.regs;
  uint32_t pc = thread.pc;
  auto fault = [&](const Inst &I, const std::string &what) {
    if (env.error && env.error->empty())
      *env.error = what + " at line " + std::to_string(I.line) + " of " +
                   env.entry->name + " (thread " + std::to_string(r[kTidX]) +
                   "," + std::to_string(r[kTidY]) + "," +
                   std::to_string(r[kTidZ]) + " of block " +
                   std::to_string(r[kCtaidX]) + "," +
                   std::to_string(r[kCtaidY]) + "," +
                   std::to_string(r[kCtaidZ]) + ")";
    thread.pc = pc;
    return Stop::Fault;
  };
  // The host address of an access of `bytes` bytes, or null (a fault).
  // `bytes` at address `a` of `space`, or null out of bounds.
  auto memoryAt = [&](Space space, uint64_t a, uint64_t bytes) -> uint8_t * {
    switch (space) {
    case Space::Shared:
      if (a + bytes > env.sharedBytes || a + bytes < a)
        return nullptr;
      return env.shared + a;
    case Space::Param:
      if (a + bytes > env.entry->paramBytes)
        return nullptr;
      return const_cast<uint8_t *>(env.params) + a;
    default:
      if (a < 4096)
        return nullptr; // a null pointer, give or take an offset
      return reinterpret_cast<uint8_t *>(a);
    }
  };
  auto memory = [&](const Inst &I, uint64_t bytes) {
    return memoryAt(I.space, r[I.src[0]] + static_cast<uint64_t>(I.offset),
                    bytes);
  };

  ThreadTrace *trace = thread.trace;
  // A profiled access: global, or shared (also through a generic address
  // in the block's window) as an offset in the block's shared memory.
  auto record = [&](Space space, uint32_t pc, const uint8_t *p, uint32_t bytes,
                    Access::Kind globalKind) {
    uint64_t address = reinterpret_cast<uint64_t>(p);
    uint64_t base = reinterpret_cast<uint64_t>(env.shared);
    Access::Kind kind = globalKind;
    if (space == Space::Param)
      return;
    if (address >= base && address < base + env.sharedBytes) {
      kind = Access::Kind(globalKind + Access::SharedLoad);
      address -= base;
    }
    trace->accesses.push_back(
        {pc, trace->executions[pc] - 1, address, bytes, kind});
  };

  for (;;) {
    const Inst &I = code[pc];
    if (trace)
      ++trace->executions[pc];
    if (I.hasGuard && ((r[I.guard] != 0) == I.guardNegated)) {
      ++pc;
      continue;
    }
    const Type t = I.type;
    const int w = bitWidth(t);
    switch (I.op) {
    case Op::Nop:
      break;
    case Op::Mov:
      r[I.dst[0]] = r[I.src[0]] & mask(w);
      break;
    case Op::MovPack: {
      int ew = w / I.vec;
      uint64_t v = 0;
      for (int i = 0; i < I.vec; ++i)
        v |= (r[I.src[i]] & mask(ew)) << (i * ew);
      r[I.dst[0]] = v;
      break;
    }
    case Op::MovUnpack: {
      int ew = w / I.vec;
      uint64_t v = r[I.src[0]];
      for (int i = 0; i < I.vec; ++i)
        r[I.dst[i]] = (v >> (i * ew)) & mask(ew);
      break;
    }
    case Op::Add:
    case Op::Sub: {
      bool add = I.op == Op::Add;
      if (isFloat(t)) {
        r[I.dst[0]] = floatOp(
            I, r, [add](float a, float b, float) { return add ? a + b : a - b; },
            [add](double a, double b, double) { return add ? a + b : a - b; });
      } else if (I.sat) { // s32 only
        int64_t a = signExtend(r[I.src[0]], 32), b = signExtend(r[I.src[1]], 32);
        int64_t v = add ? a + b : a - b;
        v = std::min<int64_t>(std::max<int64_t>(v, INT32_MIN), INT32_MAX);
        r[I.dst[0]] = static_cast<uint64_t>(v) & mask(32);
      } else {
        uint64_t a = r[I.src[0]], b = r[I.src[1]];
        r[I.dst[0]] = (add ? a + b : a - b) & mask(w);
      }
      break;
    }
    case Op::Mul:
      if (isFloat(t))
        r[I.dst[0]] = floatOp(
            I, r, [](float a, float b, float) { return a * b; },
            [](double a, double b, double) { return a * b; });
      else
        r[I.dst[0]] = (r[I.src[0]] * r[I.src[1]]) & mask(w);
      break;
    case Op::MulHi:
    case Op::MadHi: {
      uint64_t hi;
      if (isSigned(t)) {
        __int128 p = static_cast<__int128>(signExtend(r[I.src[0]], w)) *
                     signExtend(r[I.src[1]], w);
        hi = static_cast<uint64_t>(p >> w);
      } else {
        unsigned __int128 p =
            static_cast<unsigned __int128>(r[I.src[0]] & mask(w)) *
            (r[I.src[1]] & mask(w));
        hi = static_cast<uint64_t>(p >> w);
      }
      if (I.op == Op::MadHi)
        hi += r[I.src[2]];
      r[I.dst[0]] = hi & mask(w);
      break;
    }
    case Op::MulWide:
    case Op::MadWide: {
      uint64_t p;
      if (isSigned(t))
        p = static_cast<uint64_t>(signExtend(r[I.src[0]], w) *
                                  signExtend(r[I.src[1]], w));
      else
        p = (r[I.src[0]] & mask(w)) * (r[I.src[1]] & mask(w));
      if (I.op == Op::MadWide)
        p += r[I.src[2]];
      r[I.dst[0]] = p & mask(2 * w);
      break;
    }
    case Op::Mad:
      r[I.dst[0]] = (r[I.src[0]] * r[I.src[1]] + r[I.src[2]]) & mask(w);
      break;
    case Op::Fma:
      r[I.dst[0]] = floatOp(
          I, r, [](float a, float b, float c) { return std::fma(a, b, c); },
          [](double a, double b, double c) { return std::fma(a, b, c); });
      break;
    case Op::Div:
    case Op::Rem: {
      bool div = I.op == Op::Div;
      if (isFloat(t)) {
        r[I.dst[0]] = floatOp(
            I, r, [](float a, float b, float) { return a / b; },
            [](double a, double b, double) { return a / b; });
      } else if (isSigned(t)) {
        int64_t a = signExtend(r[I.src[0]], w), b = signExtend(r[I.src[1]], w);
        int64_t v;
        if (b == 0)
          v = div ? -1 : a;
        else if (b == -1)
          v = div ? static_cast<int64_t>(0 - static_cast<uint64_t>(a)) : 0;
        else
          v = div ? a / b : a % b;
        r[I.dst[0]] = static_cast<uint64_t>(v) & mask(w);
      } else {
        uint64_t a = r[I.src[0]] & mask(w), b = r[I.src[1]] & mask(w);
        uint64_t v = b == 0 ? (div ? mask(w) : a) : div ? a / b : a % b;
        r[I.dst[0]] = v & mask(w);
      }
      break;
    }
    case Op::Min:
    case Op::Max: {
      bool isMin = I.op == Op::Min;
      if (isFloat(t)) {
        // One body for f32 and f64 (f16/bf16 are computed in f64).
        auto minMax = [isMin, nan = I.propagateNaN](auto a, auto b, auto) {
          if (nan)
            return isMin ? fminimum(a, b) : fmaximum(a, b);
          return isMin ? fminNum(a, b) : fmaxNum(a, b);
        };
        r[I.dst[0]] = floatOp(I, r, minMax, minMax);
      } else if (isSigned(t)) {
        int64_t a = signExtend(r[I.src[0]], w), b = signExtend(r[I.src[1]], w);
        r[I.dst[0]] =
            static_cast<uint64_t>(isMin ? std::min(a, b) : std::max(a, b)) &
            mask(w);
      } else {
        uint64_t a = r[I.src[0]] & mask(w), b = r[I.src[1]] & mask(w);
        r[I.dst[0]] = isMin ? std::min(a, b) : std::max(a, b);
      }
      break;
    }
    case Op::Neg:
    case Op::Abs: {
      uint64_t a = r[I.src[0]];
      if (isFloat(t)) {
        uint64_t sign = uint64_t(1) << (w - 1);
        if (t == Type::F32 && I.ftz)
          a = f32ToBits(flushSubnormal(bitsToF32(a)));
        r[I.dst[0]] = (I.op == Op::Neg ? a ^ sign : a & ~sign) & mask(w);
      } else {
        int64_t v = signExtend(a, w);
        uint64_t out = I.op == Op::Neg ? 0 - static_cast<uint64_t>(v)
                       : v < 0         ? 0 - static_cast<uint64_t>(v)
                                       : static_cast<uint64_t>(v);
        r[I.dst[0]] = out & mask(w);
      }
      break;
    }
    case Op::And:
      r[I.dst[0]] = r[I.src[0]] & r[I.src[1]] & mask(w);
      break;
    case Op::Or:
      r[I.dst[0]] = (r[I.src[0]] | r[I.src[1]]) & mask(w);
      break;
    case Op::Xor:
      r[I.dst[0]] = (r[I.src[0]] ^ r[I.src[1]]) & mask(w);
      break;
    case Op::Not:
      r[I.dst[0]] = t == Type::Pred ? !r[I.src[0]] : ~r[I.src[0]] & mask(w);
      break;
    case Op::Shl: {
      uint32_t n = static_cast<uint32_t>(r[I.src[1]]);
      r[I.dst[0]] = n >= static_cast<uint32_t>(w) ? 0 : (r[I.src[0]] << n) & mask(w);
      break;
    }
    case Op::Shr: {
      uint32_t n = static_cast<uint32_t>(r[I.src[1]]);
      if (isSigned(t)) {
        int64_t v = signExtend(r[I.src[0]], w);
        v >>= std::min<uint32_t>(n, 63);
        r[I.dst[0]] = static_cast<uint64_t>(v) & mask(w);
      } else {
        uint64_t v = r[I.src[0]] & mask(w);
        r[I.dst[0]] = n >= static_cast<uint32_t>(w) ? 0 : v >> n;
      }
      break;
    }
    case Op::Popc:
      r[I.dst[0]] = static_cast<uint64_t>(__builtin_popcountll(r[I.src[0]] & mask(w)));
      break;
    case Op::Clz: {
      uint64_t v = r[I.src[0]] & mask(w);
      r[I.dst[0]] = v == 0 ? w : __builtin_clzll(v) - (64 - w);
      break;
    }
    case Op::Brev:
      r[I.dst[0]] = bitReverse(r[I.src[0]], w);
      break;
    case Op::Bfe: {
      uint64_t a = r[I.src[0]] & mask(w);
      uint32_t pos = r[I.src[1]] & 0xff, len = r[I.src[2]] & 0xff;
      uint32_t msb = w - 1;
      bool sbit = false;
      if (isSigned(t) && len > 0)
        sbit = a >> std::min(pos + len - 1, msb) & 1;
      uint64_t out = 0;
      for (uint32_t i = 0; i < static_cast<uint32_t>(w); ++i) {
        bool bit = (i < len && pos + i <= msb) ? (a >> (pos + i) & 1) : sbit;
        out |= static_cast<uint64_t>(bit) << i;
      }
      r[I.dst[0]] = out;
      break;
    }
    case Op::Rcp:
    case Op::Sqrt:
    case Op::Rsqrt:
    case Op::Ex2:
    case Op::Lg2:
    case Op::Sin:
    case Op::Cos:
    case Op::Tanh: {
      Op op = I.op;
      auto f = [op](double x) {
        switch (op) {
        case Op::Rcp: return 1.0 / x;
        case Op::Sqrt: return std::sqrt(x);
        case Op::Rsqrt: return 1.0 / std::sqrt(x);
        case Op::Ex2: return std::exp2(x);
        case Op::Lg2: return std::log2(x);
        case Op::Sin: return std::sin(x);
        case Op::Cos: return std::cos(x);
        default: return std::tanh(x);
        }
      };
      if (t == Type::F32) {
        float x = inF32(I, r[I.src[0]]);
        float v;
        switch (op) { // correctly rounded in f32 where PTX says .rn
        case Op::Rcp: v = 1.0f / x; break;
        case Op::Sqrt: v = std::sqrt(x); break;
        default: v = static_cast<float>(f(x)); break;
        }
        r[I.dst[0]] = f32ToBits(finishF32(I, v));
      } else {
        r[I.dst[0]] = fromDouble(t, f(toDouble(t, r[I.src[0]])));
      }
      break;
    }
    case Op::Setp: {
      bool v = compare(I.cmp, t, r[I.src[0]], r[I.src[1]]);
      bool q = !v;
      if (I.boolOp != BoolOp::None) {
        bool c = (r[I.src[2]] != 0) != I.negC;
        auto combine = [&](bool x) {
          return I.boolOp == BoolOp::And ? x && c
                 : I.boolOp == BoolOp::Or ? x || c
                                          : x != c;
        };
        v = combine(v);
        q = combine(q);
      }
      r[I.dst[0]] = v;
      if (I.numDst == 2)
        r[I.dst[1]] = q;
      break;
    }
    case Op::Selp:
      r[I.dst[0]] = r[I.src[2]] ? r[I.src[0]] : r[I.src[1]];
      break;
    case Op::Cvt:
      r[I.dst[0]] = convert(I, r[I.src[0]]);
      break;
    case Op::Cvta: {
      uint64_t a = r[I.src[0]];
      if (I.space == Space::Shared)
        a = I.toGeneric ? reinterpret_cast<uint64_t>(env.shared) + a
                        : a - reinterpret_cast<uint64_t>(env.shared);
      r[I.dst[0]] = a;
      break;
    }
    case Op::Ld: {
      uint32_t bytes = w / 8;
      uint8_t *p = memory(I, uint64_t(bytes) * I.vec);
      if (!p)
        return fault(I, "invalid " + std::string(I.space == Space::Shared ? "shared"
                                                 : I.space == Space::Param ? "param"
                                                                           : "global") +
                            " load at address " +
                            std::to_string(r[I.src[0]] + I.offset));
      if (trace)
        record(I.space, pc, p, bytes * I.vec, Access::GlobalLoad);
      for (int i = 0; i < I.vec; ++i) {
        uint64_t v = 0;
        std::memcpy(&v, p + i * bytes, bytes);
        if (isSigned(t))
          v = static_cast<uint64_t>(signExtend(v, w));
        r[I.dst[i]] = v;
      }
      break;
    }
    case Op::St: {
      uint32_t bytes = w / 8;
      uint8_t *p = memory(I, uint64_t(bytes) * I.vec);
      if (!p || I.space == Space::Param)
        return fault(I, "invalid " + std::string(I.space == Space::Shared ? "shared"
                                                                          : "global") +
                            " store at address " +
                            std::to_string(r[I.src[0]] + I.offset));
      if (trace)
        record(I.space, pc, p, bytes * I.vec, Access::GlobalStore);
      for (int i = 0; i < I.vec; ++i)
        std::memcpy(p + i * bytes, &r[I.src[1 + i]], bytes);
      break;
    }
    case Op::CpAsync: {
      // Copied at once: what a kernel waits for before it reads the copy
      // is already there.
      uint8_t *to = memory(I, I.vec);
      uint8_t *source =
          memoryAt(Space::Global,
                   r[I.src[1]] + static_cast<uint64_t>(I.sourceOffset), I.vec);
      if (!to || !source)
        return fault(I, "invalid cp.async from " +
                            std::to_string(r[I.src[1]] + I.sourceOffset) +
                            " to shared " +
                            std::to_string(r[I.src[0]] + I.offset));
      uint32_t read = static_cast<uint32_t>(
          std::min<uint64_t>(I.vec, static_cast<uint32_t>(r[I.src[2]])));
      if (trace) {
        if (read)
          record(Space::Global, pc, source, read, Access::GlobalLoad);
        record(I.space, pc, to, I.vec, Access::GlobalStore);
      }
      std::memcpy(to, source, read);
      std::memset(to + read, 0, I.vec - read);
      break;
    }
    case Op::Atom: {
      uint8_t *p = memory(I, w / 8);
      if (!p)
        return fault(I, "invalid atomic access at address " +
                            std::to_string(r[I.src[0]] + I.offset));
      if (trace)
        record(I.space, pc, p, w / 8, Access::GlobalAtomic);
      atomic(env, I, r, p);
      break;
    }
    case Op::Bra:
      pc = static_cast<uint32_t>(I.offset);
      continue;
    case Op::Exit:
      thread.pc = pc;
      thread.status = ThreadState::Exited;
      return Stop::Exit;
    case Op::Bar:
      thread.pc = pc + 1;
      thread.status = ThreadState::AtBarrier;
      return Stop::Barrier;
    case Op::Ldmatrix:
      // The row this lane addresses, read when the whole warp is there.
      thread.matrixRow = nullptr;
      if (r[kLaneId] < 8u * I.vec) {
        const uint8_t *row = memory(I, 16);
        if (!row)
          return fault(I, "invalid ldmatrix row at address " +
                              std::to_string(r[I.src[0]] + I.offset));
        if (trace)
          record(I.space, pc, row, 16, Access::GlobalLoad);
        thread.matrixRow = row;
      }
      [[fallthrough]];
    case Op::Shfl:
    case Op::Mma:
      thread.pc = pc;
      thread.status = ThreadState::AtShuffle;
      return Stop::Shuffle;
    }
    ++pc;
  }
}
