//===- Rename.cpp - Renaming a name everywhere it is seen -----------------===//

#include "Rename.h"

#include "accy/Frontend/Builtins.h"
#include "accy/Frontend/Lexer.h"

#include "llvm/Support/Path.h"

#include <algorithm>
#include <cctype>

using namespace accy;
using namespace accy::lsp;

static llvm::Error refuse(const std::string &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static std::string quoted(llvm::StringRef name) {
  return "'" + name.str() + "'";
}

/// Why the token at `offset` is no renamable name.
static llvm::Error whyNotAName(const Analysis &analysis,
                               const ModuleNames &names, uint32_t offset) {
  DiagnosticEngine ignored(analysis.sources());
  for (const Token &token : lexFile(analysis.frontend().mainFile, ignored)) {
    if (token.range.begin > offset || offset > token.range.end ||
        token.kind == TokenKind::Eof)
      continue;
    if (isElementTypeKeyword(token.kind) ||
        (token.kind >= TokenKind::KwKernel && token.kind <= TokenKind::KwFalse))
      return refuse(quoted(token.text) +
                    " is a keyword; keywords cannot be renamed");
    if (token.kind != TokenKind::Identifier)
      continue;
    for (const SourceRange &callee : names.builtinCallees)
      if (callee.begin == token.range.begin)
        return refuse(quoted(token.text) +
                      " is a built-in function; built-ins cannot be renamed");
    return refuse(quoted(token.text) +
                  " is not a kernel, fn, const, parameter, let or dimension "
                  "defined in a file");
  }
  return refuse("there is no name here to rename");
}

static llvm::Expected<NameAt> renamableAt(const Analysis &analysis,
                                          const ModuleNames &names,
                                          Position position) {
  if (std::optional<NameAt> at = findNameAt(analysis, names, position))
    return *at;
  return whyNotAName(analysis, names, analysis.offsetOf(position));
}

llvm::Expected<PreparedRename> accy::lsp::prepareRename(const Analysis &analysis,
                                                        Position position) {
  if (!analysis.mainModule())
    return refuse("the document could not be read");
  ModuleNames names = indexNames(*analysis.mainModule());
  llvm::Expected<NameAt> at = renamableAt(analysis, names, position);
  if (!at)
    return at.takeError();
  return PreparedRename{analysis.rangeOf(at->occurrence.range), at->symbol.name};
}

static bool isIdentifier(llvm::StringRef name) {
  if (name.empty() || !(std::isalpha((unsigned char)name[0]) || name[0] == '_'))
    return false;
  return llvm::all_of(name, [](char c) {
    return std::isalnum((unsigned char)c) || c == '_';
  });
}

/// Where a name is, for messages: "line 3 of k.accy".
static std::string whereIs(const FileMatches &file, SourceRange range) {
  return "line " + std::to_string(file.analysis->rangeOf(range).start.line + 1) +
         " of " + llvm::sys::path::filename(file.analysis->document().path).str();
}

/// Why naming `symbol` `newName` in `file` would change what some name
/// means there; nullopt when it would not.
static std::optional<std::string> clashIn(const FileMatches &file,
                                          const NameSymbol &symbol,
                                          const std::string &newName) {
  const std::string what = std::string(nameKindName(symbol.kind)) + " " +
                           quoted(symbol.name) + " cannot be renamed to " +
                           quoted(newName) + ": ";
  // A name that resolves to nothing where the renamed one is seen would
  // come to mean it.
  for (const auto &[owner, name] : file.names.unresolved)
    if (name == newName && (!symbol.owner || owner == symbol.owner))
      return what + quoted(newName) + " is used in " + quoted(owner->name) +
             " without a definition, and would come to name it";
  // Locals: another local of the same item, or a file-level name they
  // would shadow (sema rejects both).
  if (symbol.owner) {
    for (const NameSymbol &other : file.names.symbols)
      if (other.owner == symbol.owner && other.name == newName)
        return what + "the " + nameKindName(other.kind) + " " +
               quoted(newName) + " of " + quoted(symbol.owner->name) +
               " has that name (" + whereIs(file, other.nameRange) + ")";
    if (auto it = file.names.visible.find(newName);
        it != file.names.visible.end())
      return what + "it would shadow the " + nameKindName(it->second.kind) +
             " " + quoted(newName);
    return std::nullopt;
  }
  // Items: another item this file sees, or a local of any of its items,
  // which would shadow the renamed item.
  if (auto it = file.names.visible.find(newName);
      it != file.names.visible.end() && !(it->second.key == symbol.key))
    return what + "the " + nameKindName(it->second.kind) + " " +
           quoted(newName) + " is already visible in " +
           llvm::sys::path::filename(file.analysis->document().path).str();
  for (const NameSymbol &other : file.names.symbols)
    if (other.owner && other.name == newName)
      return what + "the " + nameKindName(other.kind) + " " + quoted(newName) +
             " of " + quoted(other.owner->name) + " (" +
             whereIs(file, other.nameRange) + ") would shadow it";
  return std::nullopt;
}

llvm::Expected<WorkspaceEdit>
accy::lsp::renameSymbol(std::shared_ptr<const Analysis> analysis,
                        Position position, const std::string &newName,
                        const Workspace &workspace) {
  if (!analysis->mainModule())
    return refuse("the document could not be read");
  ModuleNames names = indexNames(*analysis->mainModule());
  llvm::Expected<NameAt> at = renamableAt(*analysis, names, position);
  if (!at)
    return at.takeError();
  if (!isIdentifier(newName))
    return refuse(quoted(newName) + " is not a name: names are letters, digits "
                  "and '_', and do not start with a digit");
  if (keywordKind(newName) != TokenKind::Identifier)
    return refuse(quoted(newName) + " is a keyword");
  if (lookupBuiltin(newName))
    return refuse(quoted(newName) + " is the name of a built-in function");
  WorkspaceEdit edit;
  if (newName == at->symbol.name)
    return edit;
  std::vector<FileMatches> files =
      findOccurrences(analysis, std::move(names), at->symbol, workspace);
  for (const FileMatches &file : files)
    if (std::optional<std::string> clash = clashIn(file, at->symbol, newName))
      return refuse(*clash);
  for (const FileMatches &file : files) {
    if (file.occurrences.empty())
      continue;
    std::vector<TextEdit> edits;
    for (const NameOccurrence &occurrence : file.occurrences)
      edits.push_back({file.analysis->rangeOf(occurrence.range), newName});
    edit.changes.emplace_back(file.analysis->document().uri, std::move(edits));
  }
  return edit;
}
