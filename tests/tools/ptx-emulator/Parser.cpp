//===- Parser.cpp - PTX text to a syntax tree -----------------------------===//
//
// A hand-written lexer and recursive-descent parser for the subset of PTX
// NVVM emits for Accy's kernels. It keeps opcodes and operands as text; the
// decoder (Decoder.cpp) gives them meaning. Every rejection names the line
// and the token, so an unsupported construct is obvious in the message.
//
//===----------------------------------------------------------------------===//
#include "Parser.h"

#include <cctype>
#include <cstdlib>

using namespace ptxemu;

namespace {

struct Token {
  enum Kind { Word, Number, String, Punct, End } kind = End;
  std::string text;
  uint32_t line = 0;
};

std::vector<Token> lex(const char *p) {
  std::vector<Token> tokens;
  uint32_t line = 1;
  auto wordStart = [](char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_' ||
           c == '.' || c == '%' || c == '$';
  };
  auto wordChar = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
           c == '.' || c == '$' || c == '%';
  };
  while (*p) {
    char c = *p;
    if (c == '\n') {
      ++line;
      ++p;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++p;
    } else if (c == '/' && p[1] == '/') {
      while (*p && *p != '\n')
        ++p;
    } else if (c == '/' && p[1] == '*') {
      p += 2;
      while (*p && !(p[0] == '*' && p[1] == '/')) {
        if (*p == '\n')
          ++line;
        ++p;
      }
      if (*p)
        p += 2;
    } else if (wordStart(c)) {
      const char *start = p;
      while (wordChar(*p))
        ++p;
      tokens.push_back({Token::Word, std::string(start, p), line});
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      const char *start = p;
      while (std::isalnum(static_cast<unsigned char>(*p)) || *p == '.' ||
             *p == '_')
        ++p;
      tokens.push_back({Token::Number, std::string(start, p), line});
    } else if (c == '"') {
      const char *start = ++p;
      while (*p && *p != '"' && *p != '\n')
        ++p;
      tokens.push_back({Token::String, std::string(start, p), line});
      if (*p == '"')
        ++p;
    } else {
      tokens.push_back({Token::Punct, std::string(1, c), line});
      ++p;
    }
  }
  tokens.push_back({Token::End, "<end of text>", line});
  return tokens;
}

class Parser {
public:
  explicit Parser(std::vector<Token> tokens) : toks(std::move(tokens)) {}

  bool module(RawModule &out) {
    bool isExtern = false;
    while (peek().kind != Token::End) {
      const Token &t = next();
      if (t.text == ".version") {
        if (!expectKind(Token::Number, "a version number"))
          return false;
      } else if (t.text == ".target") {
        if (!expectKind(Token::Word, "a target name"))
          return false;
        while (isPunct(","))
          if (next(), !expectKind(Token::Word, "a target option"))
            return false;
      } else if (t.text == ".address_size") {
        const Token &n = next();
        if (n.text != "64")
          return fail(n, "only .address_size 64 is supported");
      } else if (t.text == ".visible" || t.text == ".weak") {
        continue;
      } else if (t.text == ".extern") {
        isExtern = true;
        continue;
      } else if (t.text == ".entry" || t.text == ".func") {
        bool isFunction = t.text == ".func";
        RawEntry entry;
        entry.line = t.line;
        bool defined = false;
        if (isFunction && isPunct("(") &&
            !parseParams(entry.returns, "the results"))
          return false;
        if (!parseEntry(entry, defined))
          return false;
        std::vector<RawEntry> &into = isFunction ? out.functions : out.entries;
        if (defined)
          into.push_back(std::move(entry));
      } else if (t.text == ".global" || t.text == ".shared" ||
                 t.text == ".const") {
        RawVar var;
        var.isExtern = isExtern;
        if (!parseVar(t, var))
          return false;
        out.globals.push_back(std::move(var));
      } else if (t.text == ".file") {
        while (peek().line == t.line && peek().kind != Token::End)
          next();
      } else {
        return fail(t, "unsupported directive or statement '" + t.text +
                           "' at module scope");
      }
      isExtern = false;
    }
    return true;
  }

