//===- LSPServer.cpp - The protocol layer ---------------------------------===//

#include "LSPServer.h"

#include "Protocol.h"
#include "SemanticTokens.h"
#include "Uri.h"

#include "accy/Config.h"
#include "accy/Pipeline/KernelStore.h"
#include "accy/Pipeline/Hashing.h"

using namespace accy;
using namespace accy::lsp;

LSPServer::LSPServer(Transport &transport, ServerOptions options, bool inOrder)
    : connection(transport), progress(connection),
      kernelStore(options.compile.stages.store),
      server(std::make_unique<AccyServer>(
          std::move(options), static_cast<ServerCallbacks &>(*this))) {
  if (inOrder)
    connection.answerInOrder();
  // The lifecycle's own methods run in any state.
  connection.onRequest("initialize", [this](const json &p, Reply r) {
    InitializeParams params;
    std::string error;
    if (!fromJSON(p, params, error))
      return r(RpcError{ErrorCode::InvalidParams, error});
    onInitialize(params, std::move(r));
  });
  connection.onRequest("shutdown",
                       [this](const json &, Reply r) { onShutdown(std::move(r)); });
  connection.onNotification("exit", [this](const json &) { onExit(); });
  connection.onNotification("initialized", [this](const json &) {
    if (lifecycle.load() == Lifecycle::Running)
      onInitialized();
  });
  notification("textDocument/didOpen", &LSPServer::onDidOpen);
  notification("textDocument/didChange", &LSPServer::onDidChange);
  notification("textDocument/didClose", &LSPServer::onDidClose);
  notification("workspace/didChangeWatchedFiles",
               &LSPServer::onDidChangeWatchedFiles);
  notification("workspace/didChangeWorkspaceFolders",
               &LSPServer::onDidChangeWorkspaceFolders);
  // Saving changes nothing the server does not already have.
  connection.onNotification("textDocument/didSave", [](const json &) {});
  request("textDocument/hover", &LSPServer::onHover);
  request("textDocument/inlayHint", &LSPServer::onInlayHint);
  request("textDocument/documentSymbol", &LSPServer::onDocumentSymbol);
  request("textDocument/definition", &LSPServer::onDefinition);
  request("textDocument/semanticTokens/full", &LSPServer::onSemanticTokens);
  request("textDocument/semanticTokens/full/delta",
          &LSPServer::onSemanticTokensDelta);
  request("textDocument/references", &LSPServer::onReferences);
  request("textDocument/documentHighlight", &LSPServer::onDocumentHighlight);
  request("textDocument/prepareRename", &LSPServer::onPrepareRename);
  request("textDocument/rename", &LSPServer::onRename);
  request("workspace/symbol", &LSPServer::onWorkspaceSymbol);
  request("textDocument/foldingRange", &LSPServer::onFoldingRange);
  request("textDocument/selectionRange", &LSPServer::onSelectionRange);
  request("textDocument/completion", &LSPServer::onCompletion);
  request("textDocument/signatureHelp", &LSPServer::onSignatureHelp);
  request("textDocument/formatting", &LSPServer::onFormatting);
  request("textDocument/rangeFormatting", &LSPServer::onRangeFormatting);
  request("textDocument/codeAction", &LSPServer::onCodeAction);
  request("codeAction/resolve", &LSPServer::onCodeActionResolve);
  request("textDocument/diagnostic", &LSPServer::onDiagnostic);
  request("accy/stageOutput", &LSPServer::onStageOutput);
  request("accy/stats", &LSPServer::onStats);
  request("textDocument/codeLens", &LSPServer::onCodeLens);
}

LSPServer::~LSPServer() = default;

int LSPServer::run() {
  connection.run();
  // Compiles and waiting requests stop before the connection goes away.
  server.reset();
  return exitRequested && lifecycle == Lifecycle::ShutDown ? 0 : 1;
}

template <typename Params>
void LSPServer::request(const std::string &method,
                        void (LSPServer::*handler)(const Params &, Reply)) {
  connection.onRequest(method, [this, handler](const json &raw, Reply reply) {
    switch (lifecycle.load()) {
    case Lifecycle::Uninitialized:
      return reply(RpcError{ErrorCode::ServerNotInitialized,
                            "the server is not initialized yet"});
    case Lifecycle::ShutDown:
      return reply(RpcError{ErrorCode::InvalidRequest,
                            "the server is shutting down"});
    case Lifecycle::Running:
      break;
    }
    Params params;
    std::string error;
    if (!fromJSON(raw, params, error))
      return reply(RpcError{ErrorCode::InvalidParams, "invalid params: " + error});
    (this->*handler)(params, std::move(reply));
  });
}

