//===- Protocol.h - The LSP types the server produces -----------*- C++ -*-===//
//
// Plain structs for what the features return; the protocol layer
// (LSPServer.cpp) turns them into JSON with the to_json functions declared
// here. Positions are already in the negotiated encoding.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LSP_PROTOCOL_H
#define ACCY_LSP_PROTOCOL_H

#include "LineIndex.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace accy::lsp {

struct Location {
  std::string uri;
  Range range;
};

struct DiagnosticRelatedInformation {
  Location location;
  std::string message;
};

enum class DiagnosticSeverity { Error = 1, Warning = 2, Information = 3 };

struct Diagnostic {
  Range range;
  DiagnosticSeverity severity = DiagnosticSeverity::Error;
  std::string code;
  /// The stage pipeline ("accy-choir-contract"), or "accy-frontend".
  std::string source;
  std::string message;
  std::vector<DiagnosticRelatedInformation> relatedInformation;
};

struct TextEdit {
  Range range;
  std::string newText;
};

struct Hover {
  std::string markdown;
  std::optional<Range> range;
};

struct InlayHint {
  Position position;
  std::string label;
};

/// LSP SymbolKind values used here.
enum class SymbolKind { Function = 12, Variable = 13, Constant = 14,
                        TypeParameter = 26, Module = 2, Field = 8 };

struct DocumentSymbol {
  std::string name;
  std::string detail;
  SymbolKind kind = SymbolKind::Variable;
  Range range, selectionRange;
  std::vector<DocumentSymbol> children;
};

/// workspace/symbol's answer.
struct SymbolInformation {
  std::string name;
  SymbolKind kind = SymbolKind::Function;
  Location location;
  std::string containerName;
};

/// Edits of several documents, by URI (rename's answer, a quick fix's).
struct WorkspaceEdit {
  std::vector<std::pair<std::string, std::vector<TextEdit>>> changes;
};

/// prepareRename's answer: the name's range and its text.
struct PreparedRename {
  Range range;
  std::string placeholder;
};

/// documentHighlight: a definition is written, a use read.
struct DocumentHighlight {
  Range range;
  bool write = false;
};

struct FoldingRange {
  unsigned startLine = 0, endLine = 0;
  /// "imports", "comment" or "region".
  std::string kind;
};

/// A range and the ranges around it, innermost first.
struct SelectionRange {
  std::vector<Range> chain;
};

/// semanticTokens/full/delta: replace `deleteCount` integers at `start`.
struct SemanticTokensEdit {
  unsigned start = 0, deleteCount = 0;
  std::vector<uint32_t> data;
};

/// LSP CompletionItemKind values used here.
enum class CompletionKind { Function = 3, Variable = 6, Keyword = 14,
                            Constant = 21, TypeParameter = 25 };

struct CompletionItem {
  std::string label;
  CompletionKind kind = CompletionKind::Variable;
  std::string detail;
  std::string documentation;
};

struct ParameterInformation {
  /// [start, end) in the signature label, in UTF-16 code units.
  std::pair<unsigned, unsigned> label;
};

struct SignatureInformation {
  std::string label;
  std::string documentation;
  std::vector<ParameterInformation> parameters;
};

struct SignatureHelp {
  std::vector<SignatureInformation> signatures;
  unsigned activeParameter = 0;
};

/// What codeAction/resolve needs to finish an import quick fix: `path`
/// defines `name`, which `uri` uses unimported.
struct ImportFixData {
  std::string uri, name, path;
};

/// A quick fix (kind "quickfix") of the diagnostics it lists.
struct CodeAction {
  std::string title;
  std::vector<Diagnostic> diagnostics;
  bool isPreferred = false;
  std::optional<WorkspaceEdit> edit;
  /// Set while the edit is left to codeAction/resolve.
  std::optional<ImportFixData> data;
};

/// A lens whose title is also its command (arguments are strings).
struct CodeLens {
  Range range;
  std::string title;
  std::string command;
  std::vector<std::string> arguments;
};

void to_json(nlohmann::json &j, const Position &p);
void to_json(nlohmann::json &j, const Range &r);
void to_json(nlohmann::json &j, const Location &l);
void to_json(nlohmann::json &j, const Diagnostic &d);
void to_json(nlohmann::json &j, const Hover &h);
void to_json(nlohmann::json &j, const InlayHint &h);
void to_json(nlohmann::json &j, const DocumentSymbol &s);
void to_json(nlohmann::json &j, const TextEdit &e);
void to_json(nlohmann::json &j, const CompletionItem &c);
void to_json(nlohmann::json &j, const SignatureHelp &s);
void to_json(nlohmann::json &j, const SymbolInformation &s);
void to_json(nlohmann::json &j, const WorkspaceEdit &e);
void to_json(nlohmann::json &j, const CodeAction &a);
void to_json(nlohmann::json &j, const PreparedRename &r);
void to_json(nlohmann::json &j, const DocumentHighlight &h);
void to_json(nlohmann::json &j, const FoldingRange &f);
void to_json(nlohmann::json &j, const SelectionRange &s);
void to_json(nlohmann::json &j, const SemanticTokensEdit &e);
void to_json(nlohmann::json &j, const CodeLens &l);

} // namespace accy::lsp

#endif // ACCY_LSP_PROTOCOL_H
