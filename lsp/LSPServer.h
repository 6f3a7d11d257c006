//===- LSPServer.h - The protocol layer -------------------------*- C++ -*-===//
//
// Like clangd's ClangdLSPServer: translates LSP messages into calls of
// AccyServer and its answers back into JSON, one onX per method, and
// enforces the protocol's lifecycle (nothing before `initialize`, nothing
// after `shutdown` but `exit`).
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LSP_LSPSERVER_H
#define ACCY_LSP_LSPSERVER_H

#include "AccyServer.h"
#include "JsonRpc.h"
#include "Progress.h"

#include <memory>

namespace accy::lsp {

class LSPServer : private ServerCallbacks {
public:
  LSPServer(Transport &transport, ServerOptions options);
  ~LSPServer();

  /// Serves until `exit` or the end of the stream; the process exit code:
  /// 0 after shutdown then exit, 1 otherwise (as the specification says).
  int run();

private:
  enum class Lifecycle { Uninitialized, Running, ShutDown };

  // ServerCallbacks.
  void publishDiagnostics(const std::string &uri, int64_t version,
                          std::vector<Diagnostic> diagnostics) override;
  void compileStarted(const std::string &uri, int64_t version,
                      uint64_t compile) override;
  void stageStarted(uint64_t compile, StageId stage) override;
  void compileEnded(uint64_t compile, bool cancelled) override;

  /// Registers a request handler that runs only while the server is
  /// initialized and not shut down.
  void request(const std::string &method, RpcConnection::RequestHandler handler);
  /// Registers a notification handler, dropped outside that window.
  void notification(const std::string &method,
                    RpcConnection::NotificationHandler handler);

  void onInitialize(const json &params, Reply reply);
  void onInitialized(const json &params);
  void onShutdown(const json &params, Reply reply);
  void onExit(const json &params);
  void onDidOpen(const json &params);
  void onDidChange(const json &params);
  void onDidClose(const json &params);
  void onDidChangeWatchedFiles(const json &params);
  void onHover(const json &params, Reply reply);
  void onInlayHint(const json &params, Reply reply);
  void onDocumentSymbol(const json &params, Reply reply);
  void onDefinition(const json &params, Reply reply);
  void onSemanticTokens(const json &params, Reply reply);
  void onCompletion(const json &params, Reply reply);
  void onSignatureHelp(const json &params, Reply reply);
  void onDiagnostic(const json &params, Reply reply);
  void onStageOutput(const json &params, Reply reply);
  void onStats(const json &params, Reply reply);

  RpcConnection connection;
  ProgressReporter progress;
  std::unique_ptr<AccyServer> server;
  std::atomic<Lifecycle> lifecycle{Lifecycle::Uninitialized};
  bool exitRequested = false;
  bool watchFilesDynamically = false;
};

} // namespace accy::lsp

#endif // ACCY_LSP_LSPSERVER_H