template <typename Params>
void LSPServer::notification(const std::string &method,
                             void (LSPServer::*handler)(const Params &)) {
  connection.onNotification(method, [this, method, handler](const json &raw) {
    // Notifications outside the initialized window are dropped.
    if (lifecycle.load() != Lifecycle::Running)
      return;
    Params params;
    std::string error;
    if (!fromJSON(raw, params, error))
      return connection.notify(
          "window/logMessage",
          {{"type", 1}, {"message", method + " dropped: invalid params: " + error}});
    (this->*handler)(params);
  });
}

//===----------------------------------------------------------------------===//
// Replies
//===----------------------------------------------------------------------===//

static RpcError rpcError(const ServerError &error) {
  switch (error.kind) {
  case ServerError::Kind::Cancelled:
    return {ErrorCode::RequestCancelled, error.message};
  case ServerError::Kind::NotOpen:
  case ServerError::Kind::InvalidArgument:
    return {ErrorCode::InvalidParams, error.message};
  case ServerError::Kind::Failed:
    break;
  }
  return {ErrorCode::RequestFailed, error.message};
}

/// A callback that answers `reply` with `toJson(value)` or the error.
template <typename T, typename F>
static Callback<T> replyWith(Reply reply, F toJson) {
  return [reply = std::move(reply), toJson](Outcome<T> outcome) {
    if (!outcome.ok())
      return reply(rpcError(outcome.error));
    reply(toJson(*outcome.value));
  };
}

template <typename T> static Callback<T> replyWithJson(Reply reply) {
  return replyWith<T>(std::move(reply), [](const T &value) { return json(value); });
}

template <typename T>
static Callback<std::optional<T>> replyWithOptional(Reply reply) {
  return replyWith<std::optional<T>>(
      std::move(reply), [](const std::optional<T> &value) {
        return value ? json(*value) : json(nullptr);
      });
}

//===----------------------------------------------------------------------===//
// Lifecycle
//===----------------------------------------------------------------------===//

/// The paths of the file:// URIs among `uris`.
static std::vector<std::string> pathsOf(const std::vector<std::string> &uris) {
  std::vector<std::string> paths;
  for (const std::string &uri : uris)
    if (std::optional<std::string> path = uriToPath(uri))
      paths.push_back(*path);
  return paths;
}

void LSPServer::onInitialize(const InitializeParams &params, Reply reply) {
  if (lifecycle.load() != Lifecycle::Uninitialized)
    return reply(RpcError{ErrorCode::InvalidRequest,
                          "initialize was already received"});
  PositionEncoding encoding =
      params.offersUtf8 ? PositionEncoding::Utf8 : PositionEncoding::Utf16;
  server->setEncoding(encoding);
  progress.enable(params.workDoneProgress);
  watchFilesDynamically = params.watchFilesDynamically;
  codeLensRefresh = params.codeLensRefresh;

  json tokenLegend = {{"tokenTypes", semanticTokenTypes()},
                      {"tokenModifiers", semanticTokenModifiers()}};
  json result = {
      {"serverInfo", {{"name", "accy-lsp"}, {"version", ACCY_VERSION}}},
      {"capabilities",
       {{"positionEncoding",
         encoding == PositionEncoding::Utf8 ? "utf-8" : "utf-16"},
        {"textDocumentSync", {{"openClose", true}, {"change", 2}}},
        {"hoverProvider", true},
        {"inlayHintProvider", true},
        {"documentSymbolProvider", true},
        {"definitionProvider", true},
        {"semanticTokensProvider",
         {{"legend", tokenLegend},
          {"full", {{"delta", true}}},
          {"range", false}}},
        {"referencesProvider", true},
        {"documentHighlightProvider", true},
        {"renameProvider", {{"prepareProvider", true}}},
        {"workspaceSymbolProvider", true},
        {"workspace",
         {{"workspaceFolders",
           {{"supported", true}, {"changeNotifications", true}}}}},
        {"foldingRangeProvider", true},
        {"codeLensProvider", {{"resolveProvider", false}}},
        {"selectionRangeProvider", true},
        {"completionProvider", {{"triggerCharacters", json::array()}}},
        {"signatureHelpProvider", {{"triggerCharacters", {"(", ","}}}},
        {"documentFormattingProvider", true},
        {"documentRangeFormattingProvider", true},
        {"codeActionProvider",
         {{"codeActionKinds", {"quickfix"}}, {"resolveProvider", true}}},
        {"diagnosticProvider",
         {{"interFileDependencies", true}, {"workspaceDiagnostics", false}}},
        {"experimental",
         {{"accyStageOutput", true}, {"accyStats", true}}}}}};
  lifecycle = Lifecycle::Running;
  reply(std::move(result));
  server->changeWorkspaceFolders(pathsOf(params.workspaceFolders), {});
}

