//===- Parser.h - PTX text to a syntax tree --------------------------------===//
//
// The first half of loading a module: tokens and statements, with no
// meaning attached yet. It recognises the directives NVVM emits (.version,
// .target, .address_size, .visible/.extern .entry and .func with .param
// lists, performance directives, .reg, .shared/.global/.const/.local
// variables, a call's .param declarations, .pragma) and splits the body
// into labels and instructions with their guard, opcode and operands.
// Anything else is an error naming its line.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_PTX_EMULATOR_PARSER_H
#define ACCY_PTX_EMULATOR_PARSER_H

#include <cstdint>
#include <string>
#include <vector>

namespace ptxemu {

struct RawOperand {
  enum Kind { Name, Number, Vector, Address, PredPair, List } kind = Name;
  std::string text;               // Name, Number (with its sign)
  bool negated = false;           // !%p
  std::vector<std::string> elems; // Vector, List: elements; PredPair: two names
  std::string base;               // Address: register or symbol, or empty
  int64_t offset = 0;             // Address: constant part
};

struct RawInst {
  std::string label;  // a label statement when non-empty
  std::string guard;  // @%p
  bool guardNegated = false;
  std::string opcode; // "ld.global.v4.f32"
  std::vector<RawOperand> operands;
  uint32_t line = 0;
};

struct RawVar {
  std::string space; // "shared", "global", "const", "local"
  uint32_t align = 0;
  std::string type; // "b8", "u32", ...
  std::string name;
  int64_t count = 1; // array length; -1 for `name[]`
  bool isExtern = false;
  std::vector<std::string> init; // initializer literals
  uint32_t line = 0;
};

struct RawReg {
  std::string type;
  std::string name; // prefix for `%r<N>`
  int64_t count = -1; // N for `%r<N>`, -1 for a plain name
  uint32_t line = 0;
};

struct RawParam {
  std::string type;
  std::string name;
  uint32_t align = 0;
  int64_t count = 1; // .b8 name[N]
  uint32_t line = 0;
};

/// An .entry, or a .func (which may return values).
struct RawEntry {
  std::string name;
  std::vector<RawParam> params;
  std::vector<RawParam> returns;    // .func: `(.param .b32 func_retval0)`
  std::vector<RawParam> callParams; // `.param .b32 param0;` of call sites
  std::vector<RawReg> regs;
  std::vector<RawVar> vars;
  std::vector<RawInst> body;
  uint32_t maxThreads[3] = {0, 0, 0};
  uint32_t line = 0;
};

struct RawModule {
  std::vector<RawVar> globals;
  std::vector<RawEntry> entries;
  std::vector<RawEntry> functions; // defined .func, called by entries
};

/// Parses PTX text; false with `error` ("line N: ...") when it cannot.
bool parseModule(const char *text, RawModule &out, std::string &error);

} // namespace ptxemu

#endif
