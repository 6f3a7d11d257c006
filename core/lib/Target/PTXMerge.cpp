//===- PTXMerge.cpp - One PTX module from several -------------------------===//

#include "PTXMerge.h"

#include "llvm/ADT/StringSet.h"

using namespace accy::target;

namespace {
struct SplitModule {
  llvm::StringRef header; // through the `.address_size` line
  llvm::StringRef body;
};
} // namespace

static std::optional<SplitModule> split(llvm::StringRef ptx) {
  size_t at = ptx.find("\n.address_size ");
  if (at == llvm::StringRef::npos)
    return std::nullopt;
  size_t end = ptx.find('\n', at + 1);
  if (end == llvm::StringRef::npos)
    return std::nullopt;
  return SplitModule{ptx.take_front(end + 1), ptx.drop_front(end + 1)};
}

/// The symbol a module-scope directive line declares (`.visible .entry
/// k0(`, `.global .align 4 .b8 table[16];`, `.func (.param .b32 r) f(`), or
/// "" for other lines.
static llvm::StringRef declaredSymbol(llvm::StringRef line) {
  line = line.trim();
  if (!line.starts_with("."))
    return {};
  static const char *const kScopes[] = {".visible", ".extern", ".weak",
                                        ".entry",   ".func",   ".global",
                                        ".shared",  ".const"};
  bool declares = false;
  for (const char *scope : kScopes)
    declares |= line.starts_with(scope);
  if (!declares)
    return {};
  // A function's return parameter comes before its name: skip it.
  static constexpr llvm::StringLiteral kFunc = ".func";
  size_t func = line.find(kFunc);
  if (func != llvm::StringRef::npos) {
    llvm::StringRef afterFunc = line.drop_front(func + kFunc.size()).ltrim();
    if (afterFunc.starts_with("(")) {
      size_t close = afterFunc.find(')');
      if (close == llvm::StringRef::npos)
        return {};
      line = afterFunc.drop_front(close + 1);
    }
  }
  llvm::StringRef head = line.take_front(line.find_first_of("([;=")).trim();
  size_t space = head.find_last_of(" \t");
  return space == llvm::StringRef::npos ? head : head.drop_front(space + 1);
}

std::optional<std::string>
accy::target::mergePTX(llvm::ArrayRef<llvm::StringRef> modules) {
  if (modules.empty())
    return std::nullopt;
  std::optional<SplitModule> first = split(modules.front());
  if (!first)
    return std::nullopt;
  std::string merged = first->header.str();
  llvm::StringSet<> symbols;
  for (llvm::StringRef ptx : modules) {
    std::optional<SplitModule> module = split(ptx);
    if (!module || module->header != first->header)
      return std::nullopt;
    // Only lines outside function bodies declare module-scope symbols. A
    // module may declare a function before it defines it; two modules may
    // not share a symbol.
    llvm::StringSet<> own;
    int depth = 0;
    llvm::StringRef rest = module->body;
    while (!rest.empty()) {
      auto [line, tail] = rest.split('\n');
      rest = tail;
      if (depth == 0) {
        llvm::StringRef symbol = declaredSymbol(line);
        if (!symbol.empty() && own.insert(symbol).second &&
            symbols.contains(symbol))
          return std::nullopt;
      }
      depth += line.count('{') - line.count('}');
    }
    for (const auto &symbol : own)
      symbols.insert(symbol.getKey());
    merged += module->body.str();
  }
  return merged;
}
