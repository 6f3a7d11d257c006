//===- LSPServer.cpp - The protocol layer ---------------------------------===//

#include "LSPServer.h"

#include "Protocol.h"
#include "SemanticTokens.h"
#include "Uri.h"

#include "accy/Config.h"
#include "accy/Pipeline/Hashing.h"

using namespace accy;
using namespace accy::lsp;

LSPServer::LSPServer(Transport &transport, ServerOptions options)
    : connection(transport), progress(connection),
      server(std::make_unique<AccyServer>(
          std::move(options), static_cast<ServerCallbacks &>(*this))) {
  connection.onRequest("initialize", [this](const json &p, Reply r) {
    onInitialize(p, std::move(r));
  });
  connection.onRequest("shutdown", [this](const json &p, Reply r) {
    onShutdown(p, std::move(r));
  });
  connection.onNotification("exit", [this](const json &p) { onExit(p); });
  notification("initialized", [this](const json &p) { onInitialized(p); });
  notification("textDocument/didOpen", [this](const json &p) { onDidOpen(p); });
  notification("textDocument/didChange",
               [this](const json &p) { onDidChange(p); });
  notification("textDocument/didClose",
               [this](const json &p) { onDidClose(p); });
  notification("workspace/didChangeWatchedFiles",
               [this](const json &p) { onDidChangeWatchedFiles(p); });
  // Saving changes nothing the server does not already have.
  notification("textDocument/didSave", [](const json &) {});
  request("textDocument/hover",
          [this](const json &p, Reply r) { onHover(p, std::move(r)); });
  request("textDocument/inlayHint",
          [this](const json &p, Reply r) { onInlayHint(p, std::move(r)); });
  request("textDocument/documentSymbol", [this](const json &p, Reply r) {
    onDocumentSymbol(p, std::move(r));
  });
  request("textDocument/definition",
          [this](const json &p, Reply r) { onDefinition(p, std::move(r)); });
  request("textDocument/semanticTokens/full", [this](const json &p, Reply r) {
    onSemanticTokens(p, std::move(r));
  });
  request("textDocument/completion",
          [this](const json &p, Reply r) { onCompletion(p, std::move(r)); });
  request("textDocument/signatureHelp", [this](const json &p, Reply r) {
    onSignatureHelp(p, std::move(r));
  });
  request("textDocument/diagnostic",
          [this](const json &p, Reply r) { onDiagnostic(p, std::move(r)); });
  request("accy/stageOutput",
          [this](const json &p, Reply r) { onStageOutput(p, std::move(r)); });
  request("accy/stats",
          [this](const json &p, Reply r) { onStats(p, std::move(r)); });
}

LSPServer::~LSPServer() = default;

int LSPServer::run() {
  connection.run();
  // Compiles and waiting requests stop before the connection goes away.
  server.reset();
  return exitRequested && lifecycle == Lifecycle::ShutDown ? 0 : 1;
}

void LSPServer::request(const std::string &method,
                        RpcConnection::RequestHandler handler) {
  connection.onRequest(method, [this, handler = std::move(handler)](
                                   const json &params, Reply reply) {
    switch (lifecycle.load()) {
    case Lifecycle::Uninitialized:
      return reply(RpcError{ErrorCode::ServerNotInitialized,
                            "the server is not initialized yet"});
    case Lifecycle::ShutDown:
      return reply(RpcError{ErrorCode::InvalidRequest,
                            "the server is shutting down"});
    case Lifecycle::Running:
      return handler(params, std::move(reply));
    }
  });
}

