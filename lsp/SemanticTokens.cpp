//===- SemanticTokens.cpp - Token classes for highlighting ----------------===//

#include "SemanticTokens.h"

#include "AstLookup.h"

#include "accy/Frontend/ASTWalk.h"
#include "accy/Frontend/Lexer.h"

#include <map>

using namespace accy;
using namespace accy::lsp;

namespace {
enum TokenType : uint32_t {
  TokenKeyword, TokenType, TokenNumber, TokenString, TokenFunction, TokenParameter, TokenVariable, TokenTypeParameter
};
enum TokenModifier : uint32_t {
  Declaration = 1, Readonly = 2, DefaultLibrary = 4
};
struct TokenClass {
  uint32_t type;
  uint32_t modifiers;
};
} // namespace

const std::vector<std::string> &accy::lsp::semanticTokenTypes() {
  static const std::vector<std::string> types = {
      "keyword",   "type",     "number",        "string",
      "function",  "parameter", "variable",     "typeParameter"};
  return types;
}

const std::vector<std::string> &accy::lsp::semanticTokenModifiers() {
  static const std::vector<std::string> modifiers = {"declaration", "readonly",
                                                     "defaultLibrary"};
  return modifiers;
}

/// What each identifier of the main file names, by its start offset.
static std::map<uint32_t, TokenClass> classifyNames(const Analysis &analysis) {
  std::map<uint32_t, TokenClass> names;
  const SourceModule *module = analysis.mainModule();
  FileID file = module->file;
  auto mark = [&](SourceRange range, TokenClass cls) {
    if (range.file == file)
      names.emplace(range.begin, cls);
  };
  for (const auto &c : module->consts)
    mark(c->nameRange, {TokenVariable, Declaration | Readonly});
  auto markItem = [&](const FunctionBase &item) {
    mark(item.nameRange, {TokenFunction, Declaration});
    for (const auto &param : item.params)
      mark(param->nameRange, {TokenParameter, Declaration});
    for (const DimSymbol &dim : item.symbols)
      mark(dim.range, {TokenTypeParameter, Declaration});
    for (const LetBinding *let : letsOf(item))
      mark(let->nameRange, {TokenVariable, Declaration});
    walkPreOrder(item, [&](const Expr &e) {
      if (llvm::isa<ParamRefExpr>(e))
        mark(e.range, {TokenParameter, 0});
      else if (llvm::isa<LetRefExpr>(e))
        mark(e.range, {TokenVariable, 0});
      else if (llvm::isa<ConstRefExpr>(e))
        mark(e.range, {TokenVariable, Readonly});
      else if (auto *call = llvm::dyn_cast<BuiltinCallExpr>(&e))
        mark(call->calleeRange, {TokenFunction, DefaultLibrary});
      else if (auto *call = llvm::dyn_cast<InlinedCallExpr>(&e))
        mark(call->calleeRange, {TokenFunction, 0});
    });
  };
  for (const auto &kernel : module->kernels)
    markItem(*kernel);
  for (const auto &fn : module->functions)
    markItem(*fn);
  // Dimension names used after their first binding, in the parse tree.
  if (module->syntax)
    for (const syntax::FunctionDecl &decl : module->syntax->functions) {
      auto markDims = [&](const syntax::TypeSyntax &type) {
        for (const auto &dim : type.dims)
          if (dim.isName)
            mark(dim.range, {TokenTypeParameter, 0});
      };
      for (const syntax::Param &param : decl.params)
        markDims(param.type);
      for (const syntax::TypeSyntax &result : decl.results)
        markDims(result);
    }
  return names;
}

static std::optional<TokenClass> classify(const Token &token,
                                          const std::map<uint32_t, TokenClass> &names) {
  switch (token.kind) {
  case TokenKind::IntLiteral:
  case TokenKind::FloatLiteral:
    return TokenClass{TokenNumber, 0};
  case TokenKind::StringLiteral:
    return TokenClass{TokenString, 0};
  case TokenKind::Identifier: {
    auto it = names.find(token.range.begin);
    if (it == names.end())
      return std::nullopt;
    return it->second;
  }
  default:
    break;
  }
  if (isElementTypeKeyword(token.kind))
    return TokenClass{TokenType, 0};
  if (token.kind >= TokenKind::KwKernel && token.kind <= TokenKind::KwFalse)
    return TokenClass{TokenKeyword, 0};
  return std::nullopt;
}

std::vector<uint32_t> accy::lsp::findSemanticTokens(const Analysis &analysis) {
  std::vector<uint32_t> data;
  if (!analysis.mainModule())
    return data;
  std::map<uint32_t, TokenClass> names = classifyNames(analysis);
  DiagnosticEngine ignored(analysis.sources());
  std::vector<Token> tokens =
      lexFile(analysis.frontend().mainFile, ignored);
  Position previous;
  for (const Token &token : tokens) {
    std::optional<TokenClass> cls = classify(token, names);
    if (!cls)
      continue;
    Position start = analysis.index().positionOf(token.range.begin);
    unsigned length = codeUnits(
        std::string_view(token.text.data(), token.text.size()),
        analysis.encoding());
    data.push_back(start.line - previous.line);
    data.push_back(start.line == previous.line
                       ? start.character - previous.character
                       : start.character);
    data.push_back(length);
    data.push_back(cls->type);
    data.push_back(cls->modifiers);
    previous = start;
  }
  return data;
}

std::vector<SemanticTokensEdit>
accy::lsp::diffSemanticTokens(const std::vector<uint32_t> &before,
                              const std::vector<uint32_t> &after) {
  size_t prefix = 0;
  while (prefix < before.size() && prefix < after.size() &&
         before[prefix] == after[prefix])
    ++prefix;
  if (prefix == before.size() && prefix == after.size())
    return {};
  size_t suffix = 0;
  while (suffix < before.size() - prefix && suffix < after.size() - prefix &&
         before[before.size() - 1 - suffix] == after[after.size() - 1 - suffix])
    ++suffix;
  SemanticTokensEdit edit;
  edit.start = prefix;
  edit.deleteCount = before.size() - prefix - suffix;
  edit.data.assign(after.begin() + prefix, after.end() - suffix);
  return {std::move(edit)};
}

SemanticTokensResult
SemanticTokensHistory::record(const std::string &uri,
                              const std::optional<std::string> &previousId,
                              std::vector<uint32_t> data) {
  std::lock_guard<std::mutex> lock(mutex);
  SemanticTokensResult result;
  result.resultId = std::to_string(nextId++);
  auto &entry = last[uri];
  if (previousId && *previousId == entry.first)
    result.edits = diffSemanticTokens(entry.second, data);
  entry = {result.resultId, data};
  result.data = std::move(data);
  return result;
}

void SemanticTokensHistory::forget(const std::string &uri) {
  std::lock_guard<std::mutex> lock(mutex);
  last.erase(uri);
}
