//===- CxxNames.cpp - Accy names as C++ identifiers -----------------------===//

#include "CxxNames.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace accy;
using namespace accy::codegen;

/// C++20's keywords and alternative tokens, less those Accy reserves itself
/// (`const`, `return`, `true`, `false`, `bool`, `import`), which never reach
/// a product; the macros of <string>, <cstdint> and <cerrno> (which
/// accy/Runtime.h includes) and GNU mode's predefined `linux` and `unix`,
/// which would expand inside a declaration; and the names the launch
/// function itself declares.
static constexpr llvm::StringLiteral kUnusable[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor",
    "break", "case", "catch", "char", "char8_t", "char16_t", "char32_t",
    "class", "co_await", "co_return", "co_yield", "compl", "concept",
    "consteval", "constexpr", "constinit", "const_cast", "continue", "decltype",
    "default", "delete", "do", "double", "dynamic_cast", "else", "enum",
    "explicit", "export", "extern", "float", "for", "friend", "goto", "if",
    "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not",
    "not_eq", "nullptr", "operator", "or", "or_eq", "private", "protected",
    "public", "register", "reinterpret_cast", "requires", "short", "signed",
    "sizeof", "static", "static_assert", "static_cast", "struct", "switch",
    "template", "this", "thread_local", "throw", "try", "typedef", "typeid",
    "typename", "union", "unsigned", "using", "virtual", "void", "volatile",
    "wchar_t", "while", "xor", "xor_eq",
    // Macros.
    "EOF", "NULL", "errno", "linux", "unix",
    // Declared by every launch function (see Embedding.cpp).
    "args", "stream"};

bool accy::codegen::needsCxxEscape(llvm::StringRef name) {
  return name.starts_with("_") || name.contains("__") ||
         llvm::is_contained(kUnusable, name);
}

/// `name` without the underscores that make it reserved, and a trailing
/// `_`: no keyword, macro or reserved name ends that way.
static std::string escapedBase(llvm::StringRef name) {
  llvm::SmallVector<llvm::StringRef> words;
  name.split(words, '_', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  std::string base = llvm::join(words, "_");
  return (base.empty() ? "p" : base) + "_";
}

std::vector<std::string>
accy::codegen::toCxxIdentifiers(llvm::ArrayRef<std::string> names) {
  // The names that stay as they are come first, so that an escaped name
  // never takes one of them (`new` and `new_` give `new_2` and `new_`).
  llvm::StringSet<> taken;
  for (const std::string &name : names)
    if (!needsCxxEscape(name))
      taken.insert(name);
  std::vector<std::string> result;
  for (const std::string &name : names) {
    if (!needsCxxEscape(name)) {
      result.push_back(name);
      continue;
    }
    std::string base = escapedBase(name), candidate = base;
    for (unsigned n = 2; taken.contains(candidate); ++n)
      candidate = base + std::to_string(n);
    taken.insert(candidate);
    result.push_back(candidate);
  }
  return result;
}
