//===- References.cpp - Where a name is used, across files ----------------===//

#include "References.h"

#include <algorithm>

using namespace accy;
using namespace accy::lsp;

std::optional<NameAt> accy::lsp::findNameAt(const Analysis &analysis,
                                            const ModuleNames &names,
                                            Position position) {
  const NameOccurrence *occurrence = names.at(analysis.offsetOf(position));
  if (!occurrence)
    return std::nullopt;
  if (const NameSymbol *own = names.find(occurrence->target))
    return NameAt{*occurrence, *own};
  // An item of an imported file.
  for (const auto &[name, symbol] : names.visible)
    if (symbol.key == occurrence->target)
      return NameAt{*occurrence, symbol};
  return std::nullopt;
}

static std::vector<NameOccurrence> occurrencesOf(const ModuleNames &names,
                                                 const SymbolKey &key) {
  std::vector<NameOccurrence> found;
  for (const NameOccurrence &occurrence : names.occurrences)
    if (occurrence.target == key)
      found.push_back(occurrence);
  return found;
}

std::vector<FileMatches>
accy::lsp::findOccurrences(std::shared_ptr<const Analysis> main,
                           ModuleNames mainNames, const NameSymbol &symbol,
                           const Workspace &workspace) {
  std::string mainPath = symbolPath(main->document().path);
  std::vector<FileMatches> files;
  std::vector<NameOccurrence> inMain = occurrencesOf(mainNames, symbol.key);
  files.push_back({main, std::move(mainNames), std::move(inMain)});
  // A parameter, let or dimension is seen only by its own item; a kernel
  // only by its own file.
  if (symbol.owner || symbol.kind == NameKind::Kernel)
    return files;
  std::vector<std::string> others{symbol.key.path};
  if (workspace.importersOf)
    for (std::string &importer : workspace.importersOf(symbol.key.path))
      others.push_back(std::move(importer));
  std::vector<std::string> seen{mainPath};
  for (const std::string &path : others) {
    if (std::find(seen.begin(), seen.end(), path) != seen.end())
      continue;
    seen.push_back(path);
    std::shared_ptr<const Analysis> analysis =
        workspace.analysisOf ? workspace.analysisOf(path) : nullptr;
    if (!analysis || !analysis->mainModule())
      continue;
    ModuleNames names = indexNames(*analysis->mainModule());
    // An importer that does not see this definition (its import found
    // another file first) has nothing to do with it.
    bool sees = path == symbol.key.path ||
                std::any_of(names.visible.begin(), names.visible.end(),
                            [&](const auto &entry) {
                              return entry.second.key == symbol.key;
                            });
    if (!sees)
      continue;
    std::vector<NameOccurrence> found = occurrencesOf(names, symbol.key);
    files.push_back({std::move(analysis), std::move(names), std::move(found)});
  }
  return files;
}

std::vector<Location>
accy::lsp::findReferences(std::shared_ptr<const Analysis> analysis,
                          Position position, bool includeDeclaration,
                          const Workspace &workspace) {
  const SourceModule *module = analysis->mainModule();
  if (!module)
    return {};
  ModuleNames names = indexNames(*module);
  std::optional<NameAt> at = findNameAt(*analysis, names, position);
  if (!at)
    return {};
  std::vector<Location> locations;
  for (const FileMatches &file :
       findOccurrences(analysis, std::move(names), at->symbol, workspace))
    for (const NameOccurrence &occurrence : file.occurrences)
      if (includeDeclaration || !occurrence.declaration)
        locations.push_back({file.analysis->document().uri,
                             file.analysis->rangeOf(occurrence.range)});
  return locations;
}

std::vector<DocumentHighlight>
accy::lsp::findDocumentHighlights(const Analysis &analysis, Position position) {
  const SourceModule *module = analysis.mainModule();
  if (!module)
    return {};
  ModuleNames names = indexNames(*module);
  const NameOccurrence *at = names.at(analysis.offsetOf(position));
  if (!at)
    return {};
  std::vector<DocumentHighlight> highlights;
  for (const NameOccurrence &occurrence : occurrencesOf(names, at->target))
    highlights.push_back({analysis.rangeOf(occurrence.range),
                          occurrence.declaration});
  return highlights;
}