void LSPServer::onInitialized() {
  if (!watchFilesDynamically)
    return;
  // Imported files change on disk: ask to hear about every .accy file.
  json registration = {
      {"id", "accy-watch-imports"},
      {"method", "workspace/didChangeWatchedFiles"},
      {"registerOptions", {{"watchers", {{{"globPattern", "**/*.accy"}}}}}}};
  connection.call("client/registerCapability",
                  {{"registrations", {registration}}},
                  [](const json &, const RpcError *) {});
}

void LSPServer::onShutdown(Reply reply) {
  if (lifecycle.load() == Lifecycle::Uninitialized)
    return reply(RpcError{ErrorCode::ServerNotInitialized,
                          "the server is not initialized yet"});
  if (lifecycle.load() == Lifecycle::ShutDown)
    return reply(RpcError{ErrorCode::InvalidRequest,
                          "shutdown was already received"});
  lifecycle = Lifecycle::ShutDown;
  reply(json(nullptr));
}

void LSPServer::onExit() {
  exitRequested = true;
  connection.stop();
}

//===----------------------------------------------------------------------===//
// Documents
//===----------------------------------------------------------------------===//

void LSPServer::onDidOpen(const DidOpenParams &params) {
  {
    std::lock_guard<std::mutex> lock(openMutex);
    openDocuments.insert(params.uri);
  }
  server->openDocument(params.uri, params.version, params.text);
}

void LSPServer::onDidChange(const DidChangeParams &params) {
  if (std::optional<std::string> error =
          server->changeDocument(params.uri, params.version, params.changes))
    connection.notify("window/logMessage", {{"type", 2}, {"message", *error}});
}

void LSPServer::onDidClose(const TextDocumentParams &params) {
  server->closeDocument(params.uri);
  // Problems of a closed file are no longer the editor's to show.
  std::lock_guard<std::mutex> lock(openMutex);
  openDocuments.erase(params.uri);
  connection.notify("textDocument/publishDiagnostics",
                    {{"uri", params.uri}, {"diagnostics", json::array()}});
}

void LSPServer::onDidChangeWorkspaceFolders(
    const DidChangeWorkspaceFoldersParams &params) {
  server->changeWorkspaceFolders(pathsOf(params.added), pathsOf(params.removed));
}

void LSPServer::onDidChangeWatchedFiles(
    const DidChangeWatchedFilesParams &params) {
  std::vector<std::string> paths;
  for (const std::string &uri : params.uris)
    if (auto path = uriToPath(uri))
      paths.push_back(*path);
  server->filesChanged(paths);
}

//===----------------------------------------------------------------------===//
// Server callbacks (from worker threads)
//===----------------------------------------------------------------------===//

void LSPServer::publishDiagnostics(const std::string &uri, int64_t version,
                                   std::vector<lsp::Diagnostic> diagnostics) {
  // After shutdown the client expects nothing but the answer to exit.
  if (lifecycle.load() == Lifecycle::ShutDown)
    return;
  json params = {{"uri", uri},
                 {"version", version},
                 {"diagnostics", json(diagnostics)}};
  std::lock_guard<std::mutex> lock(openMutex);
  if (openDocuments.count(uri))
    connection.notify("textDocument/publishDiagnostics", std::move(params));
}

void LSPServer::compileStarted(const std::string &uri, int64_t version,
                               uint64_t compile) {
  progress.begin(std::to_string(compile),
                 "accy: compiling " + uri + " (version " +
                     std::to_string(version) + ")");
}

void LSPServer::stageStarted(uint64_t compile, StageId stage) {
  progress.report(std::to_string(compile), stageName(stage).str(),
                  stageIndex(stage) * 100 / kNumStages);
}