  std::string error;

private:
  std::vector<Token> toks;
  size_t pos = 0;

  const Token &peek(size_t ahead = 0) const {
    size_t i = pos + ahead;
    return toks[i < toks.size() ? i : toks.size() - 1];
  }
  const Token &next() {
    const Token &t = peek();
    if (pos < toks.size() - 1)
      ++pos;
    return t;
  }
  bool isPunct(const char *p) const {
    return peek().kind == Token::Punct && peek().text == p;
  }
  bool fail(const Token &t, const std::string &message) {
    if (error.empty())
      error = "line " + std::to_string(t.line) + ": " + message;
    return false;
  }
  bool expectPunct(const char *p) {
    if (!isPunct(p))
      return fail(peek(), std::string("expected '") + p + "', found '" +
                              peek().text + "'");
    next();
    return true;
  }
  bool expectKind(Token::Kind kind, const char *what) {
    if (peek().kind != kind)
      return fail(peek(), std::string("expected ") + what + ", found '" +
                              peek().text + "'");
    next();
    return true;
  }
  bool number(int64_t &value) {
    bool negative = false;
    if (isPunct("-")) {
      negative = true;
      next();
    }
    const Token &t = peek();
    if (t.kind != Token::Number)
      return fail(t, "expected a number, found '" + t.text + "'");
    next();
    value = static_cast<int64_t>(std::strtoull(t.text.c_str(), nullptr, 0));
    if (negative)
      value = -value;
    return true;
  }

  // The number after `.align`.
  bool alignment(uint32_t &align) {
    int64_t a;
    if (!number(a))
      return false;
    align = static_cast<uint32_t>(a);
    return true;
  }

  // `.shared .align 4 .b8 name[32];` and friends; `space` already read.
  bool parseVar(const Token &space, RawVar &var) {
    var.space = space.text.substr(1);
    var.line = space.line;
    while (peek().kind == Token::Word && peek().text[0] == '.') {
      const Token &t = next();
      if (t.text == ".align") {
        if (!alignment(var.align))
          return false;
      } else if (t.text.size() > 1 && t.text[0] == '.' &&
                 (t.text[1] == 'b' || t.text[1] == 'u' || t.text[1] == 's' ||
                  t.text[1] == 'f')) {
        var.type = t.text.substr(1);
      } else {
        return fail(t, "unsupported qualifier '" + t.text + "' of a " +
                           space.text + " variable");
      }
    }
    if (var.type.empty())
      return fail(peek(), "a " + space.text + " variable without a type");
    const Token &name = next();
    if (name.kind != Token::Word)
      return fail(name, "expected a variable name, found '" + name.text + "'");
    var.name = name.text;
    if (isPunct("[")) {
      next();
      if (isPunct("]")) {
        var.count = -1;
      } else if (!number(var.count)) {
        return false;
      }
      if (!expectPunct("]"))
        return false;
    }
    if (isPunct("=")) {
      next();
      bool braces = isPunct("{");
      if (braces)
        next();
      do {
        if (isPunct(","))
          next();
        std::string sign;
        if (isPunct("-")) {
          sign = "-";
          next();
        }
        const Token &v = next();
        if (v.kind != Token::Number)
          return fail(v, "unsupported initializer '" + v.text + "'");
        var.init.push_back(sign + v.text);
      } while (isPunct(","));
      if (braces && !expectPunct("}"))
        return false;
    }
    return expectPunct(";");
  }

  // `.param .align 8 .b8 name[16]`, `.param .u64 .ptr .global name`.
  bool parseParam(RawParam &param, const Token &keyword) {
    param.line = keyword.line;
    while (peek().kind == Token::Word && peek().text[0] == '.') {
      const Token &q = next();
      if (q.text == ".align") {
        if (!alignment(param.align))
          return false;
      } else if (q.text == ".ptr" || q.text == ".global" ||
                 q.text == ".shared" || q.text == ".const" ||
                 q.text == ".local") {
        continue; // pointer attributes: the value is still a u64
      } else {
        param.type = q.text.substr(1);
      }
    }
    const Token &pn = next();
    if (pn.kind != Token::Word)
      return fail(pn, "expected a parameter name");
    param.name = pn.text;
    if (isPunct("[")) {
      next();
      if (!number(param.count) || !expectPunct("]"))
        return false;
    }
    return true;
  }

