//===- Program.h - A PTX module decoded for execution ---------------------===//
//
// The compact form the decoder produces once per cuModuleLoadData and the
// interpreter executes: per entry, a flat array of fixed-size instructions
// whose operands are indices into the thread's register file. Immediates,
// symbol addresses and special registers (%tid.x, ...) are slots of that
// file too, so reading any operand is one array access; nothing is parsed
// while a kernel runs.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_PTX_EMULATOR_PROGRAM_H
#define ACCY_PTX_EMULATOR_PROGRAM_H

#include "Numeric.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ptxemu {

/// A PTX data type: its class and width in bits.
enum class Type : uint8_t {
  None, Pred, B8, B16, B32, B64, U8, U16, U32, U64, S8, S16, S32, S64,
  F16, BF16, F32, F64
};
int bitWidth(Type t);
bool isSigned(Type t);
bool isFloat(Type t);
const char *typeName(Type t);

enum class Op : uint8_t {
  Nop,
  Mov,
  MovPack,
  MovUnpack,
  Add,
  Sub,
  Mul,
  MulHi,
  MulWide,
  Mad,
  MadHi,
  MadWide,
  Fma,
  Div,
  Rem,
  Min,
  Max,
  Neg,
  Abs,
  And,
  Or,
  Xor,
  Not,
  Shl,
  Shr,
  Setp,
  Selp,
  Cvt,
  Cvta,
  Ld,
  St,
  Rcp,
  Sqrt,
  Rsqrt,
  Ex2,
  Lg2,
  Sin,
  Cos,
  Tanh,
  Popc,
  Clz,
  Brev,
  Bfe,
  Bra,
  Exit,
  Bar,
  Shfl,
  Atom,
  Mma,
  Ldmatrix,
  CpAsync
};

enum class Space : uint8_t { Generic, Global, Shared, Param, Local, Const };

enum class Cmp : uint8_t {
  Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs, Equ, Neu, Ltu, Leu, Gtu, Geu, Num,
  Nan
};

enum class ShflMode : uint8_t { Up, Down, Bfly, Idx };

enum class AtomOp : uint8_t { Add, Min, Max, Exch, Cas, And, Or, Xor, Inc, Dec };

/// Register-file slots every thread has at fixed places.
enum Special : uint32_t {
  kZero = 0, kTidX, kTidY, kTidZ, kNtidX, kNtidY, kNtidZ, kCtaidX, kCtaidY,
  kCtaidZ, kNctaidX, kNctaidY, kNctaidZ, kLaneId, kWarpId, kNwarpId,
  kSharedWindow, kNumSpecials
};

/// A combining operation of setp (`setp.lt.and.f32 p, a, b, q`).
enum class BoolOp : uint8_t { None, And, Or, Xor };

struct Inst {
  Op op = Op::Nop;
  Type type = Type::None;  // the instruction's type (cvt: destination)
  Type type2 = Type::None; // cvt: source; mul.wide: destination
  Round round = Round::Default;
  uint8_t vec =
      1; // ld/st/mov vector width; cp.async: bytes; ldmatrix: matrices
  bool ftz = false, sat = false, guardNegated = false, negC = false;
  bool propagateNaN = false; // min/max.NaN
  Space space = Space::Generic;
  Cmp cmp = Cmp::Eq;
  BoolOp boolOp = BoolOp::None;
  ShflMode shfl = ShflMode::Bfly;
  AtomOp atom = AtomOp::Add;
  uint32_t guard = 0;      // predicate slot; 0 (kZero) with hasGuard false
  bool hasGuard = false;
  bool toGeneric = false; // cvta: to the generic space (else from it)
  bool transpose = false; // ldmatrix .trans
  uint32_t dst[4] = {0, 0, 0, 0}; // shfl/setp: dst[1] the predicate, if any
  uint8_t numDst = 0;
  // ld/st/atom: src[0] the address base; mma: the registers of the A, B
  // and C fragments (4, 2, 4).
  uint32_t src[10] = {};
  int64_t offset = 0;      // ld/st/atom: address offset; bra: target index
  int64_t sourceOffset = 0; // cp.async: the global address's offset
  uint32_t line = 0;       // source line, for messages
};

struct Param {
  std::string name;
  uint32_t offset = 0; // in the parameter buffer
  uint32_t size = 0;
  uint32_t align = 0;
};

struct Entry {
  std::string name;
  std::vector<Param> params;
  uint32_t paramBytes = 0;
  std::vector<Inst> code;
  /// Register file: kNumSpecials specials, then registers, then the
  /// constants (immediates and symbol addresses) from slot constBase on.
  uint32_t numSlots = 0;
  uint32_t constBase = 0;
  std::vector<uint64_t> constants;
  uint32_t staticShared = 0;       // bytes, module-level and local .shared
  uint32_t localBytes = 0;         // per thread
  /// 32-bit registers the PTX declares (a 64-bit one counts twice, a
  /// predicate not at all): NVVM's virtual registers, an upper bound far
  /// above what ptxas allocates.
  uint32_t declaredRegisters = 0;
  uint32_t maxThreads[3] = {0, 0, 0}; // .maxntid/.reqntid, 0 when absent
};

/// A whole module; entries are looked up by name.
struct Program {
  std::vector<std::unique_ptr<Entry>> entries;
  /// Storage of module-level .global/.const variables (addresses handed
  /// to kernels point into these).
  std::vector<std::unique_ptr<uint8_t[]>> globals;
  const Entry *find(const std::string &name) const;
};

/// Parses and decodes PTX text; on failure returns null and sets `error`
/// to a message naming the line and the unsupported construct.
std::unique_ptr<Program> loadProgram(const char *text, std::string &error);

} // namespace ptxemu

#endif
