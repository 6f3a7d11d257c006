//===- SymbolIndex.h - Every name of a file and what it names ---*- C++ -*-===//
//
// The definitions and uses of the names of one module, from its parse tree,
// resolved by the rules sema applies (a body's earlier lets, then the
// item's parameters, then the file's consts, fns and kernels and the consts
// and fns its imports declare, then the item's dimensions; a call's callee
// is a built-in first, then a fn). The parse tree rather than the typed AST,
// because the typed AST drops names it folds away (a const in a type, in a
// named argument or in a shape list) and names in bodies with errors.
//
// References, highlights and rename read it.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LSP_SYMBOLINDEX_H
#define ACCY_LSP_SYMBOLINDEX_H

#include "accy/Frontend/CompilationUnit.h"

#include <map>
#include <string>
#include <vector>

namespace accy::lsp {

enum class NameKind { Kernel, Fn, Const, Param, Let, Dim };
/// "kernel", "fn", "const", "parameter", "let", "dimension".
const char *nameKindName(NameKind kind);

/// A definition, so that indexes of different files (and of different
/// versions of a file) agree on it: a file's item by its file and name
/// (names of items are unique in a file), a local by where its name
/// starts.
struct SymbolKey {
  static constexpr uint32_t kItem = UINT32_MAX;
  std::string path;
  std::string name;
  uint32_t offset = kItem;
  static SymbolKey item(const std::string &path, const std::string &name) {
    return {path, name, kItem};
  }
  friend bool operator==(const SymbolKey &a, const SymbolKey &b) {
    return a.offset == b.offset && a.name == b.name && a.path == b.path;
  }
};

struct NameSymbol {
  SymbolKey key;
  std::string name;
  NameKind kind = NameKind::Let;
  SourceRange nameRange;
  /// The kernel or fn a parameter, let or dimension belongs to; null for
  /// the file's own items.
  const syntax::FunctionDecl *owner = nullptr;
};

/// One name in the file: a definition or a use of `target`.
struct NameOccurrence {
  SourceRange range;
  SymbolKey target;
  NameKind kind = NameKind::Let;
  bool declaration = false;
};

struct ModuleNames {
  /// The file's own items and every item's locals.
  std::vector<NameSymbol> symbols;
  /// In source order.
  std::vector<NameOccurrence> occurrences;
  /// The callees of built-in calls.
  std::vector<SourceRange> builtinCallees;
  /// Names that resolve to nothing (an error sema reports), with the item
  /// they are in: a definition renamed to one would capture them.
  std::vector<std::pair<const syntax::FunctionDecl *, std::string>> unresolved;
  /// The items visible by name at the top level: the file's own, then the
  /// consts and fns of the files it imports (the first definition wins, as
  /// in sema).
  std::map<std::string, NameSymbol> visible;

  /// The occurrence whose range contains `offset` (its end included).
  const NameOccurrence *at(uint32_t offset) const;
  const NameSymbol *find(const SymbolKey &key) const;
};

/// The identity of a module's file in symbol keys: its absolute path
/// without dots.
std::string symbolPath(llvm::StringRef path);

ModuleNames indexNames(const SourceModule &module);

} // namespace accy::lsp

#endif // ACCY_LSP_SYMBOLINDEX_H