  // `( .param ..., .param ... )`, the opening parenthesis next.
  bool parseParams(std::vector<RawParam> &params, const std::string &owner) {
    if (!expectPunct("("))
      return false;
    while (!isPunct(")")) {
      const Token &t = next();
      if (t.text != ".param")
        return fail(t, "expected .param in the parameter list of " + owner +
                           ", found '" + t.text + "'");
      RawParam param;
      if (!parseParam(param, t))
        return false;
      params.push_back(param);
      if (isPunct(","))
        next();
      else if (!isPunct(")"))
        return fail(peek(), "expected ',' or ')' after parameter " +
                                param.name);
    }
    next();
    return true;
  }

  bool parseEntry(RawEntry &entry, bool &defined) {
    const Token &name = next();
    if (name.kind != Token::Word)
      return fail(name, "expected an entry name");
    entry.name = name.text;
    if (!parseParams(entry.params, entry.name))
      return false;
    // Performance directives, then the body (or `;` for a declaration).
    while (true) {
      const Token &t = peek();
      if (t.text == ".maxntid" || t.text == ".reqntid") {
        next();
        for (int i = 0; i < 3; ++i) {
          int64_t v;
          if (!number(v))
            return false;
          entry.maxThreads[i] = static_cast<uint32_t>(v);
          if (!isPunct(","))
            break;
          next();
        }
      } else if (t.text == ".minnctapersm" || t.text == ".maxnreg" ||
                 t.text == ".maxclusterrank") {
        next();
        int64_t v;
        if (!number(v))
          return false;
      } else if (t.text == ".noreturn") {
        next();
      } else if (t.text == ".pragma") {
        next();
        if (!expectKind(Token::String, "a pragma string") ||
            !expectPunct(";"))
          return false;
      } else {
        break;
      }
    }
    if (isPunct(";")) {
      next();
      defined = false;
      return true;
    }
    defined = true;
    if (!expectPunct("{"))
      return false;
    return parseBody(entry);
  }

  bool parseBody(RawEntry &entry) {
    int depth = 1;
    while (depth > 0) {
      const Token &t = peek();
      if (t.kind == Token::End)
        return fail(t, "unterminated body of " + entry.name);
      if (t.kind == Token::Punct && t.text == "{") {
        next();
        ++depth;
        continue;
      }
      if (t.kind == Token::Punct && t.text == "}") {
        next();
        --depth;
        continue;
      }
      if (t.text == ".reg") {
        next();
        const Token &type = next();
        if (type.kind != Token::Word || type.text[0] != '.')
          return fail(type, "expected a register type");
        if (type.text == ".v2" || type.text == ".v4")
          return fail(type, "vector registers are not supported");
        do {
          if (isPunct(","))
            next();
          const Token &name = next();
          if (name.kind != Token::Word)
            return fail(name, "expected a register name");
          RawReg reg;
          reg.type = type.text.substr(1);
          reg.name = name.text;
          reg.line = name.line;
          if (isPunct("<")) {
            next();
            if (!number(reg.count) || !expectPunct(">"))
              return false;
          }
          entry.regs.push_back(reg);
        } while (isPunct(","));
        if (!expectPunct(";"))
          return false;
        continue;
      }
      if (t.text == ".shared" || t.text == ".local") {
        const Token &space = next();
        RawVar var;
        if (!parseVar(space, var))
          return false;
        entry.vars.push_back(std::move(var));
        continue;
      }
      if (t.text == ".pragma") {
        next();
        if (!expectKind(Token::String, "a pragma string") ||
            !expectPunct(";"))
          return false;
        continue;
      }
      if (t.text == ".param") { // a call site's argument or result
        const Token &keyword = next();
        RawParam param;
        if (!parseParam(param, keyword) || !expectPunct(";"))
          return false;
        entry.callParams.push_back(param);
        continue;
      }
      if (t.text == ".loc") { // debug line info: the rest of the line
        uint32_t line = t.line;
        while (peek().line == line && peek().kind != Token::End)
          next();
        continue;
      }
      if (t.kind == Token::Word && peek(1).kind == Token::Punct &&
          peek(1).text == ":") {
        RawInst label;
        label.label = t.text;
        label.line = t.line;
        entry.body.push_back(label);
        next();
        next();
        continue;
      }
      RawInst inst;
      inst.line = t.line;
      if (isPunct("@")) {
        next();
        if (isPunct("!")) {
          next();
          inst.guardNegated = true;
        }
        const Token &g = next();
        if (g.kind != Token::Word)
          return fail(g, "expected a guard predicate");
        inst.guard = g.text;
      }
      const Token &op = next();
      if (op.kind != Token::Word || op.text[0] == '.')
        return fail(op, "unsupported statement '" + op.text + "' in " +
                            entry.name);
      inst.opcode = op.text;
      while (!isPunct(";")) {
        RawOperand operand;
        if (!parseOperand(operand))
          return false;
        inst.operands.push_back(std::move(operand));
        if (isPunct(","))
          next();
        else if (!isPunct(";"))
          return fail(peek(), "unexpected '" + peek().text +
                                  "' in the operands of " + inst.opcode);
      }
      next();
      entry.body.push_back(std::move(inst));
    }
    return true;
  }

