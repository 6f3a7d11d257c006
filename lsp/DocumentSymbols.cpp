//===- DocumentSymbols.cpp - The outline of a document --------------------===//

#include "DocumentSymbols.h"

using namespace accy;
using namespace accy::lsp;

/// The typed kernel or fn of this name, for types in the details.
static const FunctionBase *typedItem(const SourceModule &module,
                                     const syntax::FunctionDecl &decl) {
  if (decl.isKernel)
    return module.findKernel(decl.name);
  return module.findFunction(decl.name);
}

static DocumentSymbol itemSymbol(const Analysis &analysis,
                                 const SourceModule &module,
                                 const syntax::FunctionDecl &decl) {
  const FunctionBase *typed = typedItem(module, decl);
  DocumentSymbol symbol;
  symbol.name = decl.name;
  symbol.kind = SymbolKind::Function;
  symbol.detail = decl.isKernel ? "kernel" : "fn";
  symbol.range = analysis.rangeOf(decl.range);
  symbol.selectionRange = analysis.rangeOf(decl.nameRange);
  for (size_t i = 0; i < decl.params.size(); ++i) {
    const syntax::Param &param = decl.params[i];
    DocumentSymbol child;
    child.name = param.name;
    child.kind = SymbolKind::Variable;
    if (typed && i < typed->params.size())
      child.detail = typed->params[i]->type.str();
    child.range = analysis.rangeOf(param.range);
    child.selectionRange = analysis.rangeOf(param.nameRange);
    symbol.children.push_back(std::move(child));
  }
  for (const syntax::Stmt &stmt : decl.body) {
    if (stmt.kind != syntax::Stmt::Kind::Let)
      continue;
    DocumentSymbol child;
    child.name = stmt.name;
    child.kind = SymbolKind::Variable;
    if (typed)
      for (const auto &let : typed->body.lets)
        if (let->name == stmt.name && let->value &&
            let->value->getKind() != ExprKind::Error)
          child.detail = let->type().str();
    child.range = analysis.rangeOf(stmt.range);
    child.selectionRange = analysis.rangeOf(stmt.nameRange);
    symbol.children.push_back(std::move(child));
  }
  return symbol;
}

std::vector<DocumentSymbol>
accy::lsp::findDocumentSymbols(const Analysis &analysis) {
  std::vector<DocumentSymbol> symbols;
  const SourceModule *module = analysis.mainModule();
  if (!module || !module->syntax)
    return symbols;
  const syntax::Module &tree = *module->syntax;
  for (const syntax::ImportDecl &import : tree.imports)
    symbols.push_back({import.path, "import", SymbolKind::Module,
                       analysis.rangeOf(import.range),
                       analysis.rangeOf(import.pathRange), {}});
  for (const syntax::ConstDecl &c : tree.consts) {
    const accy::ConstDecl *typed = module->findConst(c.name);
    symbols.push_back({c.name, typed ? "= " + typed->value.str() : "const",
                       SymbolKind::Constant, analysis.rangeOf(c.range),
                       analysis.rangeOf(c.nameRange), {}});
  }
  for (const syntax::FunctionDecl &decl : tree.functions)
    symbols.push_back(itemSymbol(analysis, *module, decl));
  std::sort(symbols.begin(), symbols.end(),
            [](const DocumentSymbol &a, const DocumentSymbol &b) {
              return a.range.start < b.range.start;
            });
  return symbols;
}
