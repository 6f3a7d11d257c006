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
/// k0(`, `.global .align 4 .b8 table[16];`), or "" for other lines.
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
  size_t stop = line.find_first_of("([;=");
  llvm::StringRef head = line.take_front(stop).rtrim();
  // `.func (.param .b32 r) name(`: the return parameter comes first.
  if (head.ends_with(")"))
    return {};
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
    // Only lines outside function bodies declare module-scope symbols.
    int depth = 0;
    llvm::StringRef rest = module->body;
    while (!rest.empty()) {
      auto [line, tail] = rest.split('\n');
      rest = tail;
      if (depth == 0) {
        llvm::StringRef symbol = declaredSymbol(line);
        if (!symbol.empty() && !symbols.insert(symbol).second)
          return std::nullopt;
      }
      depth += line.count('{') - line.count('}');
    }
    merged += module->body.str();
  }
  return merged;
}
