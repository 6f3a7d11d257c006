//===- AccyServer.h - The language server's logic, without JSON -*- C++ -*-===//
//
// Like clangd's ClangdServer: owns the open documents, their compilers and
// the scheduler, and answers feature requests with plain values through
// callbacks. It never sees JSON, so it can be driven without a protocol
// (accy-lsp --check does).
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
#include "Scheduler.h"

#include "llvm/Support/ThreadPool.h"

#include <atomic>
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
  /// for reuse, most recently compiled first; like clangd's retained ASTs.
  /// The others keep their diagnostics and stage records; their next
  /// compile builds every kernel again.
  unsigned retainedDocuments = 3;
  /// Whether the target stage runs on a thread of its own, so that the
  /// next edit's check need not wait for it. With two cores it would only
  /// take CPU from that check: code generation then runs on the worker,
  /// after the diagnostics are published.
  bool backgroundCodegen =
      llvm::hardware_concurrency().compute_thread_count() > 2;
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

/// What the server tells its embedder, from worker threads.
class ServerCallbacks {
public:
  virtual ~ServerCallbacks();
  /// The diagnostics of `version`, sent only while it is the document's
  /// current version.
  virtual void publishDiagnostics(const std::string &uri, int64_t version,
                                  std::vector<Diagnostic> diagnostics) = 0;
  /// A compile of the document starts, reaches a stage, and ends; `compile`
  /// tells it from the others, since one version's code generation may
  /// still run when the next version's compile starts.
  virtual void compileStarted(const std::string &uri, int64_t version,
                              uint64_t compile) {}
  virtual void stageStarted(uint64_t compile, StageId stage) {}
  virtual void compileEnded(uint64_t compile, bool cancelled) {}
};

/// Counters of a document's compiles, for accy/stats.
struct CompileCounters {
  uint64_t started = 0, cancelled = 0, finished = 0;
  /// Kernel products held for reuse after the last compile.
  size_t cachedProducts = 0;
};

class AccyServer {
public:
  AccyServer(ServerOptions options, ServerCallbacks &callbacks);
  ~AccyServer();

  void setEncoding(PositionEncoding encoding);
  PositionEncoding encoding() const { return store.getEncoding(); }

  void openDocument(const std::string &uri, int64_t version, std::string text);
  /// An error message when the document is not open.
  std::optional<std::string>
  changeDocument(const std::string &uri, int64_t version,
                 const std::vector<TextChange> &changes);
  void closeDocument(const std::string &uri);
  /// Files changed on disk: documents that import one are compiled again.
  void filesChanged(const std::vector<std::string> &paths);

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
  /// Pull diagnostics: those of the current version, once compiled.
  void diagnostics(const std::string &uri, CancelFlag cancelled,
                   Callback<std::vector<Diagnostic>> reply);
  void stageOutput(const std::string &uri, std::string kernel,
                   std::string stage, CancelFlag cancelled,
                   Callback<std::string> reply);

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
  /// Blocks until the compile of the current version (or a later one) has
  /// checked the program (`complete`: has also generated code); null when
  /// the document closed or `cancelled` was set.
  std::shared_ptr<const CompileResult> waitForCompile(const std::string &uri,
                                                      const CancelFlag &cancelled,
                                                      bool complete);
  /// The same, with the products after `semantic`: a document whose
  /// products were released is compiled again first.
  std::shared_ptr<const CompileResult>
  waitForProducts(const std::string &uri, const CancelFlag &cancelled,
                  bool complete);

private:
  struct DocumentState;
  std::shared_ptr<DocumentState> state(const std::string &uri);
  void scheduleCompile(const std::string &uri, bool immediate);
  /// Runs `work` for a frontend-only request.
  void onFrontendPool(std::function<void()> work);
  /// Runs `work` for a request that waits for the stages.
  void onStagePool(std::function<void()> work);
  /// Answers `reply` with `compute(analysis)` on the frontend pool.
  template <typename T, typename F>
  void withAnalysis(const std::string &uri, Callback<T> reply, F &&compute);
  /// Answers `reply` with `compute(compile)` once the current version has
  /// compiled (`complete`: including the target stage), on the stage pool.
  template <typename T, typename F>
  void withCompile(const std::string &uri, CancelFlag cancelled,
                   bool needsProducts, bool complete, Callback<T> reply,
                   F &&compute);
  /// Runs one compile job of a document (on its worker): checks the
  /// program, publishes its diagnostics and queues code generation.
  /// Returns the time to the diagnostics, for the debounce.
  std::optional<std::chrono::duration<double>>
  compileJob(const std::string &uri,
             std::shared_ptr<const DocumentSnapshot> snapshot,
             std::shared_ptr<DocumentState> doc, uint64_t generation,
             const std::atomic<bool> &cancelled);
  /// Generates code for `checked` (on the code generation thread), unless
  /// a newer version was checked meanwhile.
  void generateJob(const std::string &uri, DocumentState &doc,
                   std::shared_ptr<const CompileResult> checked,
                   uint64_t compile);
  std::shared_ptr<const CompileResult>
  setLatest(DocumentState &doc, std::shared_ptr<const CompileResult> result);
  bool isCurrent(const std::string &uri, const DocumentState &doc,
                 const CompileResult &result);
  /// Marks `uri` most recently compiled and releases the products of the
  /// documents beyond options.retainedDocuments. Holds compileSlot.
  void retain(const std::string &uri);

  ServerOptions options;
  ServerCallbacks &callbacks;
  /// Kernels of one stage compile in parallel here; destroyed last, after
  /// every MLIR context that uses it.
  llvm::StdThreadPool compilePool;
  DocumentStore store;
  std::mutex statesMutex;
  std::map<std::string, std::shared_ptr<DocumentState>> states;
  /// One check at a time: a check already uses every core (the kernels
  /// of a stage compile in parallel), and the products of two compiles at
  /// once would add to the peak memory. Code generation runs beside it.
  std::mutex compileSlot;
  /// Documents holding products, most recently compiled first.
  std::vector<std::string> retainedOrder;
  llvm::StdThreadPool frontendPool;
  llvm::StdThreadPool stagePool;
  /// One thread: the target stage of one document at a time.
  llvm::StdThreadPool codegenPool;
  std::atomic<uint64_t> nextCompile{0};
  Scheduler scheduler; // Destroyed first: no compile outlives the rest.
};

} // namespace accy::lsp

#endif // ACCY_LSP_ACCYSERVER_H
