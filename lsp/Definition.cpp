//===- Definition.cpp - Go to definition, across imports ------------------===//

#include "Definition.h"

#include "AstLookup.h"
#include "Uri.h"

using namespace accy;
using namespace accy::lsp;

static Location locationOf(const Analysis &analysis, SourceRange range) {
  return {analysis.uriOf(range.file), analysis.rangeOf(range)};
}

std::optional<Location> accy::lsp::findDefinition(const Analysis &analysis,
                                                  Position position) {
  uint32_t offset = analysis.offsetOf(position);
  const SourceModule *module = analysis.mainModule();
  if (!module)
    return std::nullopt;
  for (const ImportEdge &edge : module->imports)
    if (edge.target && contains(edge.range, module->file, offset))
      return Location{pathToUri(edge.target->path), Range{}};

  AstSelection selection = selectAt(analysis, offset);
  if (selection.let)
    return locationOf(analysis, selection.let->nameRange);
  if (selection.param)
    return locationOf(analysis, selection.param->nameRange);
  if (selection.constDecl)
    return locationOf(analysis, selection.constDecl->nameRange);
  if (selection.item && selection.onItemName)
    return locationOf(analysis, selection.item->nameRange);
  if (!selection.expr)
    return std::nullopt;
  const Expr &e = *selection.expr;
  if (auto *let = llvm::dyn_cast<LetRefExpr>(&e))
    return locationOf(analysis, let->let->nameRange);
  if (auto *param = llvm::dyn_cast<ParamRefExpr>(&e))
    return locationOf(analysis, param->param->nameRange);
  if (auto *c = llvm::dyn_cast<ConstRefExpr>(&e))
    return locationOf(analysis, c->decl->nameRange);
  if (auto *call = llvm::dyn_cast<InlinedCallExpr>(&e))
    if (contains(call->calleeRange, module->file, offset))
      return locationOf(analysis, call->callee->nameRange);
  return std::nullopt;
}
