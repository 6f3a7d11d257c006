//===- Analysis.h - The frontend's view of one document version -*- C++ -*-===//
//
// Parse tree, typed AST and frontend diagnostics of one version of a
// document, with the position index of its text. Everything a semantic
// feature (hover on a name, symbols, tokens, completion, definition) needs;
// building one runs only the frontend, never a later stage.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LSP_ANALYSIS_H
#define ACCY_LSP_ANALYSIS_H

#include "DocumentStore.h"
#include "LineIndex.h"

#include "accy/Frontend/Frontend.h"

#include <memory>
#include <string>
#include <vector>

namespace accy::lsp {

class Analysis {
public:
  /// Runs the frontend on `document` (imports read from disk).
  static std::shared_ptr<const Analysis>
  build(const DocumentSnapshot &document,
        const std::vector<std::string> &includeDirs, PositionEncoding encoding,
        uint64_t generation);

  const DocumentSnapshot &document() const { return snapshot; }
  /// Bumped by changes of imported files: same version, new analysis.
  uint64_t generation() const { return analysisGeneration; }
  const FrontendResult &frontend() const { return result; }
  const SourceManager &sources() const { return *sourceManager; }
  const SourceModule *mainModule() const { return result.unit.mainModule(); }
  const LineIndex &index() const { return lineIndex; }
  PositionEncoding encoding() const { return lineIndex.encoding(); }

  /// Byte offset in the main file of an LSP position.
  uint32_t offsetOf(Position pos) const { return lineIndex.offsetOf(pos); }
  bool isMainFile(FileID file) const { return file == result.mainFile; }
  /// The LSP range of a frontend range in any file of the unit.
  Range rangeOf(SourceRange range) const;
  /// The URI of the file a range is in.
  std::string uriOf(FileID file) const;

private:
  Analysis(DocumentSnapshot snapshot, PositionEncoding encoding,
           uint64_t generation);
  DocumentSnapshot snapshot;
  uint64_t analysisGeneration;
  std::unique_ptr<SourceManager> sourceManager;
  FrontendResult result;
  LineIndex lineIndex;
};

} // namespace accy::lsp

#endif // ACCY_LSP_ANALYSIS_H