void LSPServer::notification(const std::string &method,
                             RpcConnection::NotificationHandler handler) {
  connection.onNotification(method, [this, handler = std::move(handler)](
                                        const json &params) {
    // Notifications outside the initialized window are dropped.
    if (lifecycle.load() == Lifecycle::Running)
      handler(params);
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

static std::string uriOf(const json &params) {
  return params.at("textDocument").at("uri").get<std::string>();
}

//===----------------------------------------------------------------------===//
// Lifecycle
//===----------------------------------------------------------------------===//

/// Reads capabilities.a.b... as a bool (false when absent).
static bool capability(const json &capabilities,
                       std::initializer_list<const char *> path) {
  const json *at = &capabilities;
  for (const char *key : path) {
    if (!at->is_object() || !at->contains(key))
      return false;
    at = &(*at)[key];
  }
  return at->is_boolean() && at->get<bool>();
}

void LSPServer::onInitialize(const json &params, Reply reply) {
  if (lifecycle.load() != Lifecycle::Uninitialized)
    return reply(RpcError{ErrorCode::InvalidRequest,
                          "initialize was already received"});
  json capabilities = params.value("capabilities", json::object());
  PositionEncoding encoding = PositionEncoding::Utf16;
  const json general = capabilities.value("general", json::object());
  if (general.is_object())
    for (const json &offered :
         general.value("positionEncodings", json::array()))
      if (offered == "utf-8")
        encoding = PositionEncoding::Utf8;
  server->setEncoding(encoding);
  progress.enable(capability(capabilities, {"window", "workDoneProgress"}));
  watchFilesDynamically = capability(
      capabilities, {"workspace", "didChangeWatchedFiles", "dynamicRegistration"});

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
         {{"legend", tokenLegend}, {"full", true}, {"range", false}}},
        {"completionProvider", {{"triggerCharacters", json::array()}}},
        {"signatureHelpProvider", {{"triggerCharacters", {"(", ","}}}},
        {"diagnosticProvider",
         {{"interFileDependencies", true}, {"workspaceDiagnostics", false}}},
        {"experimental",
         {{"accyStageOutput", true}, {"accyStats", true}}}}}};
  lifecycle = Lifecycle::Running;
  reply(std::move(result));
}

