//===- Params.h - The params of each request, decoded once ------*- C++ -*-===//
//
// Like mlir-lsp-server's fromJSON: every method's params are decoded here,
// once, into a plain struct, without exceptions; a failure says what is
// wrong and where ("params.position.line: expected an unsigned integer"),
// and the protocol layer answers InvalidParams with it (or, for a
// notification, logs it).
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LSP_PARAMS_H
#define ACCY_LSP_PARAMS_H

#include "DocumentStore.h"
#include "LineIndex.h"
#include "Protocol.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace accy::lsp {

struct InitializeParams {
  /// The client lists "utf-8" in general.positionEncodings.
  bool offersUtf8 = false;
  bool workDoneProgress = false;
  bool watchFilesDynamically = false;
  /// workspace.codeLens.refreshSupport: lenses are asked again on request.
  bool codeLensRefresh = false;
  /// URIs of workspaceFolders, else of rootUri (none when neither is set).
  std::vector<std::string> workspaceFolders;
};

struct DidOpenParams {
  std::string uri;
  int64_t version = 0;
  std::string text;
};

struct DidChangeParams {
  std::string uri;
  int64_t version = 0;
  std::vector<TextChange> changes;
};

struct DidChangeWatchedFilesParams {
  std::vector<std::string> uris;
};

/// workspace/didChangeWorkspaceFolders: URIs of the folders.
struct DidChangeWorkspaceFoldersParams {
  std::vector<std::string> added, removed;
};

/// Params naming only a document (didClose, documentSymbol, semantic
/// tokens, pull diagnostics, formatting).
struct TextDocumentParams {
  std::string uri;
};

/// A document and a position in it (hover, definition, completion,
/// signature help).
struct TextDocumentPositionParams {
  std::string uri;
  Position position;
};

struct InlayHintParams {
  std::string uri;
  Range range;
};

/// textDocument/rangeFormatting (the formatting options are not read: the
/// layout has none the editor may change).
struct DocumentRangeFormattingParams {
  std::string uri;
  Range range;
};

/// textDocument/codeAction (context.diagnostics is not read: the server
/// offers the fixes of its own diagnostics in `range`).
struct CodeActionParams {
  std::string uri;
  Range range;
};

/// codeAction/resolve: the action's `data`.
struct CodeActionResolveParams {
  ImportFixData data;
};

/// textDocument/references.
struct ReferenceParams {
  std::string uri;
  Position position;
  bool includeDeclaration = false;
};

/// textDocument/rename.
struct RenameParams {
  std::string uri;
  Position position;
  std::string newName;
};

/// workspace/symbol.
struct WorkspaceSymbolParams {
  std::string query;
};

/// textDocument/selectionRange.
struct SelectionRangeParams {
  std::string uri;
  std::vector<Position> positions;
};

/// textDocument/semanticTokens/full/delta.
struct SemanticTokensDeltaParams {
  std::string uri;
  std::string previousResultId;
};

/// accy/stageOutput.
struct StageOutputParams {
  std::string uri, kernel, stage;
};

/// accy/stats.
struct StatsParams {
  std::string uri;
};

/// Each decodes `params`; false with `error` set when they are malformed.
bool fromJSON(const nlohmann::json &params, InitializeParams &out,
              std::string &error);
bool fromJSON(const nlohmann::json &params, DidOpenParams &out,
              std::string &error);
bool fromJSON(const nlohmann::json &params, DidChangeParams &out,
              std::string &error);
bool fromJSON(const nlohmann::json &params, DidChangeWatchedFilesParams &out,
              std::string &error);
bool fromJSON(const nlohmann::json &params, TextDocumentParams &out,
              std::string &error);
bool fromJSON(const nlohmann::json &params, TextDocumentPositionParams &out,
              std::string &error);
bool fromJSON(const nlohmann::json &params, InlayHintParams &out,
              std::string &error);
bool fromJSON(const nlohmann::json &params, DocumentRangeFormattingParams &out,
              std::string &error);
bool fromJSON(const nlohmann::json &params, CodeActionParams &out,
              std::string &error);
bool fromJSON(const nlohmann::json &params, CodeActionResolveParams &out,
              std::string &error);
bool fromJSON(const nlohmann::json &params,
              DidChangeWorkspaceFoldersParams &out, std::string &error);
bool fromJSON(const nlohmann::json &params, ReferenceParams &out,
              std::string &error);
bool fromJSON(const nlohmann::json &params, RenameParams &out,
              std::string &error);
bool fromJSON(const nlohmann::json &params, WorkspaceSymbolParams &out,
              std::string &error);
bool fromJSON(const nlohmann::json &params, SelectionRangeParams &out,
              std::string &error);
bool fromJSON(const nlohmann::json &params, SemanticTokensDeltaParams &out,
              std::string &error);
bool fromJSON(const nlohmann::json &params, StageOutputParams &out,
              std::string &error);
bool fromJSON(const nlohmann::json &params, StatsParams &out,
              std::string &error);

} // namespace accy::lsp

#endif // ACCY_LSP_PARAMS_H
