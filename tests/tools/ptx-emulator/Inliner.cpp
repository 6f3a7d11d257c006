//===- Inliner.cpp - Device function calls spliced into their callers -----===//

#include "Inliner.h"

#include <optional>
#include <unordered_map>
#include <unordered_set>

using namespace ptxemu;

namespace {

/// Calls nested deeper than this are taken for recursion.
constexpr int kMaxDepth = 16;

RawOperand nameOperand(const std::string &name) {
  RawOperand o;
  o.text = name;
  return o;
}

/// An `ld.param.T` or `st.param.T`: whether it loads, and T ("f32", or
/// "v2.f32" for a vector access).
struct ParamAccess {
  bool load;
  std::string type;
};
std::optional<ParamAccess> paramAccess(const std::string &opcode) {
  for (const char *prefix : {"ld.param.", "st.param."})
    if (opcode.compare(0, 9, prefix) == 0)
      return ParamAccess{prefix[0] == 'l', opcode.substr(9)};
  return std::nullopt;
}

/// The body of a function (or of the entry itself) copied into an entry:
/// its registers and call-site parameters get a prefix, its labels a
/// suffix, and its own parameters and results are registers of the caller.
struct Frame {
  const RawEntry &code;
  std::string prefix;      // registers: "" for the entry itself
  std::string labelSuffix; // labels: "" for the entry itself
  /// The function's parameters and results: the caller's registers.
  std::unordered_map<std::string, std::string> bindings;
  std::string returnLabel; // where `ret` goes; "" for the entry
  std::unordered_set<std::string> registers, callParams, labels;
};

class Inliner {
public:
  Inliner(RawModule &module, std::string &error)
      : module(module), error(error) {}

  bool run() {
    for (const RawEntry &function : module.functions)
      functions[function.name] = &function;
    for (RawEntry &entry : module.entries) {
      declared.clear();
      for (const RawReg &reg : entry.regs)
        declared.insert(reg.name);
      Frame frame{entry, "", "", {}, "", {}, {}, {}};
      std::vector<RawInst> body;
      if (!expand(frame, entry, body, 0))
        return false;
      entry.body = std::move(body);
    }
    return true;
  }

private:
  RawModule &module;
  std::string &error;
  std::unordered_map<std::string, const RawEntry *> functions;
  /// The registers the current entry declares.
  std::unordered_set<std::string> declared;
  unsigned sites = 0;

  bool fail(uint32_t line, const std::string &message) {
    if (error.empty())
      error = "line " + std::to_string(line) + ": " + message;
    return false;
  }

  /// Declares `frame`'s registers and call-site parameters in `entry`, as
  /// registers named with its prefix (once each), and records their names.
  bool declareLocals(Frame &frame, RawEntry &entry) {
    auto declare = [&](RawReg reg) {
      reg.name = frame.prefix + reg.name;
      if (declared.insert(reg.name).second)
        entry.regs.push_back(reg);
    };
    for (const RawReg &reg : frame.code.regs) {
      if (reg.count < 0)
        frame.registers.insert(reg.name);
      for (int64_t i = 0; i < reg.count; ++i)
        frame.registers.insert(reg.name + std::to_string(i));
      declare(reg);
    }
    for (const RawParam &param : frame.code.callParams) {
      if (param.count != 1)
        return fail(param.line, "call argument " + param.name +
                                    " is an array; only scalars are supported");
      frame.callParams.insert(param.name);
      RawReg reg;
      reg.type = param.type;
      reg.name = param.name;
      reg.line = param.line;
      declare(reg);
    }
    for (const RawInst &inst : frame.code.body)
      if (!inst.label.empty())
        frame.labels.insert(inst.label);
    if (!frame.prefix.empty() && !frame.code.vars.empty())
      return fail(frame.code.vars.front().line,
                  "variables in function " + frame.code.name +
                      " are not supported");
    return true;
  }

  std::string rename(const Frame &frame, const std::string &name) const {
    return frame.registers.count(name) || frame.callParams.count(name)
               ? frame.prefix + name
               : name;
  }

  void renameOperand(const Frame &frame, RawOperand &o) const {
    o.text = rename(frame, o.text);
    o.base = rename(frame, o.base);
    for (std::string &e : o.elems)
      e = rename(frame, e);
    if (o.kind == RawOperand::Name && frame.labels.count(o.text))
      o.text += frame.labelSuffix;
  }

  /// The register a scalar .param access in `frame` reads or writes, or ""
  /// when it is none of the frame's (an entry's kernel parameter).
  bool paramRegister(const Frame &frame, const RawInst &inst,
                     const RawOperand &address, std::string &reg) {
    if (address.kind != RawOperand::Address)
      return fail(inst.line, "expected an address in '" + inst.opcode + "'");
    if (auto it = frame.bindings.find(address.base);
        it != frame.bindings.end())
      reg = it->second;
    else if (frame.callParams.count(address.base))
      reg = frame.prefix + address.base;
    else
      return true;
    if (address.offset != 0)
      return fail(inst.line, "'" + inst.opcode + "' at an offset into " +
                                 address.base + " is not supported");
    return true;
  }

