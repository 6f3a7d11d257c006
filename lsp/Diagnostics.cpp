//===- Diagnostics.cpp - Compile results as LSP diagnostics ---------------===//

#include "Diagnostics.h"

#include "Uri.h"

#include "accy/Pipeline/Stage.h"

#include <algorithm>

using namespace accy;
using namespace accy::lsp;

static constexpr const char *kFrontendSource = "accy-frontend";

namespace {

/// Maps byte ranges of the compiled files to document ranges.
class RangeMapper {
public:
  RangeMapper(const DocumentSnapshot &document, const LineIndex &index)
      : document(document), index(index) {}

  /// The document range for [begin, end) of `path`; a range in another
  /// file maps to the first line of the document, or to nothing.
  Range map(const std::string &path, uint32_t begin, uint32_t end,
            std::string *elsewhere) const {
    if (path == document.path)
      return index.rangeOf(begin, end);
    if (elsewhere)
      *elsewhere = path;
    return index.rangeOf(0, 0);
  }
  std::string uri() const { return document.uri; }
  PositionEncoding encoding() const { return index.encoding(); }

private:
  const DocumentSnapshot &document;
  const LineIndex &index;
};

} // namespace

static std::string prefixed(const std::string &elsewhere,
                            const std::string &message) {
  return elsewhere.empty() ? message : "in " + elsewhere + ": " + message;
}

static lsp::Diagnostic toLsp(const accy::Diagnostic &d,
                             const SourceManager &sm,
                             const RangeMapper &mapper) {
  lsp::Diagnostic out;
  std::string elsewhere;
  out.range = mapper.map(sm.getPath(d.range.file).str(), d.range.begin,
                         d.range.end, &elsewhere);
  out.severity = d.severity == Severity::Warning ? DiagnosticSeverity::Warning
                                                 : DiagnosticSeverity::Error;
  out.code = diagCodeString(d.code);
  out.source = kFrontendSource;
  out.message = prefixed(elsewhere, d.message);
  for (const DiagnosticNote &note : d.notes) {
    std::string path = sm.getPath(note.range.file).str();
    std::string noteElsewhere;
    Range range = mapper.map(path, note.range.begin, note.range.end,
                             &noteElsewhere);
    if (!noteElsewhere.empty()) {
      // A note in another file points into that file.
      LineIndex other(std::string_view(sm.getText(note.range.file).data(),
                                       sm.getText(note.range.file).size()),
                      mapper.encoding());
      out.relatedInformation.push_back(
          {{pathToUri(path), other.rangeOf(note.range.begin, note.range.end)},
           note.message});
      continue;
    }
    out.relatedInformation.push_back({{mapper.uri(), range}, note.message});
  }
  return out;
}

static lsp::Diagnostic failureDiagnostic(const FailureRecord &r,
                                    const RangeMapper &mapper) {
  lsp::Diagnostic out;
  std::string elsewhere;
  if (r.range)
    out.range = mapper.map(r.range->file, r.range->offset, r.range->endOffset,
                           &elsewhere);
  out.severity = DiagnosticSeverity::Error;
  out.code = r.pass.empty() ? r.pipeline : r.pass;
  out.source = r.pipeline;
  std::string message = r.op.empty() ? r.message : "'" + r.op + "' " + r.message;
  message += " (" + failureKindName(r.kind).str() + " failure";
  if (!r.symbol.empty())
    message += " in kernel '" + r.symbol + "'";
  message += ")";
  out.message = prefixed(elsewhere, message);
  for (const std::string &note : r.notes)
    out.relatedInformation.push_back({{mapper.uri(), out.range}, note});
  return out;
}

lsp::Diagnostic accy::lsp::frontendDiagnostic(const accy::Diagnostic &d,
                                              const SourceManager &sm,
                                              const DocumentSnapshot &document,
                                              const LineIndex &index) {
  return toLsp(d, sm, RangeMapper(document, index));
}

std::vector<lsp::Diagnostic>
accy::lsp::collectDiagnostics(const CompileResult &result,
                              PositionEncoding encoding) {
  LineIndex index(result.document().text, encoding);
  RangeMapper mapper(result.document(), index);
  std::vector<lsp::Diagnostic> out;
  const Compilation &semantic = result.compilation();
  for (const accy::Diagnostic &d : semantic.diagnostics())
    out.push_back(toLsp(d, semantic.sources(), mapper));
  for (const FailureRecord &r : result.failures())
    out.push_back(failureDiagnostic(r, mapper));
  return out;
}
