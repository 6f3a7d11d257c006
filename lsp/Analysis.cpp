//===- Analysis.cpp - The frontend's view of one document version ---------===//

#include "Analysis.h"

#include "Uri.h"

using namespace accy;
using namespace accy::lsp;

Analysis::Analysis(DocumentSnapshot snapshot, PositionEncoding encoding,
                   uint64_t generation)
    : snapshot(std::move(snapshot)), analysisGeneration(generation),
      sourceManager(std::make_unique<SourceManager>()),
      lineIndex(this->snapshot.text, encoding) {}

std::shared_ptr<const Analysis>
Analysis::build(const DocumentSnapshot &document,
                const std::vector<std::string> &includeDirs,
                PositionEncoding encoding, uint64_t generation) {
  std::shared_ptr<Analysis> analysis(
      new Analysis(document, encoding, generation));
  analysis->result =
      analyzeBuffer(analysis->snapshot.path, analysis->snapshot.text,
                    includeDirs, *analysis->sourceManager);
  return analysis;
}

Range Analysis::rangeOf(SourceRange range) const {
  if (!range.isValid() || isMainFile(range.file))
    return lineIndex.rangeOf(range.begin, range.end);
  // The manager keeps every buffer for its whole life.
  llvm::StringRef text = sourceManager->getText(range.file);
  LineIndex index(std::string_view(text.data(), text.size()), encoding());
  return index.rangeOf(range.begin, range.end);
}

std::string Analysis::uriOf(FileID file) const {
  if (!file.isValid() || isMainFile(file))
    return snapshot.uri;
  return pathToUri(sourceManager->getPath(file).str());
}