  bool expand(Frame &frame, RawEntry &entry, std::vector<RawInst> &out,
              int depth) {
    if (!declareLocals(frame, entry))
      return false;
    for (const RawInst &original : frame.code.body) {
      RawInst inst = original;
      if (!inst.label.empty()) {
        inst.label += frame.labelSuffix;
        out.push_back(std::move(inst));
        continue;
      }
      inst.guard = rename(frame, inst.guard);
      for (RawOperand &o : inst.operands)
        renameOperand(frame, o);
      std::optional<ParamAccess> access = paramAccess(inst.opcode);
      if (access && inst.operands.size() == 2) {
        bool load = access->load;
        const RawOperand &address = original.operands[load ? 1 : 0];
        std::string reg;
        if (!paramRegister(frame, inst, address, reg))
          return false;
        if (!reg.empty()) {
          if (access->type.find('.') != std::string::npos)
            return fail(inst.line, "'" + inst.opcode +
                                       "' of a call argument is not supported");
          RawOperand value = inst.operands[load ? 0 : 1];
          RawOperand param = nameOperand(reg);
          inst.opcode = "mov." + access->type;
          inst.operands = {load ? value : param, load ? param : value};
        } else if (depth > 0) {
          return fail(inst.line, "'" + inst.opcode + "' of " + address.base +
                                     " in function " + frame.code.name);
        }
        out.push_back(std::move(inst));
        continue;
      }
      if (inst.opcode == "ret" && depth > 0) {
        inst.opcode = "bra";
        inst.operands = {nameOperand(frame.returnLabel)};
        out.push_back(std::move(inst));
        continue;
      }
      if (inst.opcode == "call" || inst.opcode == "call.uni") {
        if (!call(inst, entry, out, depth))
          return false;
        continue;
      }
      out.push_back(std::move(inst));
    }
    return true;
  }

  /// `call.uni (results), function, (arguments);`, with either list
  /// absent, its operands renamed into the caller already.
  bool call(const RawInst &inst, RawEntry &entry, std::vector<RawInst> &out,
            int depth) {
    if (!inst.guard.empty())
      return fail(inst.line, "a guarded call is not supported");
    const RawOperand *results = nullptr, *callee = nullptr,
                     *arguments = nullptr;
    for (const RawOperand &o : inst.operands) {
      if (o.kind == RawOperand::Name && !callee)
        callee = &o;
      else if (o.kind == RawOperand::List && !callee && !results)
        results = &o;
      else if (o.kind == RawOperand::List && callee && !arguments)
        arguments = &o;
      else
        return fail(inst.line, "unsupported operands of '" + inst.opcode + "'");
    }
    if (!callee)
      return fail(inst.line, "a call without a function");
    auto found = functions.find(callee->text);
    if (found == functions.end())
      return fail(inst.line, "call of " + callee->text +
                                 ", which the module does not define");
    if (depth + 1 > kMaxDepth)
      return fail(inst.line, "calls nested deeper than " +
                                 std::to_string(kMaxDepth) + " (recursion?)");
    const RawEntry &function = *found->second;
    static const std::vector<std::string> none;
    const std::vector<std::string> &resultNames =
        results ? results->elems : none;
    const std::vector<std::string> &argumentNames =
        arguments ? arguments->elems : none;
    if (resultNames.size() != function.returns.size() ||
        argumentNames.size() != function.params.size())
      return fail(inst.line, "call of " + function.name + " with " +
                                 std::to_string(argumentNames.size()) +
                                 " arguments and " +
                                 std::to_string(resultNames.size()) +
                                 " results; it has " +
                                 std::to_string(function.params.size()) +
                                 " and " +
                                 std::to_string(function.returns.size()));
    std::string site = std::to_string(sites++);
    Frame frame{function, function.name + "$", "$" + site, {},
                "$ret" + site + "$" + function.name, {}, {}, {}};
    for (size_t i = 0; i < argumentNames.size(); ++i)
      frame.bindings[function.params[i].name] = argumentNames[i];
    for (size_t i = 0; i < resultNames.size(); ++i)
      frame.bindings[function.returns[i].name] = resultNames[i];
    if (!expand(frame, entry, out, depth + 1))
      return false;
    RawInst end;
    end.label = frame.returnLabel;
    end.line = inst.line;
    out.push_back(std::move(end));
    return true;
  }
};

} // namespace

bool ptxemu::inlineCalls(RawModule &module, std::string &error) {
  return Inliner(module, error).run();
}
