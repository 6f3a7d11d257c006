//===- AstLookup.cpp - What is at a position in the typed AST -------------===//

#include "AstLookup.h"

#include "accy/Frontend/ASTWalk.h"

using namespace accy;
using namespace accy::lsp;

/// The kernels and fns of the main module, in source order.
static std::vector<std::pair<const FunctionBase *, bool>>
itemsOf(const SourceModule &module) {
  std::vector<std::pair<const FunctionBase *, bool>> items;
  for (const auto &k : module.kernels)
    items.push_back({k.get(), true});
  for (const auto &f : module.functions)
    items.push_back({f.get(), false});
  return items;
}

AstSelection accy::lsp::selectAt(const Analysis &analysis, uint32_t offset) {
  AstSelection selection;
  const SourceModule *module = analysis.mainModule();
  if (!module)
    return selection;
  FileID file = module->file;
  for (const auto &c : module->consts)
    if (contains(c->nameRange, file, offset))
      selection.constDecl = c.get();
  for (auto [item, isKernel] : itemsOf(*module)) {
    if (!contains(item->range, file, offset))
      continue;
    selection.item = item;
    selection.itemIsKernel = isKernel;
    selection.onItemName = contains(item->nameRange, file, offset);
    for (const auto &param : item->params)
      if (contains(param->nameRange, file, offset))
        selection.param = param.get();
    for (const LetBinding *let : letsOf(*item))
      if (contains(let->nameRange, file, offset))
        selection.let = let;
    // The innermost expression: the smallest range containing the offset.
    walkPreOrder(*item, [&](const Expr &e) {
      if (e.getKind() == ExprKind::Error || !contains(e.range, file, offset))
        return;
      if (!selection.expr || e.range.size() <= selection.expr->range.size())
        selection.expr = &e;
    });
    break;
  }
  return selection;
}

std::vector<const LetBinding *> accy::lsp::letsOf(const FunctionBase &item) {
  std::vector<const LetBinding *> lets;
  for (const auto &let : item.body.lets)
    lets.push_back(let.get());
  return lets;
}
