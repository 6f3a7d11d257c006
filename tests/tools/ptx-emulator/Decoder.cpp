//===- Decoder.cpp - Syntax tree to executable instructions ---------------===//
//
// The second half of loading a module. Gives every register, special
// register, immediate and symbol a slot in the thread's register file, lays
// out shared memory and the parameter buffer, resolves labels to
// instruction indices and turns each opcode with its modifiers into one
// `Inst`. The set of accepted opcode/modifier/type combinations is closed:
// anything else fails the load with the line and the instruction, so a
// kernel never runs with an instruction the interpreter would get wrong.
//
//===----------------------------------------------------------------------===//
#include "Inliner.h"
#include "Parser.h"
#include "Program.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <unordered_map>

using namespace ptxemu;

int ptxemu::bitWidth(Type t) {
  switch (t) {
  case Type::Pred: return 1;
  case Type::B8: case Type::U8: case Type::S8: return 8;
  case Type::B16: case Type::U16: case Type::S16: case Type::F16:
  case Type::BF16: return 16;
  case Type::B32: case Type::U32: case Type::S32: case Type::F32: return 32;
  case Type::B64: case Type::U64: case Type::S64: case Type::F64: return 64;
  default: return 0;
  }
}
bool ptxemu::isSigned(Type t) {
  return t == Type::S8 || t == Type::S16 || t == Type::S32 || t == Type::S64;
}
bool ptxemu::isFloat(Type t) {
  return t == Type::F16 || t == Type::BF16 || t == Type::F32 ||
         t == Type::F64;
}
const char *ptxemu::typeName(Type t) {
  static const char *names[] = {"none", "pred", "b8",  "b16", "b32", "b64",
                                "u8",   "u16",  "u32", "u64", "s8",  "s16",
                                "s32",  "s64",  "f16", "bf16", "f32", "f64"};
  return names[static_cast<int>(t)];
}

const Entry *Program::find(const std::string &name) const {
  for (const auto &e : entries)
    if (e->name == name)
      return e.get();
  return nullptr;
}

namespace {

Type parseType(const std::string &s) {
  static const std::map<std::string, Type> types = {
      {"pred", Type::Pred}, {"b8", Type::B8},     {"b16", Type::B16},
      {"b32", Type::B32},   {"b64", Type::B64},   {"u8", Type::U8},
      {"u16", Type::U16},   {"u32", Type::U32},   {"u64", Type::U64},
      {"s8", Type::S8},     {"s16", Type::S16},   {"s32", Type::S32},
      {"s64", Type::S64},   {"f16", Type::F16},   {"bf16", Type::BF16},
      {"f32", Type::F32},   {"f64", Type::F64}};
  auto it = types.find(s);
  return it == types.end() ? Type::None : it->second;
}

uint64_t widthMask(int bits) {
  return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
}

/// The modifiers of one opcode, classified.
struct Opcode {
  std::string base;
  std::vector<Type> types;
  Round round = Round::Default;
  bool ftz = false, sat = false, approx = false, full = false, nan = false;
  bool lo = false, hi = false, wide = false, uni = false, sync = false;
  bool to = false, aligned = false;
  int vec = 1;
  Space space = Space::Generic;
  bool hasSpace = false;
  bool hasCmp = false;
  Cmp cmp = Cmp::Eq;
  std::vector<std::string> words; // and/or/xor/add/min/... and shfl modes
};

class Decoder {
public:
  Decoder(const RawModule &module, Program &program)
      : module(module), program(program) {}

  bool decodeGlobals() {
    for (const RawVar &var : module.globals) {
      if (var.space == "shared")
        continue; // laid out per entry
      Type t = parseType(var.type);
      int bytes = bitWidth(t) / 8;
      if (!bytes || var.count < 0)
        return fail(var.line, "unsupported ." + var.space + " variable " +
                                  var.name);
      size_t size = static_cast<size_t>(var.count) * bytes;
      std::unique_ptr<uint8_t[]> storage(new uint8_t[size + 16]());
      for (size_t i = 0; i < var.init.size() && i < size_t(var.count); ++i) {
        uint64_t bits;
        if (!literal(var.init[i], t, bits, var.line))
          return false;
        std::memcpy(storage.get() + i * bytes, &bits, bytes);
      }
      globalAddress[var.name] =
          reinterpret_cast<uint64_t>(storage.get());
      program.globals.push_back(std::move(storage));
    }
    return true;
  }

