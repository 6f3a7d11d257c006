//===- SymbolIndex.cpp - Every name of a file and what it names -----------===//

#include "SymbolIndex.h"

#include "accy/Frontend/Builtins.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace accy;
using namespace accy::lsp;

const char *accy::lsp::nameKindName(NameKind kind) {
  switch (kind) {
  case NameKind::Kernel:
    return "kernel";
  case NameKind::Fn:
    return "fn";
  case NameKind::Const:
    return "const";
  case NameKind::Param:
    return "parameter";
  case NameKind::Let:
    return "let";
  case NameKind::Dim:
    return "dimension";
  }
  return "name";
}

std::string accy::lsp::symbolPath(llvm::StringRef path) {
  llvm::SmallString<256> abs(path);
  llvm::sys::fs::make_absolute(abs);
  llvm::sys::path::remove_dots(abs, /*remove_dot_dot=*/true);
  return abs.str().str();
}

const NameOccurrence *ModuleNames::at(uint32_t offset) const {
  // Occurrences never overlap; the last one starting at or before offset.
  auto it = std::upper_bound(
      occurrences.begin(), occurrences.end(), offset,
      [](uint32_t o, const NameOccurrence &occ) { return o < occ.range.begin; });
  if (it == occurrences.begin())
    return nullptr;
  --it;
  return offset <= it->range.end ? &*it : nullptr;
}

const NameSymbol *ModuleNames::find(const SymbolKey &key) const {
  for (const NameSymbol &symbol : symbols)
    if (symbol.key == key)
      return &symbol;
  return nullptr;
}

/// The items of a file that sema registers by name: in order of their
/// names, the first of each name, and no fn named like a built-in.
static std::vector<NameSymbol> registeredItems(const syntax::Module &syn,
                                               const std::string &path) {
  std::vector<NameSymbol> items;
  for (const syntax::ConstDecl &c : syn.consts)
    items.push_back({SymbolKey::item(path, c.name), c.name, NameKind::Const,
                     c.nameRange, nullptr});
  for (const syntax::FunctionDecl &f : syn.functions)
    items.push_back({SymbolKey::item(path, f.name), f.name,
                     f.isKernel ? NameKind::Kernel : NameKind::Fn, f.nameRange,
                     nullptr});
  std::stable_sort(items.begin(), items.end(),
                   [](const NameSymbol &a, const NameSymbol &b) {
                     return a.nameRange.begin < b.nameRange.begin;
                   });
  std::vector<NameSymbol> registered;
  for (NameSymbol &item : items) {
    if (item.name.empty() ||
        (item.kind == NameKind::Fn && lookupBuiltin(item.name)))
      continue;
    bool taken = std::any_of(registered.begin(), registered.end(),
                             [&](const NameSymbol &r) { return r.name == item.name; });
    if (!taken)
      registered.push_back(std::move(item));
  }
  return registered;
}

namespace {
/// Resolves the names of one kernel or fn.
class ItemIndexer {
public:
  ItemIndexer(ModuleNames &out, const std::string &path,
              const syntax::FunctionDecl &decl)
      : out(out), path(path), decl(decl) {}

  void run() {
    for (const syntax::Param &p : decl.params) {
      if (p.name.empty())
        continue;
      SymbolKey key = define(p.name, NameKind::Param, p.nameRange);
      params.emplace(p.name, key);
    }
    for (const syntax::Param &p : decl.params)
      type(p.type, /*bindsDims=*/true);
    for (const syntax::TypeSyntax &r : decl.results)
      type(r, /*bindsDims=*/false);
    for (const syntax::Stmt &stmt : decl.body) {
      if (stmt.value)
        expr(*stmt.value);
      if (stmt.kind == syntax::Stmt::Kind::Let && !stmt.name.empty())
        lets[stmt.name] = define(stmt.name, NameKind::Let, stmt.nameRange);
    }
  }

private:
  SymbolKey define(const std::string &name, NameKind kind, SourceRange range) {
    SymbolKey key{path, name, range.begin};
    out.symbols.push_back({key, name, kind, range, &decl});
    out.occurrences.push_back({range, key, kind, /*declaration=*/true});
    return key;
  }

  void use(SourceRange range, const SymbolKey &key, NameKind kind) {
    out.occurrences.push_back({range, key, kind, /*declaration=*/false});
  }

  bool useItem(SourceRange range, const std::string &name) {
    auto it = out.visible.find(name);
    if (it == out.visible.end())
      return false;
    use(range, it->second.key, it->second.kind);
    return true;
  }