void LSPServer::onInitialized(const json &) {
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

void LSPServer::onShutdown(const json &, Reply reply) {
  if (lifecycle.load() == Lifecycle::Uninitialized)
    return reply(RpcError{ErrorCode::ServerNotInitialized,
                          "the server is not initialized yet"});
  if (lifecycle.load() == Lifecycle::ShutDown)
    return reply(RpcError{ErrorCode::InvalidRequest,
                          "shutdown was already received"});
  lifecycle = Lifecycle::ShutDown;
  reply(json(nullptr));
}

void LSPServer::onExit(const json &) {
  exitRequested = true;
  connection.stop();
}

//===----------------------------------------------------------------------===//
// Documents
//===----------------------------------------------------------------------===//

void LSPServer::onDidOpen(const json &params) {
  const json &doc = params.at("textDocument");
  server->openDocument(doc.at("uri").get<std::string>(),
                       doc.at("version").get<int64_t>(),
                       doc.at("text").get<std::string>());
}

void LSPServer::onDidChange(const json &params) {
  std::vector<TextChange> changes;
  for (const json &change : params.at("contentChanges")) {
    TextChange c;
    if (change.contains("range"))
      c.range = rangeFromJson(change.at("range"));
    c.text = change.at("text").get<std::string>();
    changes.push_back(std::move(c));
  }
  const json &doc = params.at("textDocument");
  if (std::optional<std::string> error =
          server->changeDocument(doc.at("uri").get<std::string>(),
                                 doc.at("version").get<int64_t>(), changes))
    connection.notify("window/logMessage", {{"type", 2}, {"message", *error}});
}

void LSPServer::onDidClose(const json &params) {
  std::string uri = uriOf(params);
  server->closeDocument(uri);
  // Problems of a closed file are no longer the editor's to show.
  connection.notify("textDocument/publishDiagnostics",
                    {{"uri", uri}, {"diagnostics", json::array()}});
}

void LSPServer::onDidChangeWatchedFiles(const json &params) {
  std::vector<std::string> paths;
  for (const json &change : params.at("changes"))
    if (auto path = uriToPath(change.at("uri").get<std::string>()))
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
  connection.notify("textDocument/publishDiagnostics",
                    {{"uri", uri},
                     {"version", version},
                     {"diagnostics", json(diagnostics)}});
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
}

//===----------------------------------------------------------------------===//
// Features
//===----------------------------------------------------------------------===//

void LSPServer::onHover(const json &params, Reply reply) {
  Position pos = positionFromJson(params.at("position"));
  AccyServer::CancelFlag cancelled = reply.cancelFlag();
  server->hover(uriOf(params), pos, cancelled,
                replyWithOptional<Hover>(std::move(reply)));
}

void LSPServer::onInlayHint(const json &params, Reply reply) {
  Range range = rangeFromJson(params.at("range"));
  server->inlayHints(uriOf(params), range,
                     replyWithJson<std::vector<InlayHint>>(std::move(reply)));
}

void LSPServer::onDocumentSymbol(const json &params, Reply reply) {
  server->documentSymbols(
      uriOf(params), replyWithJson<std::vector<DocumentSymbol>>(std::move(reply)));
}

void LSPServer::onDefinition(const json &params, Reply reply) {
  Position pos = positionFromJson(params.at("position"));
  server->definition(uriOf(params), pos,
                     replyWithOptional<Location>(std::move(reply)));
}

void LSPServer::onSemanticTokens(const json &params, Reply reply) {
  server->semanticTokens(
      uriOf(params),
      replyWith<std::vector<uint32_t>>(
          std::move(reply),
          [](const std::vector<uint32_t> &data) { return json{{"data", data}}; }));
}

void LSPServer::onCompletion(const json &params, Reply reply) {
  Position pos = positionFromJson(params.at("position"));
  server->completion(
      uriOf(params), pos,
      replyWith<std::vector<CompletionItem>>(
          std::move(reply), [](const std::vector<CompletionItem> &items) {
            return json{{"isIncomplete", false}, {"items", items}};
          }));
}

void LSPServer::onSignatureHelp(const json &params, Reply reply) {
  Position pos = positionFromJson(params.at("position"));
  server->signatureHelp(uriOf(params), pos,
                        replyWithOptional<SignatureHelp>(std::move(reply)));
}

void LSPServer::onDiagnostic(const json &params, Reply reply) {
  AccyServer::CancelFlag cancelled = reply.cancelFlag();
  server->diagnostics(
      uriOf(params), cancelled,
      replyWith<std::vector<lsp::Diagnostic>>(
          std::move(reply), [](const std::vector<lsp::Diagnostic> &items) {
            return json{{"kind", "full"}, {"items", items}};
          }));
}

void LSPServer::onStageOutput(const json &params, Reply reply) {
  AccyServer::CancelFlag cancelled = reply.cancelFlag();
  server->stageOutput(
      params.at("uri").get<std::string>(), params.at("kernel").get<std::string>(),
      params.at("stage").get<std::string>(), cancelled,
      replyWith<std::string>(std::move(reply), [](const std::string &text) {
        return json{{"text", text}};
      }));
}

static json kernelRecordsJson(const StageRecord &record) {
  json kernels = json::array();
  for (const KernelStageRecord &k : record.kernels)
    kernels.push_back({{"kernel", k.kernel},
                       {"status", stageStatusName(k.status).str()},
                       {"key", k.key},
                       {"fingerprint", fingerprintHex(k.fingerprint)}});
  return kernels;
}

void LSPServer::onStats(const json &params, Reply reply) {
  std::string uri = params.at("uri").get<std::string>();
  AccyServer::CancelFlag cancelled = reply.cancelFlag();
  server->stats(
      uri, cancelled,
      replyWith<AccyServer::Stats>(
          std::move(reply), [](const AccyServer::Stats &stats) {
            json stages = json::array();
            for (const StageRecord &record : stats.compile->allRecords())
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