  bool decodeEntry(const RawEntry &raw, Entry &entry) {
    entry.name = raw.name;
    for (int i = 0; i < 3; ++i)
      entry.maxThreads[i] = raw.maxThreads[i];
    regs.clear();
    constants.clear();
    constIndex.clear();
    symbols.clear();
    sharedSymbols.clear();
    paramSymbols.clear();
    // Parameters, laid out as the driver packs kernelParams.
    uint32_t offset = 0;
    for (const RawParam &rp : raw.params) {
      Type t = parseType(rp.type);
      uint32_t elem = bitWidth(t) / 8;
      if (!elem || rp.count < 1)
        return fail(rp.line, "unsupported parameter type ." + rp.type +
                                 " of " + rp.name);
      Param p;
      p.name = rp.name;
      p.size = static_cast<uint32_t>(elem * rp.count);
      p.align = rp.align ? rp.align : elem;
      offset = (offset + p.align - 1) / p.align * p.align;
      p.offset = offset;
      offset += p.size;
      paramSymbols[p.name] = p.offset;
      entry.params.push_back(p);
    }
    entry.paramBytes = offset;
    // Shared memory: module-level variables, then the entry's own.
    uint32_t shared = 0;
    std::vector<const RawVar *> sharedVars;
    std::vector<const RawVar *> externShared;
    for (const RawVar &v : module.globals)
      if (v.space == "shared")
        (v.count < 0 || v.isExtern ? externShared : sharedVars).push_back(&v);
    for (const RawVar &v : raw.vars) {
      if (v.space == "local")
        return fail(v.line, ".local variables are not supported (" + v.name +
                                ")");
      (v.count < 0 ? externShared : sharedVars).push_back(&v);
    }
    for (const RawVar *v : sharedVars) {
      uint32_t align = v->align ? v->align : bitWidth(parseType(v->type)) / 8;
      uint32_t bytes = bitWidth(parseType(v->type)) / 8;
      if (!bytes || !align)
        return fail(v->line, "unsupported .shared variable " + v->name);
      shared = (shared + align - 1) / align * align;
      sharedSymbols[v->name] = shared;
      shared += static_cast<uint32_t>(v->count) * bytes;
    }
    shared = (shared + 15) / 16 * 16;
    for (const RawVar *v : externShared)
      sharedSymbols[v->name] = shared; // dynamic shared memory starts here
    entry.staticShared = shared;

    // Registers.
    uint32_t slot = kNumSpecials;
    for (const RawReg &r : raw.regs) {
      Type t = parseType(r.type);
      if (t == Type::None)
        return fail(r.line, "unsupported register type ." + r.type);
      uint32_t words = t == Type::Pred ? 0 : (bitWidth(t) + 31) / 32;
      entry.declaredRegisters += words * uint32_t(r.count < 0 ? 1 : r.count);
      if (r.count < 0) {
        regs[r.name] = slot++;
      } else {
        for (int64_t i = 0; i < r.count; ++i)
          regs[r.name + std::to_string(i)] = slot++;
      }
    }
    sinkSlot = slot++;
    entry.constBase = slot;
    constBase = slot;

    // Labels.
    std::unordered_map<std::string, int64_t> labels;
    int64_t index = 0;
    for (const RawInst &ri : raw.body) {
      if (!ri.label.empty())
        labels[ri.label] = index;
      else
        ++index;
    }
    for (const RawInst &ri : raw.body) {
      if (!ri.label.empty())
        continue;
      Inst inst;
      inst.line = ri.line;
      if (!decodeInst(ri, inst, labels))
        return false;
      entry.code.push_back(inst);
    }
    // A thread that runs past the last instruction exits.
    Inst exit;
    exit.op = Op::Exit;
    exit.line = raw.body.empty() ? raw.line : raw.body.back().line;
    entry.code.push_back(exit);
    entry.constants = constants;
    entry.numSlots = constBase + static_cast<uint32_t>(constants.size());
    return true;
  }

  std::string error;

private:
  const RawModule &module;
  Program &program;
  std::unordered_map<std::string, uint32_t> regs;
  std::unordered_map<std::string, uint64_t> symbols;
  std::unordered_map<std::string, uint64_t> globalAddress;
  std::unordered_map<std::string, uint32_t> sharedSymbols;
  std::unordered_map<std::string, uint32_t> paramSymbols;
  std::vector<uint64_t> constants;
  std::unordered_map<uint64_t, uint32_t> constIndex;
  uint32_t constBase = 0, sinkSlot = 0;

  bool fail(uint32_t line, const std::string &message) {
    if (error.empty())
      error = "line " + std::to_string(line) + ": " + message;
    return false;
  }

  uint32_t constant(uint64_t bits) {
    auto it = constIndex.find(bits);
    if (it != constIndex.end())
      return it->second;
    uint32_t slot = constBase + static_cast<uint32_t>(constants.size());
    constants.push_back(bits);
    constIndex[bits] = slot;
    return slot;
  }

  /// A literal's bits as a value of `type`.
  bool literal(const std::string &text, Type type, uint64_t &bits,
               uint32_t line) {
    bool negative = !text.empty() && text[0] == '-';
    std::string body = negative ? text.substr(1) : text;
    auto hexBits = [&](size_t digits, uint64_t &out) {
      if (body.size() != 2 + digits)
        return false;
      char *end = nullptr;
      out = std::strtoull(body.c_str() + 2, &end, 16);
      return *end == '\0';
    };
    if (body.size() > 2 && body[0] == '0' && (body[1] == 'f' || body[1] == 'F')) {
      uint64_t b;
      if (!hexBits(8, b))
        return fail(line, "malformed f32 literal " + text);
      float f = bitsToF32(b);
      if (negative)
        f = -f;
      return floatLiteral(f, type, bits, line, text);
    }
    if (body.size() > 2 && body[0] == '0' && (body[1] == 'd' || body[1] == 'D')) {
      uint64_t b;
      if (!hexBits(16, b))
        return fail(line, "malformed f64 literal " + text);
      double d = bitsToF64(b);
      if (negative)
        d = -d;
      return floatLiteral(d, type, bits, line, text);
    }
    bool isDecimalFloat = body.find_first_of(".eE") != std::string::npos &&
                          !(body.size() > 1 && (body[1] == 'x' || body[1] == 'X'));
    if (isDecimalFloat) {
      char *end = nullptr;
      double d = std::strtod(text.c_str(), &end);
      if (*end)
        return fail(line, "malformed literal " + text);
      return floatLiteral(d, type, bits, line, text);
    }
    char *end = nullptr;
    uint64_t magnitude = std::strtoull(body.c_str(), &end, 0);
    if (*end == 'U' || *end == 'u')
      ++end;
    if (*end)
      return fail(line, "malformed integer literal " + text);
    int64_t value = negative ? -static_cast<int64_t>(magnitude)
                             : static_cast<int64_t>(magnitude);
    if (type == Type::F16 || type == Type::BF16) { // a bit pattern
      bits = static_cast<uint64_t>(value) & 0xffff;
      return true;
    }
    if (isFloat(type))
      return floatLiteral(static_cast<double>(value), type, bits, line, text);
    bits = static_cast<uint64_t>(value);
    if (type == Type::Pred)
      bits = bits != 0;
    else if (bitWidth(type))
      bits &= widthMask(bitWidth(type));
    return true;
  }