  bool parseOperand(RawOperand &o) {
    const Token &t = peek();
    // `{%r1, %r2}`, or a call's `(retval0)` and `(param0, param1)`.
    if (t.kind == Token::Punct && (t.text == "{" || t.text == "(")) {
      bool braces = t.text == "{";
      const char *close = braces ? "}" : ")";
      const char *what = braces ? "a vector operand" : "an argument list";
      next();
      o.kind = braces ? RawOperand::Vector : RawOperand::List;
      while (!isPunct(close)) {
        const Token &e = next();
        if (e.kind != Token::Word)
          return fail(e, std::string("expected a name in ") + what);
        o.elems.push_back(e.text);
        if (isPunct(","))
          next();
        else if (!isPunct(close))
          return fail(peek(), std::string("expected ',' or '") + close +
                                  "' in " + what);
      }
      next();
      return true;
    }
    if (t.kind == Token::Punct && t.text == "[") {
      next();
      o.kind = RawOperand::Address;
      if (peek().kind == Token::Word) {
        o.base = next().text;
        if (isPunct("+")) {
          next();
          if (!number(o.offset))
            return false;
        } else if (isPunct("-")) {
          if (!number(o.offset))
            return false;
        }
      } else if (!number(o.offset)) {
        return false;
      }
      return expectPunct("]");
    }
    if ((t.kind == Token::Punct && t.text == "-") || t.kind == Token::Number) {
      std::string sign;
      if (t.kind == Token::Punct) {
        next();
        sign = "-";
      }
      const Token &n = next();
      if (n.kind != Token::Number)
        return fail(n, "expected a number after '-'");
      o.kind = RawOperand::Number;
      o.text = sign + n.text;
      return true;
    }
    if (t.kind == Token::Punct && t.text == "!") {
      next();
      o.negated = true;
    }
    const Token &w = next();
    if (w.kind != Token::Word)
      return fail(w, "unsupported operand '" + w.text + "'");
    o.text = w.text;
    if (isPunct("|")) {
      next();
      const Token &second = next();
      if (second.kind != Token::Word)
        return fail(second, "expected a predicate after '|'");
      o.kind = RawOperand::PredPair;
      o.elems = {w.text, second.text};
    }
    return true;
  }
};

} // namespace

bool ptxemu::parseModule(const char *text, RawModule &out,
                         std::string &error) {
  Parser parser(lex(text));
  if (parser.module(out))
    return true;
  error = parser.error;
  return false;
}