  void type(const syntax::TypeSyntax &t, bool bindsDims) {
    for (const auto &dim : t.dims) {
      if (!dim.isName)
        continue;
      auto item = out.visible.find(dim.name);
      if (item != out.visible.end() && item->second.kind == NameKind::Const) {
        use(dim.range, item->second.key, NameKind::Const);
        continue;
      }
      if (auto it = dims.find(dim.name); it != dims.end())
        use(dim.range, it->second, NameKind::Dim);
      else if (bindsDims)
        dims.emplace(dim.name, define(dim.name, NameKind::Dim, dim.range));
    }
  }

  void name(SourceRange range, const std::string &n) {
    if (auto it = lets.find(n); it != lets.end())
      return use(range, it->second, NameKind::Let);
    if (auto it = params.find(n); it != params.end())
      return use(range, it->second, NameKind::Param);
    if (useItem(range, n))
      return;
    if (auto it = dims.find(n); it != dims.end())
      return use(range, it->second, NameKind::Dim);
    out.unresolved.emplace_back(&decl, n);
  }

  void expr(const syntax::Expr &e) {
    switch (e.getKind()) {
    case syntax::ExprKind::Name: {
      const auto &n = llvm::cast<syntax::NameExpr>(e);
      return name(n.range, n.name);
    }
    case syntax::ExprKind::Unary:
      return expr(*llvm::cast<syntax::UnaryExpr>(e).operand);
    case syntax::ExprKind::Binary: {
      const auto &b = llvm::cast<syntax::BinaryExpr>(e);
      expr(*b.lhs);
      return expr(*b.rhs);
    }
    case syntax::ExprKind::Call: {
      const auto &call = llvm::cast<syntax::CallExpr>(e);
      // Calls resolve to built-ins first, as in sema.
      if (lookupBuiltin(call.callee))
        out.builtinCallees.push_back(call.calleeRange);
      else if (!useItem(call.calleeRange, call.callee))
        out.unresolved.emplace_back(&decl, call.callee);
      for (const syntax::CallArg &arg : call.args)
        if (arg.value)
          expr(*arg.value);
      return;
    }
    case syntax::ExprKind::Index: {
      const auto &index = llvm::cast<syntax::IndexExpr>(e);
      expr(*index.base);
      for (const syntax::IndexItem &item : index.items)
        for (const syntax::ExprPtr *part : {&item.index, &item.start, &item.stop})
          if (*part)
            expr(**part);
      return;
    }
    case syntax::ExprKind::List:
      for (const syntax::ExprPtr &element : llvm::cast<syntax::ListExpr>(e).elements)
        expr(*element);
      return;
    case syntax::ExprKind::Tuple:
      for (const syntax::ExprPtr &element : llvm::cast<syntax::TupleExpr>(e).elements)
        expr(*element);
      return;
    default:
      return;
    }
  }

  ModuleNames &out;
  const std::string &path;
  const syntax::FunctionDecl &decl;
  std::map<std::string, SymbolKey> params, dims, lets;
};
} // namespace

ModuleNames accy::lsp::indexNames(const SourceModule &module) {
  ModuleNames out;
  if (!module.syntax)
    return out;
  std::string path = symbolPath(module.path);
  const syntax::Module &syn = *module.syntax;
  for (const syntax::ConstDecl &c : syn.consts)
    if (!c.name.empty())
      out.symbols.push_back({SymbolKey::item(path, c.name), c.name,
                             NameKind::Const, c.nameRange, nullptr});
  for (const syntax::FunctionDecl &f : syn.functions)
    if (!f.name.empty())
      out.symbols.push_back({SymbolKey::item(path, f.name), f.name,
                             f.isKernel ? NameKind::Kernel : NameKind::Fn,
                             f.nameRange, nullptr});
  for (const NameSymbol &symbol : out.symbols)
    out.occurrences.push_back(
        {symbol.nameRange, symbol.key, symbol.kind, /*declaration=*/true});
  for (NameSymbol &item : registeredItems(syn, path))
    out.visible.emplace(item.name, std::move(item));
  for (const ImportEdge &edge : module.imports) {
    if (!edge.target || edge.target == &module || !edge.target->syntax)
      continue;
    for (NameSymbol &item :
         registeredItems(*edge.target->syntax, symbolPath(edge.target->path)))
      if (item.kind != NameKind::Kernel)
        out.visible.emplace(item.name, std::move(item));
  }
  for (const syntax::FunctionDecl &f : syn.functions)
    ItemIndexer(out, path, f).run();
  std::sort(out.occurrences.begin(), out.occurrences.end(),
            [](const NameOccurrence &a, const NameOccurrence &b) {
              return a.range.begin < b.range.begin;
            });
  return out;
}