  bool floatLiteral(double value, Type type, uint64_t &bits, uint32_t line,
                    const std::string &text) {
    switch (type) {
    case Type::F32: bits = f32ToBits(static_cast<float>(value)); return true;
    case Type::F64: bits = f64ToBits(value); return true;
    case Type::F16: bits = doubleToHalf(value); return true;
    case Type::BF16: bits = doubleToBf16(value); return true;
    case Type::B32: bits = f32ToBits(static_cast<float>(value)); return true;
    case Type::B64: bits = f64ToBits(value); return true;
    default:
      return fail(line, "floating-point literal " + text + " for a ." +
                            typeName(type) + " operand");
    }
  }

  bool special(const std::string &name, uint32_t &slot) {
    static const std::map<std::string, uint32_t> specials = {
        {"%tid.x", kTidX},       {"%tid.y", kTidY},
        {"%tid.z", kTidZ},       {"%ntid.x", kNtidX},
        {"%ntid.y", kNtidY},     {"%ntid.z", kNtidZ},
        {"%ctaid.x", kCtaidX},   {"%ctaid.y", kCtaidY},
        {"%ctaid.z", kCtaidZ},   {"%nctaid.x", kNctaidX},
        {"%nctaid.y", kNctaidY}, {"%nctaid.z", kNctaidZ},
        {"%laneid", kLaneId},    {"%warpid", kWarpId},
        {"%nwarpid", kNwarpId}};
    auto it = specials.find(name);
    if (it == specials.end())
      return false;
    slot = it->second;
    return true;
  }

  /// A symbol's value as an operand: shared offset, param offset or the
  /// host address of a module variable.
  bool symbol(const std::string &name, uint64_t &value) {
    if (auto it = sharedSymbols.find(name); it != sharedSymbols.end())
      return value = it->second, true;
    if (auto it = paramSymbols.find(name); it != paramSymbols.end())
      return value = it->second, true;
    if (auto it = globalAddress.find(name); it != globalAddress.end())
      return value = it->second, true;
    return false;
  }

  bool source(const RawOperand &o, Type type, uint32_t &slot, uint32_t line) {
    if (o.kind == RawOperand::Number) {
      uint64_t bits;
      if (!literal(o.text, type, bits, line))
        return false;
      slot = constant(bits);
      return true;
    }
    if (o.kind != RawOperand::Name || o.negated)
      return fail(line, "unsupported source operand form");
    if (auto it = regs.find(o.text); it != regs.end())
      return slot = it->second, true;
    if (special(o.text, slot))
      return true;
    uint64_t value;
    if (symbol(o.text, value)) {
      slot = constant(value);
      return true;
    }
    return fail(line, "unknown operand '" + o.text + "'");
  }

  bool dest(const std::string &name, uint32_t &slot, uint32_t line) {
    if (name == "_")
      return slot = sinkSlot, true;
    auto it = regs.find(name);
    if (it == regs.end())
      return fail(line, "destination '" + name + "' is not a register");
    slot = it->second;
    return true;
  }
  bool dest(const RawOperand &o, uint32_t &slot, uint32_t line) {
    if (o.kind != RawOperand::Name || o.negated)
      return fail(line, "unsupported destination operand form");
    return dest(o.text, slot, line);
  }

  bool address(const RawOperand &o, Inst &inst, uint32_t line) {
    if (o.kind != RawOperand::Address)
      return fail(line, "expected an address operand [..]");
    inst.offset = o.offset;
    if (o.base.empty()) {
      inst.src[0] = kZero;
      return true;
    }
    if (auto it = regs.find(o.base); it != regs.end()) {
      inst.src[0] = it->second;
      return true;
    }
    uint64_t value;
    if (symbol(o.base, value)) {
      inst.src[0] = kZero;
      inst.offset += static_cast<int64_t>(value);
      return true;
    }
    return fail(line, "unknown address base '" + o.base + "'");
  }

