//===- References.h - Where a name is used, across files --------*- C++ -*-===//
#ifndef ACCY_LSP_REFERENCES_H
#define ACCY_LSP_REFERENCES_H

#include "Analysis.h"
#include "Protocol.h"
#include "SymbolIndex.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace accy::lsp {

/// The files a search may read besides the document asked about.
struct Workspace {
  /// The analysis of a file by symbol path: an open document's current
  /// one, else one of the file on disk; null when it cannot be read.
  std::function<std::shared_ptr<const Analysis>(const std::string &path)>
      analysisOf;
  /// Files of the workspace whose imports may name the file.
  std::function<std::vector<std::string>(const std::string &path)> importersOf;
};

/// The name at a position of the main file and the definition it names.
struct NameAt {
  NameOccurrence occurrence;
  NameSymbol symbol;
};
std::optional<NameAt> findNameAt(const Analysis &analysis,
                                 const ModuleNames &names, Position position);

/// One file that sees a definition, its names and the occurrences of it.
struct FileMatches {
  std::shared_ptr<const Analysis> analysis;
  ModuleNames names;
  std::vector<NameOccurrence> occurrences;
};
/// Every occurrence of `symbol`: in the main file, in the file defining it,
/// and, for a const or fn, in each file that imports that one.
std::vector<FileMatches> findOccurrences(std::shared_ptr<const Analysis> main,
                                         ModuleNames mainNames,
                                         const NameSymbol &symbol,
                                         const Workspace &workspace);

/// textDocument/references.
std::vector<Location> findReferences(std::shared_ptr<const Analysis> analysis,
                                     Position position,
                                     bool includeDeclaration,
                                     const Workspace &workspace);

/// textDocument/documentHighlight: the main file's occurrences of the name
/// at `position`.
std::vector<DocumentHighlight> findDocumentHighlights(const Analysis &analysis,
                                                      Position position);

} // namespace accy::lsp

#endif // ACCY_LSP_REFERENCES_H
