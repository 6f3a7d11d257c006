//===- AccyServer.h - The language server's logic, without JSON -*- C++ -*-===//
//
// Like clangd's ClangdServer: answers feature requests with plain values
// through callbacks, and never sees JSON, so it can be driven without a
// protocol (accy-lsp --check does). Its state is behind a pointer to an
// implementation, as MLIRServer's is; the documents' state and compiles
// belong to the scheduler (Scheduler.h).
//
// Threads: the caller's thread (the I/O thread) only updates documents and
// queues work. Compiles run on the documents' workers. Requests that need
// only the frontend run on a small pool of their own, so they never wait
// behind a request that waits for the later stages (those run on another).
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LSP_ACCYSERVER_H
#define ACCY_LSP_ACCYSERVER_H

#include "Analysis.h"
#include "DocumentCompiler.h"
#include "DocumentStore.h"
#include "Protocol.h"
#include "SemanticTokens.h"
#include "ServerCallbacks.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace accy::lsp {

struct ServerOptions {
  CompileOptions compile;
  PositionEncoding encoding = PositionEncoding::Utf16;
  /// Documents whose products (every kernel at every stage) stay in memory
  /// for reuse, most recently checked first; like clangd's retained ASTs.
  /// The others keep their diagnostics and stage records; their next
  /// compile builds every kernel again.
  unsigned retainedDocuments = 3;
};

/// Why a request has no answer.
struct ServerError {
  enum class Kind { NotOpen, Cancelled, InvalidArgument, Failed };
  Kind kind = Kind::Failed;
  std::string message;
};

/// A value or the reason there is none.
template <typename T> struct Outcome {
  std::optional<T> value;
  ServerError error;
  Outcome(T v) : value(std::move(v)) {}
  Outcome(ServerError e) : error(std::move(e)) {}
  bool ok() const { return value.has_value(); }
};

template <typename T> using Callback = std::function<void(Outcome<T>)>;

class AccyServer {
public:
  AccyServer(ServerOptions options, ServerCallbacks &callbacks);
  ~AccyServer();

  void setEncoding(PositionEncoding encoding);
  PositionEncoding encoding() const;

  void openDocument(const std::string &uri, int64_t version, std::string text);
  /// An error message when the document is not open.
  std::optional<std::string>
  changeDocument(const std::string &uri, int64_t version,
                 const std::vector<TextChange> &changes);
  void closeDocument(const std::string &uri);
  /// Files changed on disk: documents that import one are compiled again.
  void filesChanged(const std::vector<std::string> &paths);
  /// Workspace folders (absolute paths) added and removed: the .accy files
  /// in them are indexed in the background, for workspace symbols,
  /// references and rename.
  void changeWorkspaceFolders(std::vector<std::string> added,
                              const std::vector<std::string> &removed);

  // Features. `cancelled` is the client's cancellation of the request.
  using CancelFlag = std::shared_ptr<const std::atomic<bool>>;
  void hover(const std::string &uri, Position pos, CancelFlag cancelled,
             Callback<std::optional<Hover>> reply);
  void inlayHints(const std::string &uri, Range range,
                  Callback<std::vector<InlayHint>> reply);
  void documentSymbols(const std::string &uri,
                       Callback<std::vector<DocumentSymbol>> reply);
  void definition(const std::string &uri, Position pos,
                  Callback<std::optional<Location>> reply);
  void semanticTokens(const std::string &uri,
                      Callback<std::vector<uint32_t>> reply);
  void completion(const std::string &uri, Position pos,
                  Callback<std::vector<CompletionItem>> reply);
  void signatureHelp(const std::string &uri, Position pos,
                     Callback<std::optional<SignatureHelp>> reply);
  /// accy-format's layout as one edit, for the whole document or for the
  /// top-level items `range` touches.
  void formatting(const std::string &uri, std::optional<Range> range,
                  Callback<std::vector<TextEdit>> reply);
  /// Quick fixes of the frontend diagnostics `range` touches.
  void codeActions(const std::string &uri, Range range,
                   Callback<std::vector<CodeAction>> reply);
  /// The edit of an import quick fix offered by codeActions.
  void resolveCodeAction(const ImportFixData &data,
                         Callback<CodeAction> reply);
  /// Every use of the name at `pos`, in the files that see it.
  void references(const std::string &uri, Position pos,
                  bool includeDeclaration,
                  Callback<std::vector<Location>> reply);
  void documentHighlights(const std::string &uri, Position pos,
                          Callback<std::vector<DocumentHighlight>> reply);
  void prepareRename(const std::string &uri, Position pos,
                     Callback<PreparedRename> reply);
  /// The edits, or Failed saying why the name cannot be renamed.
  void rename(const std::string &uri, Position pos, std::string newName,
              Callback<WorkspaceEdit> reply);
  void workspaceSymbols(std::string query,
                        Callback<std::vector<SymbolInformation>> reply);
  void foldingRanges(const std::string &uri,
                     Callback<std::vector<FoldingRange>> reply);
  void selectionRanges(const std::string &uri, std::vector<Position> positions,
                       Callback<std::vector<SelectionRange>> reply);
  /// Semantic tokens with a result id; with `previousId`, as edits of the
  /// answer that had it when it is still the document's last.
  void semanticTokensDelta(const std::string &uri,
                           std::optional<std::string> previousId,
                           Callback<SemanticTokensResult> reply);
  /// Pull diagnostics: those of the current version, once compiled.
  void diagnostics(const std::string &uri, CancelFlag cancelled,
                   Callback<std::vector<Diagnostic>> reply);
  void stageOutput(const std::string &uri, std::string kernel,
                   std::string stage, CancelFlag cancelled,
                   Callback<std::string> reply);

  /// Lenses on the kernels from the current version's check (code
  /// generation may still run: the lenses say so rather than wait).
  void codeLenses(const std::string &uri, CancelFlag cancelled,
                  Callback<std::vector<CodeLens>> reply);

  struct Stats {
    std::shared_ptr<const CompileResult> compile;
    CompileCounters counters;
    std::chrono::milliseconds debounce{0};
  };
  /// The compile of the current version and the document's counters.
  void stats(const std::string &uri, CancelFlag cancelled,
             Callback<Stats> reply);

  /// The frontend analysis of the current version (built if needed); null
  /// when the document is not open.
  std::shared_ptr<const Analysis> analysis(const std::string &uri);

private:
  class Impl;
  std::unique_ptr<Impl> impl;
};

} // namespace accy::lsp

#endif // ACCY_LSP_ACCYSERVER_H