void LSPServer::compileEnded(uint64_t compile, bool cancelled) {
  progress.end(std::to_string(compile),
               cancelled ? "cancelled by a newer edit" : "done");
  // The lenses show the last compile's times and reuse.
  if (!cancelled && codeLensRefresh && lifecycle.load() == Lifecycle::Running)
    connection.call("workspace/codeLens/refresh", json(nullptr),
                    [](const json &, const RpcError *) {});
  if (kernelStore)
    if (std::optional<std::string> warning = kernelStore->takeWarning())
      connection.notify("window/showMessage",
                        {{"type", 2}, {"message", "accy-lsp: " + *warning}});
}

void LSPServer::workspaceScanStarted(size_t files) {
  progress.begin("workspace-index", "accy: indexing " + std::to_string(files) +
                                        " files of the workspace");
}

void LSPServer::workspaceScanEnded(size_t files, double seconds) {
  char took[32];
  std::snprintf(took, sizeof(took), "%.3f", seconds);
  progress.end("workspace-index", "indexed " + std::to_string(files) +
                                      " files in " + took + " s");
}

//===----------------------------------------------------------------------===//
// Features
//===----------------------------------------------------------------------===//

void LSPServer::onHover(const TextDocumentPositionParams &params, Reply reply) {
  AccyServer::CancelFlag cancelled = reply.cancelFlag();
  server->hover(params.uri, params.position, cancelled,
                replyWithOptional<Hover>(std::move(reply)));
}

void LSPServer::onInlayHint(const InlayHintParams &params, Reply reply) {
  server->inlayHints(params.uri, params.range,
                     replyWithJson<std::vector<InlayHint>>(std::move(reply)));
}

void LSPServer::onDocumentSymbol(const TextDocumentParams &params, Reply reply) {
  server->documentSymbols(
      params.uri, replyWithJson<std::vector<DocumentSymbol>>(std::move(reply)));
}

void LSPServer::onDefinition(const TextDocumentPositionParams &params,
                             Reply reply) {
  server->definition(params.uri, params.position,
                     replyWithOptional<Location>(std::move(reply)));
}

static json semanticTokensJson(const SemanticTokensResult &result) {
  if (result.edits)
    return json{{"resultId", result.resultId}, {"edits", *result.edits}};
  return json{{"resultId", result.resultId}, {"data", result.data}};
}

void LSPServer::onSemanticTokens(const TextDocumentParams &params, Reply reply) {
  server->semanticTokensDelta(
      params.uri, std::nullopt,
      replyWith<SemanticTokensResult>(std::move(reply), semanticTokensJson));
}

void LSPServer::onSemanticTokensDelta(const SemanticTokensDeltaParams &params,
                                      Reply reply) {
  server->semanticTokensDelta(
      params.uri, params.previousResultId,
      replyWith<SemanticTokensResult>(std::move(reply), semanticTokensJson));
}

void LSPServer::onReferences(const ReferenceParams &params, Reply reply) {
  server->references(params.uri, params.position, params.includeDeclaration,
                     replyWithJson<std::vector<Location>>(std::move(reply)));
}

void LSPServer::onDocumentHighlight(const TextDocumentPositionParams &params,
                                    Reply reply) {
  server->documentHighlights(
      params.uri, params.position,
      replyWithJson<std::vector<DocumentHighlight>>(std::move(reply)));
}

void LSPServer::onPrepareRename(const TextDocumentPositionParams &params,
                                Reply reply) {
  server->prepareRename(params.uri, params.position,
                        replyWithJson<PreparedRename>(std::move(reply)));
}

void LSPServer::onRename(const RenameParams &params, Reply reply) {
  server->rename(params.uri, params.position, params.newName,
                 replyWithJson<WorkspaceEdit>(std::move(reply)));
}

void LSPServer::onWorkspaceSymbol(const WorkspaceSymbolParams &params,
                                  Reply reply) {
  server->workspaceSymbols(
      params.query,
      replyWithJson<std::vector<SymbolInformation>>(std::move(reply)));
}

void LSPServer::onFoldingRange(const TextDocumentParams &params, Reply reply) {
  server->foldingRanges(
      params.uri, replyWithJson<std::vector<FoldingRange>>(std::move(reply)));
}

