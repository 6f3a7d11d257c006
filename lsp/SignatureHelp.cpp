//===- SignatureHelp.cpp - The parameters of the call being typed ---------===//

#include "SignatureHelp.h"

#include "accy/Frontend/Builtins.h"
#include "accy/Frontend/Lexer.h"

using namespace accy;
using namespace accy::lsp;

namespace {
/// The call around the cursor: the callee token, the argument index, and
/// the name of a named argument being typed.
struct OpenCall {
  const Token *callee = nullptr;
  unsigned argument = 0;
  std::string namedArgument;
};
} // namespace

static std::optional<OpenCall> findOpenCall(const std::vector<Token> &tokens,
                                            uint32_t offset) {
  size_t end = 0;
  while (end < tokens.size() && tokens[end].kind != TokenKind::Eof &&
         tokens[end].range.end <= offset)
    ++end;
  // Backwards from the cursor to the unmatched '(', counting the commas
  // between (outside brackets) and remembering where the cursor's own
  // argument starts.
  OpenCall call;
  int depth = 0;
  size_t argumentStart = end;
  for (size_t i = end; i-- > 0;) {
    const Token &t = tokens[i];
    bool atTop = depth == 0;
    switch (t.kind) {
    case TokenKind::RParen:
    case TokenKind::RBracket:
      ++depth;
      break;
    case TokenKind::LBracket:
      if (--depth < 0)
        return std::nullopt; // Inside a list, not directly in a call.
      break;
    case TokenKind::LParen:
      if (depth-- > 0)
        break;
      if (i == 0 || tokens[i - 1].kind != TokenKind::Identifier)
        return std::nullopt;
      call.callee = &tokens[i - 1];
      if (argumentStart + 1 < end &&
          tokens[argumentStart].kind == TokenKind::Identifier &&
          tokens[argumentStart + 1].kind == TokenKind::Assign)
        call.namedArgument = tokens[argumentStart].text.str();
      return call;
    case TokenKind::Comma:
      if (atTop)
        ++call.argument;
      break;
    case TokenKind::LBrace:
    case TokenKind::RBrace:
    case TokenKind::Semicolon:
      return std::nullopt; // Left the statement: no call is open.
    default:
      break;
    }
    if (atTop && call.argument == 0 && t.kind != TokenKind::Comma)
      argumentStart = i;
  }
  return std::nullopt;
}

/// The parameter labels of "name(a, b=1, ...)": each top-level segment
/// between the parentheses, as [start, end) code-unit offsets.
static std::vector<ParameterInformation> parameterLabels(const std::string &label) {
  std::vector<ParameterInformation> out;
  size_t open = label.find('(');
  if (open == std::string::npos)
    return out;
  int depth = 0;
  size_t start = open + 1;
  for (size_t i = open + 1; i < label.size(); ++i) {
    char c = label[i];
    if (c == '[' || c == '(')
      ++depth;
    else if ((c == ']' || c == ')') && depth > 0)
      --depth;
    else if ((c == ',' || c == ')') && depth == 0) {
      while (start < i && label[start] == ' ')
        ++start;
      if (i > start)
        out.push_back({{static_cast<unsigned>(start), static_cast<unsigned>(i)}});
      start = i + 1;
      if (c == ')')
        break;
    }
  }
  return out;
}

static std::optional<SignatureInformation>
signatureOf(const Analysis &analysis, llvm::StringRef callee) {
  if (const BuiltinInfo *builtin = lookupBuiltin(callee))
    return SignatureInformation{builtin->signature, "built-in",
                                parameterLabels(builtin->signature)};
  for (const auto &module : analysis.frontend().unit.modules)
    if (const Function *fn = module->findFunction(callee)) {
      std::string label = fn->name + "(";
      for (size_t i = 0; i < fn->params.size(); ++i)
        label += (i ? ", " : "") + fn->params[i]->name + ": " +
                 fn->params[i]->type.str();
      label += ")";
      return SignatureInformation{label, "fn", parameterLabels(label)};
    }
  return std::nullopt;
}

std::optional<SignatureHelp>
accy::lsp::findSignatureHelp(const Analysis &analysis, Position position) {
  if (!analysis.mainModule())
    return std::nullopt;
  DiagnosticEngine ignored(analysis.sources());
  std::vector<Token> tokens = lexFile(analysis.frontend().mainFile, ignored);
  std::optional<OpenCall> call =
      findOpenCall(tokens, analysis.offsetOf(position));
  if (!call)
    return std::nullopt;
  std::optional<SignatureInformation> signature =
      signatureOf(analysis, call->callee->text);
  if (!signature)
    return std::nullopt;
  SignatureHelp help;
  help.activeParameter = call->argument;
  // A named argument selects its parameter wherever it is written.
  if (!call->namedArgument.empty())
    for (size_t i = 0; i < signature->parameters.size(); ++i) {
      auto [b, e] = signature->parameters[i].label;
      if (signature->label.compare(b, call->namedArgument.size(),
                                   call->namedArgument) == 0)
        help.activeParameter = i;
    }
  if (!signature->parameters.empty() &&
      help.activeParameter >= signature->parameters.size())
    help.activeParameter = signature->parameters.size() - 1;
  help.signatures.push_back(std::move(*signature));
  return help;
}
