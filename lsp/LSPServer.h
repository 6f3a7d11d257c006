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
#include "Params.h"
#include "Progress.h"

#include <memory>
#include <mutex>
#include <set>

namespace accy::lsp {

class LSPServer : private ServerCallbacks {
public:
  /// `inOrder`: each request is answered before the next message is read
  /// (-lit-test).
  LSPServer(Transport &transport, ServerOptions options, bool inOrder = false);
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
  void workspaceScanStarted(size_t files) override;
  void workspaceScanEnded(size_t files, double seconds) override;

  /// Registers a request handler that runs only while the server is
  /// initialized and not shut down, with its params decoded (InvalidParams
  /// when they are malformed).
  template <typename Params>
  void request(const std::string &method,
               void (LSPServer::*handler)(const Params &, Reply));
  /// Registers a notification handler, dropped outside that window; a
  /// notification whose params are malformed is logged and dropped.
  template <typename Params>
  void notification(const std::string &method,
                    void (LSPServer::*handler)(const Params &));

  void onInitialize(const InitializeParams &params, Reply reply);
  void onInitialized();
  void onShutdown(Reply reply);
  void onExit();
  void onDidOpen(const DidOpenParams &params);
  void onDidChange(const DidChangeParams &params);
  void onDidClose(const TextDocumentParams &params);
  void onDidChangeWatchedFiles(const DidChangeWatchedFilesParams &params);
  void onHover(const TextDocumentPositionParams &params, Reply reply);
  void onInlayHint(const InlayHintParams &params, Reply reply);
  void onDocumentSymbol(const TextDocumentParams &params, Reply reply);
  void onDefinition(const TextDocumentPositionParams &params, Reply reply);
  void onSemanticTokens(const TextDocumentParams &params, Reply reply);
  void onSemanticTokensDelta(const SemanticTokensDeltaParams &params,
                             Reply reply);
  void onDidChangeWorkspaceFolders(
      const DidChangeWorkspaceFoldersParams &params);
  void onReferences(const ReferenceParams &params, Reply reply);
  void onDocumentHighlight(const TextDocumentPositionParams &params,
                           Reply reply);
  void onPrepareRename(const TextDocumentPositionParams &params, Reply reply);
  void onRename(const RenameParams &params, Reply reply);
  void onWorkspaceSymbol(const WorkspaceSymbolParams &params, Reply reply);
  void onFoldingRange(const TextDocumentParams &params, Reply reply);
  void onSelectionRange(const SelectionRangeParams &params, Reply reply);
  void onCompletion(const TextDocumentPositionParams &params, Reply reply);
  void onSignatureHelp(const TextDocumentPositionParams &params, Reply reply);
  void onFormatting(const TextDocumentParams &params, Reply reply);
  void onRangeFormatting(const DocumentRangeFormattingParams &params,
                         Reply reply);
  void onCodeAction(const CodeActionParams &params, Reply reply);
  void onCodeActionResolve(const CodeActionResolveParams &params, Reply reply);
  void onDiagnostic(const TextDocumentParams &params, Reply reply);
  void onStageOutput(const StageOutputParams &params, Reply reply);
  void onStats(const StatsParams &params, Reply reply);
  void onCodeLens(const TextDocumentParams &params, Reply reply);

  RpcConnection connection;
  ProgressReporter progress;
  /// The kernel store the compiles share, if any: a write that failed is
  /// shown to the user once (the server goes on without writing).
  KernelStore *kernelStore = nullptr;
  std::unique_ptr<AccyServer> server;
  std::atomic<Lifecycle> lifecycle{Lifecycle::Uninitialized};
  bool exitRequested = false;
  bool watchFilesDynamically = false;
  /// Set once by initialize, before any compile: ask for lenses again after
  /// each compile.
  bool codeLensRefresh = false;
  /// The documents the client has open. A worker's publication and the
  /// clearing on didClose are each sent under this lock (the protocol
  /// layer's own, around the send only), so nothing published for a
  /// document can follow its clearing.
  std::mutex openMutex;
  std::set<std::string> openDocuments;
};

} // namespace accy::lsp

#endif // ACCY_LSP_LSPSERVER_H