void LSPServer::onSelectionRange(const SelectionRangeParams &params,
                                 Reply reply) {
  server->selectionRanges(
      params.uri, params.positions,
      replyWithJson<std::vector<SelectionRange>>(std::move(reply)));
}

void LSPServer::onCompletion(const TextDocumentPositionParams &params,
                             Reply reply) {
  server->completion(
      params.uri, params.position,
      replyWith<std::vector<CompletionItem>>(
          std::move(reply), [](const std::vector<CompletionItem> &items) {
            return json{{"isIncomplete", false}, {"items", items}};
          }));
}

void LSPServer::onSignatureHelp(const TextDocumentPositionParams &params,
                                Reply reply) {
  server->signatureHelp(params.uri, params.position,
                        replyWithOptional<SignatureHelp>(std::move(reply)));
}

void LSPServer::onFormatting(const TextDocumentParams &params, Reply reply) {
  server->formatting(params.uri, std::nullopt,
                     replyWithJson<std::vector<TextEdit>>(std::move(reply)));
}

void LSPServer::onRangeFormatting(const DocumentRangeFormattingParams &params,
                                  Reply reply) {
  server->formatting(params.uri, params.range,
                     replyWithJson<std::vector<TextEdit>>(std::move(reply)));
}

void LSPServer::onCodeAction(const CodeActionParams &params, Reply reply) {
  server->codeActions(params.uri, params.range,
                      replyWithJson<std::vector<CodeAction>>(std::move(reply)));
}

void LSPServer::onCodeActionResolve(const CodeActionResolveParams &params,
                                    Reply reply) {
  server->resolveCodeAction(params.data,
                            replyWithJson<CodeAction>(std::move(reply)));
}

void LSPServer::onDiagnostic(const TextDocumentParams &params, Reply reply) {
  AccyServer::CancelFlag cancelled = reply.cancelFlag();
  server->diagnostics(
      params.uri, cancelled,
      replyWith<std::vector<lsp::Diagnostic>>(
          std::move(reply), [](const std::vector<lsp::Diagnostic> &items) {
            return json{{"kind", "full"}, {"items", items}};
          }));
}

void LSPServer::onStageOutput(const StageOutputParams &params, Reply reply) {
  AccyServer::CancelFlag cancelled = reply.cancelFlag();
  server->stageOutput(
      params.uri, params.kernel, params.stage, cancelled,
      replyWith<std::string>(std::move(reply), [](const std::string &text) {
        return json{{"text", text}};
      }));
}

void LSPServer::onCodeLens(const TextDocumentParams &params, Reply reply) {
  AccyServer::CancelFlag cancelled = reply.cancelFlag();
  server->codeLenses(params.uri, cancelled,
                     replyWithJson<std::vector<CodeLens>>(std::move(reply)));
}

static json kernelRecordsJson(const StageRecord &record) {
  json kernels = json::array();
  for (const KernelStageRecord &k : record.kernels)
    kernels.push_back({{"kernel", k.kernel},
                       {"status", k.statusName().str()},
                       {"key", k.key},
                       {"fingerprint", fingerprintHex(k.fingerprint)}});
  return kernels;
}

void LSPServer::onStats(const StatsParams &params, Reply reply) {
  AccyServer::CancelFlag cancelled = reply.cancelFlag();
  server->stats(
      params.uri, cancelled,
      replyWith<AccyServer::Stats>(
          std::move(reply), [](const AccyServer::Stats &stats) {
            json stages = json::array();
            for (const StageRecord &record : stats.compile->compilation().records())
              stages.push_back({{"stage", stageName(record.stage).str()},
                                {"status", stageStatusName(record.status).str()},
                                {"seconds", record.seconds},
                                {"passRuns", record.stats.passRuns},
                                {"kernels", kernelRecordsJson(record)}});
            return json{
                {"version", stats.compile->document().version},
                {"compileSeconds", stats.compile->seconds()},
                {"compiles",
                 {{"started", stats.counters.started},
                  {"cancelled", stats.counters.cancelled},
                  {"finished", stats.counters.finished}}},
                {"cachedProducts", stats.counters.cachedProducts},
                {"codegenUnits",
                 {{"run", stats.counters.unitsRun},
                  {"kept", stats.counters.unitsKept},
                  {"dropped", stats.counters.unitsDropped}}},
                {"debounceMs", stats.debounce.count()},
                {"stages", std::move(stages)}};
          }));
}
