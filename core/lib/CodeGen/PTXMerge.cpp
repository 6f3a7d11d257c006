//===- PTXMerge.cpp - One PTX module from several -------------------------===//

#include "PTXMerge.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <vector>

using namespace accy::codegen;

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

namespace {
/// A module body's text: a module-scope item (a declaration or definition,
/// from the line that names its symbol through its closing `;` or `}`), or
/// the text between two items (comments, blank lines).
struct BodyText {
  llvm::StringRef text;
  llvm::StringRef symbol; // empty between items
  bool isFunction = false;
};
} // namespace

/// `body` cut into items and the text between them, in order: concatenated,
/// they are `body`.
static std::vector<BodyText> cutIntoItems(llvm::StringRef body) {
  std::vector<BodyText> texts;
  auto lineAt = [&](size_t pos) {
    size_t end = body.find('\n', pos);
    return body.slice(pos,
                      end == llvm::StringRef::npos ? body.size() : end + 1);
  };
  size_t pos = 0, between = 0;
  while (pos < body.size()) {
    llvm::StringRef first = lineAt(pos);
    llvm::StringRef symbol = declaredSymbol(first);
    if (symbol.empty()) {
      pos += first.size();
      continue;
    }
    if (pos > between)
      texts.push_back({body.slice(between, pos)});
    size_t start = pos;
    int braces = 0, parens = 0;
    bool hasBody = false;
    while (pos < body.size()) {
      llvm::StringRef line = lineAt(pos);
      pos += line.size();
      braces += line.count('{') - line.count('}');
      parens += line.count('(') - line.count(')');
      hasBody |= line.contains('{');
      if (braces == 0 && parens == 0 &&
          (hasBody || line.rtrim().ends_with(";")))
        break;
    }
    texts.push_back({body.slice(start, pos), symbol, first.contains(".func")});
    between = pos;
  }
  if (between < body.size())
    texts.push_back({body.drop_front(between)});
  return texts;
}

std::optional<std::string>
accy::codegen::mergePTX(llvm::ArrayRef<llvm::StringRef> modules) {
  if (modules.empty())
    return std::nullopt;
  std::optional<SplitModule> first = split(modules.front());
  if (!first)
    return std::nullopt;
  std::string merged = first->header.str();
  // What the modules merged so far declare and define, per symbol.
  llvm::StringMap<llvm::SmallVector<llvm::StringRef, 2>> merging;
  for (llvm::StringRef ptx : modules) {
    std::optional<SplitModule> module = split(ptx);
    if (!module || module->header != first->header)
      return std::nullopt;
    // A module may declare a function before it defines it. A symbol of an
    // earlier module is a clash, unless both are the same function, as the
    // entries of one kernel compiled apart each have the functions they
    // call: the text of the earlier copy is kept.
    llvm::StringMap<llvm::SmallVector<llvm::StringRef, 2>> own;
    for (const BodyText &text : cutIntoItems(module->body)) {
      if (!text.symbol.empty()) {
        auto earlier = merging.find(text.symbol);
        if (earlier != merging.end()) {
          if (!text.isFunction ||
              !llvm::is_contained(earlier->second, text.text))
            return std::nullopt;
          continue;
        }
        own[text.symbol].push_back(text.text);
      }
      merged += text.text;
    }
    for (const auto &entry : own)
      merging[entry.getKey()].append(entry.getValue().begin(),
                                     entry.getValue().end());
  }
  return merged;
}
