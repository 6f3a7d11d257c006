//===- Protocol.cpp - The LSP types the server produces -------------------===//

#include "Protocol.h"

#include <nlohmann/json.hpp>

using namespace accy::lsp;
using nlohmann::json;

void accy::lsp::to_json(json &j, const Position &p) {
  j = {{"line", p.line}, {"character", p.character}};
}

void accy::lsp::to_json(json &j, const Range &r) {
  j = {{"start", r.start}, {"end", r.end}};
}

void accy::lsp::to_json(json &j, const Location &l) {
  j = {{"uri", l.uri}, {"range", l.range}};
}

void accy::lsp::to_json(json &j, const Diagnostic &d) {
  j = {{"range", d.range},
       {"severity", static_cast<int>(d.severity)},
       {"source", d.source},
       {"message", d.message}};
  if (!d.code.empty())
    j["code"] = d.code;
  if (!d.relatedInformation.empty()) {
    json related = json::array();
    for (const DiagnosticRelatedInformation &r : d.relatedInformation)
      related.push_back({{"location", r.location}, {"message", r.message}});
    j["relatedInformation"] = std::move(related);
  }
}

void accy::lsp::to_json(json &j, const TextEdit &e) {
  j = {{"range", e.range}, {"newText", e.newText}};
}

void accy::lsp::to_json(json &j, const Hover &h) {
  j = {{"contents", {{"kind", "markdown"}, {"value", h.markdown}}}};
  if (h.range)
    j["range"] = *h.range;
}

void accy::lsp::to_json(json &j, const InlayHint &h) {
  j = {{"position", h.position},
       {"label", h.label},
       {"kind", 1}, // Type
       {"paddingLeft", false}};
}

void accy::lsp::to_json(json &j, const DocumentSymbol &s) {
  j = {{"name", s.name},
       {"kind", static_cast<int>(s.kind)},
       {"range", s.range},
       {"selectionRange", s.selectionRange}};
  if (!s.detail.empty())
    j["detail"] = s.detail;
  if (!s.children.empty())
    j["children"] = s.children;
}

void accy::lsp::to_json(json &j, const CompletionItem &c) {
  j = {{"label", c.label}, {"kind", static_cast<int>(c.kind)}};
  if (!c.detail.empty())
    j["detail"] = c.detail;
  if (!c.documentation.empty())
    j["documentation"] = {{"kind", "markdown"}, {"value", c.documentation}};
}

void accy::lsp::to_json(json &j, const SignatureHelp &s) {
  json signatures = json::array();
  for (const SignatureInformation &sig : s.signatures) {
    json parameters = json::array();
    for (const ParameterInformation &p : sig.parameters)
      parameters.push_back({{"label", {p.label.first, p.label.second}}});
    json one = {{"label", sig.label}, {"parameters", std::move(parameters)}};
    if (!sig.documentation.empty())
      one["documentation"] = sig.documentation;
    signatures.push_back(std::move(one));
  }
  j = {{"signatures", std::move(signatures)},
       {"activeSignature", 0},
       {"activeParameter", s.activeParameter}};
}

void accy::lsp::to_json(json &j, const SymbolInformation &s) {
  j = {{"name", s.name},
       {"kind", static_cast<int>(s.kind)},
       {"location", s.location}};
  if (!s.containerName.empty())
    j["containerName"] = s.containerName;
}

void accy::lsp::to_json(json &j, const WorkspaceEdit &e) {
  json changes = json::object();
  for (const auto &[uri, edits] : e.changes)
    changes[uri] = edits;
  j = {{"changes", std::move(changes)}};
}

void accy::lsp::to_json(json &j, const CodeAction &a) {
  j = {{"title", a.title},
       {"kind", "quickfix"},
       {"diagnostics", a.diagnostics}};
  if (a.isPreferred)
    j["isPreferred"] = true;
  if (a.edit)
    j["edit"] = *a.edit;
  if (a.data)
    j["data"] = {{"uri", a.data->uri},
                 {"name", a.data->name},
                 {"path", a.data->path}};
}

void accy::lsp::to_json(json &j, const DocumentHighlight &h) {
  // DocumentHighlightKind: Read = 2, Write = 3.
  j = {{"range", h.range}, {"kind", h.write ? 3 : 2}};
}

void accy::lsp::to_json(json &j, const FoldingRange &f) {
  j = {{"startLine", f.startLine}, {"endLine", f.endLine}};
  if (!f.kind.empty())
    j["kind"] = f.kind;
}

void accy::lsp::to_json(json &j, const SelectionRange &s) {
  // The chain is innermost first; the JSON nests outward through "parent".
  j = nullptr;
  for (auto it = s.chain.rbegin(); it != s.chain.rend(); ++it) {
    json level = {{"range", *it}};
    if (!j.is_null())
      level["parent"] = std::move(j);
    j = std::move(level);
  }
}

void accy::lsp::to_json(json &j, const SemanticTokensEdit &e) {
  j = {{"start", e.start}, {"deleteCount", e.deleteCount}, {"data", e.data}};
}

void accy::lsp::to_json(json &j, const PreparedRename &r) {
  j = {{"range", r.range}, {"placeholder", r.placeholder}};
}

void accy::lsp::to_json(json &j, const CodeLens &l) {
  j = {{"range", l.range},
       {"command",
        {{"title", l.title}, {"command", l.command}, {"arguments", l.arguments}}}};
}