  bool parseOpcode(const std::string &text, Opcode &op, uint32_t line) {
    size_t start = 0;
    std::vector<std::string> parts;
    while (true) {
      size_t dot = text.find('.', start);
      parts.push_back(text.substr(start, dot - start));
      if (dot == std::string::npos)
        break;
      start = dot + 1;
    }
    op.base = parts[0];
    static const std::map<std::string, Round> rounds = {
        {"rn", Round::RN},   {"rz", Round::RZ},   {"rm", Round::RM},
        {"rp", Round::RP},   {"rni", Round::RNI}, {"rzi", Round::RZI},
        {"rmi", Round::RMI}, {"rpi", Round::RPI}};
    static const std::map<std::string, Space> spaces = {
        {"global", Space::Global}, {"shared", Space::Shared},
        {"param", Space::Param},   {"local", Space::Local},
        {"const", Space::Const}};
    static const std::map<std::string, Cmp> cmps = {
        {"eq", Cmp::Eq},   {"ne", Cmp::Ne},   {"lt", Cmp::Lt},
        {"le", Cmp::Le},   {"gt", Cmp::Gt},   {"ge", Cmp::Ge},
        {"lo", Cmp::Lo},   {"ls", Cmp::Ls},   {"hi", Cmp::Hi},
        {"hs", Cmp::Hs},   {"equ", Cmp::Equ}, {"neu", Cmp::Neu},
        {"ltu", Cmp::Ltu}, {"leu", Cmp::Leu}, {"gtu", Cmp::Gtu},
        {"geu", Cmp::Geu}, {"num", Cmp::Num}, {"nan", Cmp::Nan}};
    // Memory-ordering and cache qualifiers: no meaning here (one OS thread
    // runs a block, and atomics are serialised).
    static const char *ignored[] = {"volatile", "relaxed", "acquire",
                                    "release",  "acq_rel", "gpu",
                                    "sys",      "cta",     "ca",
                                    "cg",       "cs",      "lu",
                                    "cv",       "wb",      "wt",
                                    "nc",       "weak",    "sc"};
    for (size_t i = 1; i < parts.size(); ++i) {
      const std::string &p = parts[i];
      Type t = parseType(p);
      if (t != Type::None) {
        op.types.push_back(t);
        continue;
      }
      if (op.base == "setp" && cmps.count(p) && !op.hasCmp) {
        op.hasCmp = true;
        op.cmp = cmps.at(p);
        continue;
      }
      if (auto it = rounds.find(p); it != rounds.end()) {
        op.round = it->second;
        continue;
      }
      if (auto it = spaces.find(p); it != spaces.end()) {
        op.space = it->second;
        op.hasSpace = true;
        continue;
      }
      if (p == "ftz") op.ftz = true;
      else if (p == "sat") op.sat = true;
      else if (p == "NaN") op.nan = true;
      else if (p == "approx") op.approx = true;
      else if (p == "full") op.full = true;
      else if (p == "lo") op.lo = true;
      else if (p == "hi") op.hi = true;
      else if (p == "wide") op.wide = true;
      else if (p == "uni") op.uni = true;
      else if (p == "sync") op.sync = true;
      else if (p == "aligned") op.aligned = true;
      else if (p == "to") op.to = true;
      else if (p == "v2") op.vec = 2;
      else if (p == "v4") op.vec = 4;
      else if (p == "and" || p == "or" || p == "xor" || p == "add" ||
               p == "min" || p == "max" || p == "exch" || p == "cas" ||
               p == "inc" || p == "dec" || p == "up" || p == "down" ||
               p == "bfly" || p == "idx" || p == "m16n8k16" || p == "row" ||
               p == "col" || p == "m8n8" || p == "x1" || p == "x2" ||
               p == "x4" || p == "trans")
        op.words.push_back(p);
      else if (std::find(std::begin(ignored), std::end(ignored), p) !=
               std::end(ignored))
        continue;
      else
        return fail(line, "unsupported modifier ." + p + " in '" + text + "'");
    }
    return true;
  }

  bool unsupported(const RawInst &ri) {
    return fail(ri.line, "unsupported instruction '" + ri.opcode + "'");
  }

  bool operandCount(const RawInst &ri, size_t n) {
    if (ri.operands.size() != n)
      return fail(ri.line, "'" + ri.opcode + "' expects " + std::to_string(n) +
                               " operands, has " +
                               std::to_string(ri.operands.size()));
    return true;
  }

  /// cp.async.{ca,cg}.shared.global[.L2::{64,128,256}B] [dst], [src], size
  /// [, src-size] copies at once (memory is coherent here), so its groups
  /// (commit_group, wait_group, wait_all) have nothing to wait for.
  bool decodeCpAsync(const RawInst &ri, Inst &inst) {
    const std::string &o = ri.opcode;
    const auto &ops = ri.operands;
    if (o == "cp.async.commit_group" || o == "cp.async.wait_all" ||
        o == "cp.async.wait_group") {
      inst.op = Op::Nop;
      return operandCount(ri, o == "cp.async.wait_group" ? 1 : 0);
    }
    std::string copy = o.substr(0, o.find(".L2::"));
    std::string hint = o.substr(copy.size());
    if ((copy != "cp.async.ca.shared.global" &&
         copy != "cp.async.cg.shared.global") ||
        (!hint.empty() && hint != ".L2::64B" && hint != ".L2::128B" &&
         hint != ".L2::256B") ||
        (ops.size() != 3 && ops.size() != 4) ||
        ops[2].kind != RawOperand::Number)
      return unsupported(ri);
    int bytes = std::atoi(ops[2].text.c_str());
    if (bytes != 4 && bytes != 8 && bytes != 16)
      return unsupported(ri);
    inst.op = Op::CpAsync;
    inst.vec = static_cast<uint8_t>(bytes);
    inst.space = Space::Shared;
    Inst from;
    if (!address(ops[0], inst, ri.line) || !address(ops[1], from, ri.line))
      return false;
    inst.src[1] = from.src[0];
    inst.sourceOffset = from.offset;
    // The bytes read from the source; the rest of the copy is zeros.
    return source(ops.size() == 4 ? ops[3] : ops[2], Type::U32, inst.src[2],
                  ri.line);
  }

