//===- Completion.cpp - Built-ins, keywords and names in scope ------------===//

#include "Completion.h"

#include "accy/Frontend/Builtins.h"

using namespace accy;
using namespace accy::lsp;

static const char *groupName(BuiltinGroup group) {
  switch (group) {
  case BuiltinGroup::Activation: return "activation";
  case BuiltinGroup::Reduction: return "reduction";
  case BuiltinGroup::Contraction: return "contraction";
  case BuiltinGroup::Indexing: return "indexing";
  case BuiltinGroup::Scan: return "scan";
  case BuiltinGroup::Loss: return "loss";
  case BuiltinGroup::Misc: return "misc";
  }
  return "";
}

/// Names of the item around `offset`, from the parse tree (complete while
/// the user is still typing): its parameters and the lets before `offset`.
static void addLocals(const syntax::Module &tree, uint32_t offset,
                      std::vector<CompletionItem> &items) {
  for (const syntax::FunctionDecl &decl : tree.functions) {
    if (offset < decl.range.begin || offset > decl.range.end)
      continue;
    for (const syntax::Param &param : decl.params)
      items.push_back({param.name, CompletionKind::Variable, "parameter", ""});
    for (const syntax::Stmt &stmt : decl.body)
      if (stmt.kind == syntax::Stmt::Kind::Let && stmt.range.end <= offset)
        items.push_back({stmt.name, CompletionKind::Variable, "let", ""});
  }
}

std::vector<CompletionItem> accy::lsp::findCompletions(const Analysis &analysis,
                                                       Position position) {
  std::vector<CompletionItem> items;
  for (const BuiltinInfo &builtin : allBuiltins())
    if (builtin.callable)
      items.push_back({builtin.name, CompletionKind::Function,
                       builtin.signature,
                       std::string("built-in (") + groupName(builtin.group) +
                           "): `" + builtin.signature + "`"});
  for (const char *keyword :
       {"kernel", "fn", "let", "return", "import", "const", "true", "false"})
    items.push_back({keyword, CompletionKind::Keyword, "keyword", ""});
  for (const char *type : {"f16", "bf16", "f32", "f64", "i32", "i64", "bool"})
    items.push_back({type, CompletionKind::TypeParameter, "element type", ""});
  // Consts and fns of the file and of what it imports.
  for (const auto &module : analysis.frontend().unit.modules) {
    for (const auto &c : module->consts)
      items.push_back({c->name, CompletionKind::Constant,
                       "const = " + c->value.str(), ""});
    for (const auto &fn : module->functions)
      items.push_back({fn->name, CompletionKind::Function, "fn", ""});
  }
  const SourceModule *module = analysis.mainModule();
  if (module && module->syntax)
    addLocals(*module->syntax, analysis.offsetOf(position), items);
  return items;
}