  bool decodeInst(const RawInst &ri, Inst &inst,
                  const std::unordered_map<std::string, int64_t> &labels) {
    uint32_t line = ri.line;
    if (!ri.guard.empty()) {
      auto it = regs.find(ri.guard);
      if (it == regs.end())
        return fail(line, "unknown guard predicate " + ri.guard);
      inst.hasGuard = true;
      inst.guard = it->second;
      inst.guardNegated = ri.guardNegated;
    }
    if (ri.opcode.rfind("cp.async.", 0) == 0)
      return decodeCpAsync(ri, inst);
    Opcode op;
    if (!parseOpcode(ri.opcode, op, line))
      return false;
    const auto &ops = ri.operands;
    const std::string &b = op.base;
    Type t = op.types.empty() ? Type::None : op.types[0];
    inst.type = t;
    inst.round = op.round;
    inst.ftz = op.ftz;
    inst.sat = op.sat;
    inst.space = op.space;
    auto oneType = [&]() {
      if (op.types.size() != 1)
        return fail(line, "'" + ri.opcode + "' needs exactly one type");
      return true;
    };
    auto srcs = [&](size_t first, size_t count, Type type) {
      for (size_t i = 0; i < count; ++i)
        if (!source(ops[first + i], type, inst.src[i], line))
          return false;
      return true;
    };
    auto noExtras = [&]() {
      if (op.hasSpace || op.vec != 1 || !op.words.empty() || op.uni ||
          op.sync || op.to || op.aligned || op.hasCmp)
        return fail(line, "unsupported modifiers in '" + ri.opcode + "'");
      return true;
    };
    auto floatOnlyMods = [&]() {
      if (op.round == Round::RZ || op.round == Round::RM ||
          op.round == Round::RP || op.round >= Round::RNI)
        return fail(line, "only round-to-nearest arithmetic is supported ('" +
                              ri.opcode + "')");
      if (!isFloat(t) && (op.ftz || op.approx || op.full ||
                          op.round != Round::Default))
        return fail(line, "rounding/ftz modifiers on integer '" + ri.opcode +
                              "'");
      if (isFloat(t) && (op.lo || op.hi || op.wide))
        return fail(line, "unsupported instruction '" + ri.opcode + "'");
      return true;
    };
    // An arithmetic op of one type with one result and `sources` operands.
    auto arithmetic = [&](Op o, int sources) {
      if (!oneType() || !noExtras() || !floatOnlyMods() ||
          !operandCount(ri, 1 + sources) || !dest(ops[0], inst.dst[0], line) ||
          !srcs(1, sources, t))
        return false;
      inst.op = o;
      inst.numDst = 1;
      return true;
    };
    auto binary = [&](Op o) { return arithmetic(o, 2); };
    auto unary = [&](Op o) { return arithmetic(o, 1); };
    bool isInt = t != Type::None && !isFloat(t) && t != Type::Pred;
    bool isF = isFloat(t);

    if (b == "mov") {
      if (!oneType() || !noExtras() || !operandCount(ri, 2))
        return false;
      inst.numDst = 1;
      if (ops[0].kind == RawOperand::Vector) {
        size_t n = ops[0].elems.size();
        if ((n != 2 && n != 4) || bitWidth(t) < 32)
          return unsupported(ri);
        inst.op = Op::MovUnpack;
        inst.vec = static_cast<uint8_t>(n);
        for (size_t i = 0; i < n; ++i)
          if (!dest(ops[0].elems[i], inst.dst[i], line))
            return false;
        return source(ops[1], t, inst.src[0], line);
      }
      if (ops[1].kind == RawOperand::Vector) {
        size_t n = ops[1].elems.size();
        if ((n != 2 && n != 4) || bitWidth(t) < 32)
          return unsupported(ri);
        inst.op = Op::MovPack;
        inst.vec = static_cast<uint8_t>(n);
        for (size_t i = 0; i < n; ++i) {
          RawOperand e;
          e.text = ops[1].elems[i];
          if (!source(e, Type::None, inst.src[i], line))
            return false;
        }
        return dest(ops[0], inst.dst[0], line);
      }
      inst.op = Op::Mov;
      return dest(ops[0], inst.dst[0], line) && srcs(1, 1, t);
    }
    if (b == "add" || b == "sub") {
      if (op.sat && !(t == Type::S32 || isF))
        return unsupported(ri);
      if (t == Type::Pred)
        return unsupported(ri);
      return binary(b == "add" ? Op::Add : Op::Sub);
    }
    if (b == "mul") {
      if (isInt) {
        int n = op.lo + op.hi + op.wide;
        if (n != 1)
          return unsupported(ri);
        if (op.wide) {
          if (bitWidth(t) > 32)
            return unsupported(ri);
          bool ok = binary(Op::MulWide);
          inst.type2 = isSigned(t) ? (bitWidth(t) == 16 ? Type::S32 : Type::S64)
                                   : (bitWidth(t) == 16 ? Type::U32 : Type::U64);
          return ok;
        }
        return binary(op.hi ? Op::MulHi : Op::Mul);
      }
      if (!isF)
        return unsupported(ri);
      return binary(Op::Mul);
    }
    if (b == "mad" || b == "fma") {
      if (!oneType() || !noExtras() || !floatOnlyMods() ||
          !operandCount(ri, 4) || !dest(ops[0], inst.dst[0], line) ||
          !srcs(1, 2, t))
        return false;
      inst.numDst = 1;
      if (isInt && b == "mad") {
        int n = op.lo + op.hi + op.wide;
        if (n != 1 || op.sat)
          return unsupported(ri);
        if (op.wide) {
          if (bitWidth(t) > 32)
            return unsupported(ri);
          inst.op = Op::MadWide;
          inst.type2 = isSigned(t) ? Type::S64 : Type::U64;
          if (bitWidth(t) != 32)
            return unsupported(ri);
          return source(ops[3], inst.type2, inst.src[2], line);
        }
        inst.op = op.hi ? Op::MadHi : Op::Mad;
        return source(ops[3], t, inst.src[2], line);
      }
      if (!isF)
        return unsupported(ri);
      inst.op = Op::Fma;
      return source(ops[3], t, inst.src[2], line);
    }
    if (b == "div" || b == "rem") {
      if (t == Type::Pred || (b == "rem" && isF) ||
          t == Type::F16 || t == Type::BF16)
        return unsupported(ri);
      return binary(b == "div" ? Op::Div : Op::Rem);
    }
    if (b == "min" || b == "max") {
      if (t == Type::Pred || op.sat || (op.nan && !isF))
        return unsupported(ri);
      inst.propagateNaN = op.nan;
      return binary(b == "min" ? Op::Min : Op::Max);
    }
    if (b == "neg" || b == "abs") {
      if (t == Type::Pred || (!isF && !isSigned(t)))
        return unsupported(ri);
      return unary(b == "neg" ? Op::Neg : Op::Abs);
    }
    if (b == "and" || b == "or" || b == "xor") {
      if (isF || isSigned(t))
        return unsupported(ri);
      return binary(b == "and" ? Op::And : b == "or" ? Op::Or : Op::Xor);
    }
    if (b == "not") {
      if (isF)
        return unsupported(ri);
      return unary(Op::Not);
    }
    if (b == "shl" || b == "shr") {
      if (!oneType() || !noExtras() || isF || t == Type::Pred ||
          !operandCount(ri, 3) || !dest(ops[0], inst.dst[0], line) ||
          !source(ops[1], t, inst.src[0], line) ||
          !source(ops[2], Type::U32, inst.src[1], line))
        return false;
      inst.op = b == "shl" ? Op::Shl : Op::Shr;
      inst.numDst = 1;
      return true;
    }
    if (b == "popc" || b == "clz" || b == "brev") {
      if (bitWidth(t) < 32 || isF)
        return unsupported(ri);
      return unary(b == "popc" ? Op::Popc : b == "clz" ? Op::Clz : Op::Brev);
    }
    if (b == "bfe") {
      if (!oneType() || !noExtras() || bitWidth(t) < 32 || isF ||
          !operandCount(ri, 4) || !dest(ops[0], inst.dst[0], line) ||
          !source(ops[1], t, inst.src[0], line) ||
          !source(ops[2], Type::U32, inst.src[1], line) ||
          !source(ops[3], Type::U32, inst.src[2], line))
        return false;
      inst.op = Op::Bfe;
      inst.numDst = 1;
      return true;
    }
    if (b == "rcp" || b == "sqrt" || b == "rsqrt" || b == "ex2" ||
        b == "lg2" || b == "sin" || b == "cos" || b == "tanh") {
      if (!(t == Type::F32 || t == Type::F64 ||
            ((t == Type::F16 || t == Type::BF16) &&
             (b == "ex2" || b == "tanh"))))
        return unsupported(ri);
      bool exact = b == "rcp" || b == "sqrt";
      if (!op.approx && !(exact && op.round != Round::Default))
        return unsupported(ri);
      Op o = b == "rcp"    ? Op::Rcp
             : b == "sqrt" ? Op::Sqrt
             : b == "rsqrt" ? Op::Rsqrt
             : b == "ex2"  ? Op::Ex2
             : b == "lg2"  ? Op::Lg2
             : b == "sin"  ? Op::Sin
             : b == "cos"  ? Op::Cos
                           : Op::Tanh;
      return unary(o);
    }
    if (b == "setp") {
      if (!op.hasCmp || !oneType() || op.hasSpace || op.vec != 1 ||
          t == Type::Pred || op.words.size() > 1)
        return fail(line, "unsupported instruction '" + ri.opcode + "'");
      inst.op = Op::Setp;
      inst.cmp = op.cmp;
      bool unsignedCmp = op.cmp == Cmp::Lo || op.cmp == Cmp::Ls ||
                         op.cmp == Cmp::Hi || op.cmp == Cmp::Hs;
      bool floatCmp = op.cmp >= Cmp::Equ;
      if ((isF && unsignedCmp) || (!isF && floatCmp))
        return unsupported(ri);
      if (!op.words.empty()) {
        const std::string &w = op.words[0];
        inst.boolOp = w == "and" ? BoolOp::And
                      : w == "or" ? BoolOp::Or
                      : w == "xor" ? BoolOp::Xor
                                   : BoolOp::None;
        if (inst.boolOp == BoolOp::None || !operandCount(ri, 4))
          return unsupported(ri);
        if (ops[3].kind != RawOperand::Name)
          return unsupported(ri);
        RawOperand c = ops[3];
        inst.negC = c.negated;
        c.negated = false;
        if (!source(c, Type::Pred, inst.src[2], line))
          return false;
      } else if (!operandCount(ri, 3)) {
        return false;
      }
      if (ops[0].kind == RawOperand::PredPair) {
        inst.numDst = 2;
        if (!dest(ops[0].elems[0], inst.dst[0], line) ||
            !dest(ops[0].elems[1], inst.dst[1], line))
          return false;
      } else {
        inst.numDst = 1;
        if (!dest(ops[0], inst.dst[0], line))
          return false;
      }
      return srcs(1, 2, t);
    }
    if (b == "selp") {
      if (!oneType() || !noExtras() || t == Type::Pred || !operandCount(ri, 4) ||
          !dest(ops[0], inst.dst[0], line) || !srcs(1, 2, t) ||
          !source(ops[3], Type::Pred, inst.src[2], line))
        return false;
      inst.op = Op::Selp;
      inst.numDst = 1;
      return true;
    }
    if (b == "cvt") {
      if (op.types.size() != 2 || op.hasSpace || op.vec != 1 ||
          !op.words.empty() || !operandCount(ri, 2))
        return fail(line, "unsupported instruction '" + ri.opcode + "'");
      inst.op = Op::Cvt;
      inst.type = op.types[0];
      inst.type2 = op.types[1];
      if (inst.type == Type::Pred || inst.type2 == Type::Pred)
        return unsupported(ri);
      bool dF = isFloat(inst.type), sF = isFloat(inst.type2);
      bool intRound = op.round >= Round::RNI;
      // Rounding: float->int needs an integer mode; float->narrower float
      // a float mode; float->same float an integer mode or none.
      if (dF && sF && inst.type == inst.type2) {
        if (op.round != Round::Default && !intRound)
          return unsupported(ri);
      } else if (!dF && sF) {
        if (!intRound)
          return unsupported(ri);
      } else if (op.round != Round::Default && intRound) {
        return unsupported(ri);
      }
      inst.numDst = 1;
      return dest(ops[0], inst.dst[0], line) &&
             source(ops[1], inst.type2, inst.src[0], line);
    }
    if (b == "cvta") {
      if (!oneType() || (t != Type::U64 && t != Type::B64) || !op.hasSpace ||
          !operandCount(ri, 2) ||
          !(op.space == Space::Global || op.space == Space::Shared ||
            op.space == Space::Const || op.space == Space::Param))
        return unsupported(ri);
      if (op.space == Space::Param)
        return unsupported(ri);
      inst.op = Op::Cvta;
      inst.toGeneric = !op.to;
      inst.numDst = 1;
      return dest(ops[0], inst.dst[0], line) && srcs(1, 1, t);
    }
    if (b == "ld" || b == "st") {
      if (!oneType() || t == Type::Pred || !op.words.empty() ||
          op.round != Round::Default || op.hasCmp)
        return unsupported(ri);
      if (op.space == Space::Local)
        return fail(line, "local memory is not supported ('" + ri.opcode + "')");
      if (!operandCount(ri, 2))
        return false;
      inst.op = b == "ld" ? Op::Ld : Op::St;
      inst.vec = static_cast<uint8_t>(op.vec);
      const RawOperand &addr = b == "ld" ? ops[1] : ops[0];
      const RawOperand &value = b == "ld" ? ops[0] : ops[1];
      if (!address(addr, inst, line))
        return false;
      if (op.space == Space::Param && inst.src[0] != kZero)
        return fail(line, "ld.param through a register is not supported");
      std::vector<RawOperand> elems;
      if (op.vec > 1) {
        if (value.kind != RawOperand::Vector ||
            value.elems.size() != size_t(op.vec))
          return fail(line, "'" + ri.opcode + "' needs a vector of " +
                                std::to_string(op.vec));
        for (const std::string &e : value.elems) {
          RawOperand o;
          o.text = e;
          elems.push_back(o);
        }
      } else {
        elems.push_back(value);
      }
      for (size_t i = 0; i < elems.size(); ++i) {
        if (b == "ld") {
          if (!dest(elems[i], inst.dst[i], line))
            return false;
        } else if (!source(elems[i], t, inst.src[1 + i], line)) {
          return false;
        }
      }
      inst.numDst = b == "ld" ? static_cast<uint8_t>(op.vec) : 0;
      return true;
    }
    if (b == "bra") {
      if (!operandCount(ri, 1) || ops[0].kind != RawOperand::Name)
        return unsupported(ri);
      auto it = labels.find(ops[0].text);
      if (it == labels.end())
        return fail(line, "unknown label " + ops[0].text);
      inst.op = Op::Bra;
      inst.offset = it->second;
      return true;
    }
    if (b == "ret" || b == "exit") {
      if (!ops.empty())
        return unsupported(ri);
      inst.op = Op::Exit;
      return true;
    }
    if (b == "bar" || b == "barrier") {
      // bar.sync 0 / barrier.sync[.aligned] 0: the whole block.
      if (!(op.sync || (b == "bar" && ri.opcode == "bar.sync")) ||
          ops.size() != 1 || ops[0].kind != RawOperand::Number ||
          ops[0].text != "0")
        return fail(line, "unsupported barrier '" + ri.opcode +
                              "' (only barrier 0 of the whole block)");
      inst.op = Op::Bar;
      return true;
    }
    if (b == "membar" || b == "fence") {
      inst.op = Op::Nop; // one OS thread runs a block: memory is coherent
      return true;
    }
    if (b == "mma") {
      // mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}.{f16,bf16}.f32
      // {d0..d3}, {a0..a3}, {b0, b1}, {c0..c3}: a warp's 16x8 f32 tile.
      bool shape =
          op.words == std::vector<std::string>{"m16n8k16", "row", "col"};
      if (!op.sync || !op.aligned || !shape || op.types.size() != 4 ||
          op.types[0] != Type::F32 || op.types[3] != Type::F32 ||
          op.types[1] != op.types[2] ||
          (op.types[1] != Type::F16 && op.types[1] != Type::BF16) ||
          !operandCount(ri, 4))
        return unsupported(ri);
      const size_t counts[4] = {4, 4, 2, 4};
      for (size_t i = 0; i < 4; ++i)
        if (ops[i].kind != RawOperand::Vector ||
            ops[i].elems.size() != counts[i])
          return unsupported(ri);
      inst.op = Op::Mma;
      inst.type = op.types[1];
      inst.numDst = 4;
      for (size_t i = 0; i < 4; ++i)
        if (!dest(ops[0].elems[i], inst.dst[i], line))
          return false;
      uint32_t slot = 0;
      for (size_t i = 1; i < 4; ++i)
        for (const std::string &name : ops[i].elems) {
          RawOperand reg;
          reg.text = name;
          if (!source(reg, i == 3 ? Type::F32 : Type::B32, inst.src[slot++],
                      line))
            return false;
        }
      return true;
    }
    if (b == "ldmatrix") {
      // ldmatrix.sync.aligned.m8n8.{x1,x2,x4}[.trans].shared.b16 {d..}, [a]:
      // 1, 2 or 4 8x8 matrices of 16-bit elements, whose rows lanes 0-7,
      // 8-15, ... address.
      std::vector<std::string> words = op.words;
      bool trans = !words.empty() && words.back() == "trans";
      if (trans)
        words.pop_back();
      int count = words.size() == 2 && words[0] == "m8n8"
                      ? words[1] == "x1"   ? 1
                        : words[1] == "x2" ? 2
                        : words[1] == "x4" ? 4
                                           : 0
                      : 0;
      if (!op.sync || !op.aligned || !count || !oneType() || t != Type::B16 ||
          (op.hasSpace && op.space != Space::Shared) || !operandCount(ri, 2) ||
          ops[0].kind != RawOperand::Vector ||
          ops[0].elems.size() != static_cast<size_t>(count))
        return unsupported(ri);
      inst.op = Op::Ldmatrix;
      inst.vec = static_cast<uint8_t>(count);
      inst.transpose = trans;
      inst.numDst = static_cast<uint8_t>(count);
      for (int i = 0; i < count; ++i)
        if (!dest(ops[0].elems[i], inst.dst[i], line))
          return false;
      return address(ops[1], inst, line);
    }
    if (b == "shfl") {
      if (!op.sync || !oneType() || bitWidth(t) != 32 || op.words.size() != 1 ||
          !operandCount(ri, 5))
        return unsupported(ri);
      const std::string &m = op.words[0];
      inst.shfl = m == "up"     ? ShflMode::Up
                  : m == "down" ? ShflMode::Down
                  : m == "bfly" ? ShflMode::Bfly
                                : ShflMode::Idx;
      if (m != "up" && m != "down" && m != "bfly" && m != "idx")
        return unsupported(ri);
      inst.op = Op::Shfl;
      if (ops[0].kind == RawOperand::PredPair) {
        inst.numDst = 2;
        if (!dest(ops[0].elems[0], inst.dst[0], line) ||
            !dest(ops[0].elems[1], inst.dst[1], line))
          return false;
      } else {
        inst.numDst = 1;
        if (!dest(ops[0], inst.dst[0], line))
          return false;
      }
      return source(ops[1], t, inst.src[0], line) &&
             source(ops[2], Type::U32, inst.src[1], line) &&
             source(ops[3], Type::U32, inst.src[2], line) &&
             source(ops[4], Type::U32, inst.src[3], line);
    }
    if (b == "atom" || b == "red") {
      if (!oneType() || op.words.size() != 1 || op.vec != 1 ||
          !(op.space == Space::Global || op.space == Space::Shared ||
            !op.hasSpace) ||
          bitWidth(t) < 32)
        return unsupported(ri);
      static const std::map<std::string, AtomOp> atoms = {
          {"add", AtomOp::Add}, {"min", AtomOp::Min}, {"max", AtomOp::Max},
          {"exch", AtomOp::Exch}, {"cas", AtomOp::Cas}, {"and", AtomOp::And},
          {"or", AtomOp::Or},   {"xor", AtomOp::Xor}, {"inc", AtomOp::Inc},
          {"dec", AtomOp::Dec}};
      inst.atom = atoms.at(op.words[0]);
      if (isF && !(inst.atom == AtomOp::Add || inst.atom == AtomOp::Exch) &&
          !(t == Type::F32 && (inst.atom == AtomOp::Min ||
                               inst.atom == AtomOp::Max)))
        return unsupported(ri);
      if (t == Type::F16 || t == Type::BF16)
        return unsupported(ri);
      inst.op = Op::Atom;
      size_t first = 0;
      if (b == "atom") {
        if (!dest(ops[0], inst.dst[0], line))
          return false;
        inst.numDst = 1;
        first = 1;
      }
      size_t values = inst.atom == AtomOp::Cas ? 2 : 1;
      if (!operandCount(ri, first + 1 + values) ||
          !address(ops[first], inst, line))
        return false;
      for (size_t i = 0; i < values; ++i)
        if (!source(ops[first + 1 + i], t, inst.src[1 + i], line))
          return false;
      return true;
    }
    return unsupported(ri);
  }
};

} // namespace

std::unique_ptr<Program> ptxemu::loadProgram(const char *text,
                                             std::string &error) {
  RawModule raw;
  if (!parseModule(text, raw, error) || !inlineCalls(raw, error))
    return nullptr;
  auto program = std::make_unique<Program>();
  Decoder decoder(raw, *program);
  if (!decoder.decodeGlobals()) {
    error = decoder.error;
    return nullptr;
  }
  for (const RawEntry &re : raw.entries) {
    auto entry = std::make_unique<Entry>();
    if (!decoder.decodeEntry(re, *entry)) {
      error = decoder.error + " (in " + re.name + ")";
      return nullptr;
    }
    program->entries.push_back(std::move(entry));
  }
  return program;
}
