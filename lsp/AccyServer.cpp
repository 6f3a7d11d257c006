//===- AccyServer.cpp - The language server's logic, without JSON ---------===//

#include "AccyServer.h"

#include "CodeActions.h"
#include "CodeLens.h"
#include "Completion.h"
#include "Definition.h"
#include "Diagnostics.h"
#include "DocumentSymbols.h"
#include "FoldingRanges.h"
#include "Formatting.h"
#include "Hover.h"
#include "InlayHints.h"
#include "References.h"
#include "Rename.h"
#include "Scheduler.h"
#include "SelectionRanges.h"
#include "SemanticTokens.h"
#include "SignatureHelp.h"
#include "StageOutput.h"
#include "Uri.h"
#include "WorkspaceIndex.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ThreadPool.h"

#include <algorithm>
#include <mutex>

using namespace accy;
using namespace accy::lsp;

ServerCallbacks::~ServerCallbacks() = default;

class AccyServer::Impl {
public:
  Impl(ServerOptions options, ServerCallbacks &callbacks)
      : options(std::move(options)),
        compilePool(llvm::hardware_concurrency()),
        store(this->options.encoding),
        frontendPool(llvm::hardware_concurrency(2)),
        stagePool(llvm::hardware_concurrency(4)),
        scheduler(this->options.compile, this->options.retainedDocuments,
                  compilePool, callbacks, [this] { return store.getEncoding(); }),
        workspaceIndex(scheduler, this->options.compile.includeDirs,
                       indexHooks(callbacks)) {}

  /// Answers `reply` with `compute(analysis)` on the frontend pool.
  template <typename T, typename F>
  void withAnalysis(const std::string &uri, Callback<T> reply, F &&compute);
  /// Answers `reply` with `compute(result)` once the current version is
  /// checked (`complete`: its code generated too; `products`: holding its
  /// products), on the stage pool.
  template <typename T, typename F>
  void withCompile(const std::string &uri, AccyServer::CancelFlag cancelled,
                   bool products, bool complete, Callback<T> reply,
                   F &&compute);
  std::shared_ptr<const Analysis> analysis(const std::string &uri);
  /// Other files, for searches across files.
  Workspace workspace();
  WorkspaceIndex::Hooks indexHooks(ServerCallbacks &callbacks);
  /// The open document at a symbol path, if any.
  std::shared_ptr<const DocumentSnapshot> openAt(const std::string &path);
  std::shared_ptr<const CompileResult>
  waitForResult(const std::string &uri, const AccyServer::CancelFlag &cancelled,
                bool complete, bool products);

  ServerOptions options;
  ImportSearch importSearch;
  std::mutex foldersMutex;
  std::vector<std::string> workspaceFolders;
  /// Kernels of one stage compile in parallel here; destroyed last, after
  /// every MLIR context that uses it.
  llvm::StdThreadPool compilePool;
  DocumentStore store;
  llvm::StdThreadPool frontendPool;
  llvm::StdThreadPool stagePool;
  Scheduler scheduler; // No compile outlives the rest.
  SemanticTokensHistory tokenHistory;
  WorkspaceIndex workspaceIndex; // Destroyed first: it takes the slot.
};

AccyServer::AccyServer(ServerOptions options, ServerCallbacks &callbacks)
    : impl(std::make_unique<Impl>(std::move(options), callbacks)) {}

AccyServer::~AccyServer() = default;

void AccyServer::setEncoding(PositionEncoding encoding) {
  impl->store.setEncoding(encoding);
}

PositionEncoding AccyServer::encoding() const {
  return impl->store.getEncoding();
}

void AccyServer::openDocument(const std::string &uri, int64_t version,
                              std::string text) {
  std::string path = uriToPath(uri).value_or(uri);
  impl->store.open({uri, path, version, std::move(text)});
  impl->scheduler.update(impl->store.get(uri), /*immediate=*/true);
  impl->workspaceIndex.fileChanged(path);
}

std::optional<std::string>
AccyServer::changeDocument(const std::string &uri, int64_t version,
                           const std::vector<TextChange> &changes) {
  if (std::optional<std::string> error =
          impl->store.change(uri, version, changes))
    return error;
  std::shared_ptr<const DocumentSnapshot> snapshot = impl->store.get(uri);
  impl->scheduler.update(snapshot, /*immediate=*/false);
  impl->workspaceIndex.fileChanged(snapshot->path);
  return std::nullopt;
}

void AccyServer::closeDocument(const std::string &uri) {
  std::shared_ptr<const DocumentSnapshot> snapshot = impl->store.get(uri);
  impl->store.close(uri);
  impl->scheduler.remove(uri);
  impl->tokenHistory.forget(uri);
  // Back to the disk's text.
  if (snapshot)
    impl->workspaceIndex.fileChanged(snapshot->path);
}

void AccyServer::changeWorkspaceFolders(
    std::vector<std::string> added, const std::vector<std::string> &removed) {
  {
    // The folders the import quick fix searches.
    std::lock_guard<std::mutex> lock(impl->foldersMutex);
    std::vector<std::string> &folders = impl->workspaceFolders;
    llvm::erase_if(folders, [&](const std::string &folder) {
      return llvm::is_contained(removed, folder);
    });
    folders.insert(folders.end(), added.begin(), added.end());
  }
  impl->importSearch.invalidate();
  impl->workspaceIndex.removeFolders(removed);
  if (!added.empty())
    impl->workspaceIndex.addFolders(std::move(added), encoding());
}

void AccyServer::filesChanged(const std::vector<std::string> &paths) {
  impl->importSearch.invalidate();
  for (const std::string &path : paths)
    impl->workspaceIndex.fileChanged(path);
  for (const std::shared_ptr<DocumentWorker> &worker :
       impl->scheduler.workers()) {
    bool affected = false;
    if (std::shared_ptr<const CompileResult> latest = worker->latestResult())
      for (const std::string &dep : latest->compilation().dependencies())
        affected |= std::find(paths.begin(), paths.end(), dep) != paths.end();
    // A missing import may have appeared: any change may matter then.
    if (std::shared_ptr<const Analysis> analysis = worker->cachedAnalysis())
      if (const SourceModule *module = analysis->mainModule())
        for (const ImportEdge &edge : module->imports)
          affected |= edge.target == nullptr;
    if (affected)
      worker->recompile(/*immediate=*/false);
  }
}

std::shared_ptr<const Analysis>
AccyServer::Impl::analysis(const std::string &uri) {
  std::shared_ptr<DocumentWorker> worker = scheduler.worker(uri);
  return worker ? worker->analysis(store.getEncoding()) : nullptr;
}

std::shared_ptr<const Analysis> AccyServer::analysis(const std::string &uri) {
  return impl->analysis(uri);
}

std::shared_ptr<const CompileResult>
AccyServer::Impl::waitForResult(const std::string &uri,
                                const AccyServer::CancelFlag &cancelled,
                                bool complete, bool products) {
  std::shared_ptr<DocumentWorker> worker = scheduler.worker(uri);
  return worker ? worker->waitForResult(complete, products, cancelled)
                : nullptr;
}

std::shared_ptr<const DocumentSnapshot>
AccyServer::Impl::openAt(const std::string &path) {
  for (std::shared_ptr<const DocumentSnapshot> &document : store.all())
    if (symbolPath(document->path) == path)
      return document;
  return nullptr;
}

Workspace AccyServer::Impl::workspace() {
  Workspace workspace;
  workspace.analysisOf =
      [this](const std::string &path) -> std::shared_ptr<const Analysis> {
    if (std::shared_ptr<const DocumentSnapshot> open = openAt(path))
      return analysis(open->uri);
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer)
      return nullptr;
    DocumentSnapshot onDisk{pathToUri(path), path, 0,
                            (*buffer)->getBuffer().str()};
    return Analysis::build(onDisk, options.compile.includeDirs,
                           store.getEncoding(), 0);
  };
  workspace.importersOf = [this](const std::string &path) {
    return workspaceIndex.importersOf(path);
  };
  return workspace;
}

WorkspaceIndex::Hooks
AccyServer::Impl::indexHooks(ServerCallbacks &callbacks) {
  WorkspaceIndex::Hooks hooks;
  hooks.openText = [this](const std::string &path) -> std::optional<std::string> {
    if (std::shared_ptr<const DocumentSnapshot> open = openAt(path))
      return open->text;
    return std::nullopt;
  };
  hooks.scanStarted = [&callbacks](size_t files) {
    callbacks.workspaceScanStarted(files);
  };
  hooks.scanEnded = [&callbacks](size_t files, double seconds) {
    callbacks.workspaceScanEnded(files, seconds);
  };
  return hooks;
}

static ServerError notOpen(const std::string &uri) {
  return {ServerError::Kind::NotOpen, "document not open: " + uri};
}

static ServerError waitFailed(const AccyServer::CancelFlag &cancelled,
                              const std::string &uri) {
  if (cancelled && cancelled->load())
    return {ServerError::Kind::Cancelled, "request cancelled"};
  return {ServerError::Kind::NotOpen, "document closed: " + uri};
}

template <typename T, typename F>
void AccyServer::Impl::withAnalysis(const std::string &uri, Callback<T> reply,
                                    F &&compute) {
  frontendPool.async([this, uri, reply = std::move(reply),
                      compute = std::forward<F>(compute)] {
    std::shared_ptr<const Analysis> a = analysis(uri);
    if (!a)
      return reply(notOpen(uri));
    reply(compute(*a));
  });
}

void AccyServer::hover(const std::string &uri, Position pos,
                       CancelFlag cancelled,
                       Callback<std::optional<Hover>> reply) {
  Impl &server = *impl;
  server.frontendPool.async([&server, uri, pos, cancelled,
                             reply = std::move(reply)] {
    std::shared_ptr<const Analysis> a = server.analysis(uri);
    if (!a)
      return reply(notOpen(uri));
    HoverNeed need = hoverNeed(*a, pos);
    if (need == HoverNeed::Nothing || need == HoverNeed::Frontend)
      return reply(findHover(*a, nullptr, pos));
    // Only these hovers wait, and not on the frontend's pool.
    server.stagePool.async([&server, uri, a, pos, need, cancelled, reply] {
      // The stage table shows a target stage still generating code as
      // such rather than waiting for it.
      std::shared_ptr<const CompileResult> compiled = server.waitForResult(
          uri, cancelled, /*complete=*/false,
          /*products=*/need == HoverNeed::StageProducts);
      if (!compiled)
        return reply(waitFailed(cancelled, uri));
      bool sameVersion =
          compiled->document().version == a->document().version &&
          compiled->document().text == a->document().text;
      reply(findHover(*a, sameVersion ? compiled.get() : nullptr, pos));
    });
  });
}

void AccyServer::codeLenses(const std::string &uri, CancelFlag cancelled,
                            Callback<std::vector<CodeLens>> reply) {
  Impl &server = *impl;
  server.stagePool.async([&server, uri, cancelled, reply = std::move(reply)] {
    std::shared_ptr<const CompileResult> compiled = server.waitForResult(
        uri, cancelled, /*complete=*/false, /*products=*/false);
    if (!compiled)
      return reply(waitFailed(cancelled, uri));
    std::shared_ptr<const Analysis> a = server.analysis(uri);
    if (!a)
      return reply(notOpen(uri));
    reply(findCodeLenses(*a, compiled.get()));
  });
}

void AccyServer::inlayHints(const std::string &uri, Range range,
                            Callback<std::vector<InlayHint>> reply) {
  impl->withAnalysis(uri, std::move(reply), [range](const Analysis &a) {
    return findInlayHints(a, range);
  });
}

void AccyServer::documentSymbols(const std::string &uri,
                                 Callback<std::vector<DocumentSymbol>> reply) {
  impl->withAnalysis(uri, std::move(reply),
               [](const Analysis &a) { return findDocumentSymbols(a); });
}

void AccyServer::definition(const std::string &uri, Position pos,
                            Callback<std::optional<Location>> reply) {
  impl->withAnalysis(uri, std::move(reply),
               [pos](const Analysis &a) { return findDefinition(a, pos); });
}

void AccyServer::semanticTokens(const std::string &uri,
                                Callback<std::vector<uint32_t>> reply) {
  impl->withAnalysis(uri, std::move(reply),
               [](const Analysis &a) { return findSemanticTokens(a); });
}

void AccyServer::references(const std::string &uri, Position pos,
                            bool includeDeclaration,
                            Callback<std::vector<Location>> reply) {
  Impl &server = *impl;
  server.frontendPool.async([&server, uri, pos, includeDeclaration,
                             reply = std::move(reply)] {
    std::shared_ptr<const Analysis> a = server.analysis(uri);
    if (!a)
      return reply(notOpen(uri));
    reply(findReferences(a, pos, includeDeclaration, server.workspace()));
  });
}

void AccyServer::documentHighlights(
    const std::string &uri, Position pos,
    Callback<std::vector<DocumentHighlight>> reply) {
  impl->withAnalysis(uri, std::move(reply), [pos](const Analysis &a) {
    return findDocumentHighlights(a, pos);
  });
}

void AccyServer::prepareRename(const std::string &uri, Position pos,
                               Callback<PreparedRename> reply) {
  impl->withAnalysis(
      uri, std::move(reply), [pos](const Analysis &a) -> Outcome<PreparedRename> {
        llvm::Expected<PreparedRename> prepared = lsp::prepareRename(a, pos);
        if (!prepared)
          return ServerError{ServerError::Kind::Failed,
                             llvm::toString(prepared.takeError())};
        return std::move(*prepared);
      });
}

void AccyServer::rename(const std::string &uri, Position pos,
                        std::string newName, Callback<WorkspaceEdit> reply) {
  Impl &server = *impl;
  server.frontendPool.async([&server, uri, pos, newName = std::move(newName),
                             reply = std::move(reply)] {
    std::shared_ptr<const Analysis> a = server.analysis(uri);
    if (!a)
      return reply(notOpen(uri));
    llvm::Expected<WorkspaceEdit> edit =
        renameSymbol(a, pos, newName, server.workspace());
    if (!edit)
      return reply(ServerError{ServerError::Kind::Failed,
                               llvm::toString(edit.takeError())});
    reply(std::move(*edit));
  });
}

void AccyServer::workspaceSymbols(
    std::string query, Callback<std::vector<SymbolInformation>> reply) {
  // Reads only the index: answered on the caller's thread.
  reply(impl->workspaceIndex.symbols(query, /*limit=*/1000));
}

void AccyServer::foldingRanges(const std::string &uri,
                               Callback<std::vector<FoldingRange>> reply) {
  impl->withAnalysis(uri, std::move(reply),
                     [](const Analysis &a) { return findFoldingRanges(a); });
}

void AccyServer::selectionRanges(const std::string &uri,
                                 std::vector<Position> positions,
                                 Callback<std::vector<SelectionRange>> reply) {
  impl->withAnalysis(uri, std::move(reply),
                     [positions = std::move(positions)](const Analysis &a) {
                       return findSelectionRanges(a, positions);
                     });
}

void AccyServer::semanticTokensDelta(const std::string &uri,
                                     std::optional<std::string> previousId,
                                     Callback<SemanticTokensResult> reply) {
  impl->withAnalysis(uri, std::move(reply),
                     [this, uri, previousId](const Analysis &a) {
                       return impl->tokenHistory.record(uri, previousId,
                                                        findSemanticTokens(a));
                     });
}

void AccyServer::completion(const std::string &uri, Position pos,
                            Callback<std::vector<CompletionItem>> reply) {
  impl->withAnalysis(uri, std::move(reply),
               [pos](const Analysis &a) { return findCompletions(a, pos); });
}

void AccyServer::signatureHelp(const std::string &uri, Position pos,
                               Callback<std::optional<SignatureHelp>> reply) {
  impl->withAnalysis(uri, std::move(reply),
               [pos](const Analysis &a) { return findSignatureHelp(a, pos); });
}

void AccyServer::formatting(const std::string &uri, std::optional<Range> range,
                            Callback<std::vector<TextEdit>> reply) {
  impl->withAnalysis(uri, std::move(reply), [range](const Analysis &a) {
    return findFormattingEdits(a, range);
  });
}

void AccyServer::codeActions(const std::string &uri, Range range,
                             Callback<std::vector<CodeAction>> reply) {
  std::vector<std::string> folders;
  {
    std::lock_guard<std::mutex> lock(impl->foldersMutex);
    folders = impl->workspaceFolders;
  }
  impl->withAnalysis(uri, std::move(reply),
                     [this, range, folders](const Analysis &a) {
                       return findCodeActions(a, range, folders,
                                              impl->importSearch);
                     });
}

void AccyServer::resolveCodeAction(const ImportFixData &data,
                                   Callback<CodeAction> reply) {
  impl->withAnalysis(
      data.uri, std::move(reply),
      [data](const Analysis &a) -> Outcome<CodeAction> {
        if (std::optional<CodeAction> action = resolveImportFix(a, data))
          return std::move(*action);
        return ServerError{ServerError::Kind::InvalidArgument,
                           "'" + data.name + "' is no longer unknown in " +
                               data.uri};
      });
}

template <typename T, typename F>
void AccyServer::Impl::withCompile(const std::string &uri,
                                   AccyServer::CancelFlag cancelled,
                                   bool products, bool complete,
                                   Callback<T> reply, F &&compute) {
  stagePool.async([this, uri, cancelled, products, complete,
                   reply = std::move(reply), compute = std::forward<F>(compute)] {
    std::shared_ptr<const CompileResult> compiled =
        waitForResult(uri, cancelled, complete, products);
    if (!compiled)
      return reply(waitFailed(cancelled, uri));
    reply(compute(*compiled));
  });
}

void AccyServer::diagnostics(const std::string &uri, CancelFlag cancelled,
                             Callback<std::vector<lsp::Diagnostic>> reply) {
  impl->withCompile(uri, cancelled, /*products=*/false, /*complete=*/true,
                    std::move(reply), [this](const CompileResult &compiled) {
                      return collectDiagnostics(compiled, encoding());
                    });
}

void AccyServer::stageOutput(const std::string &uri, std::string kernel,
                             std::string stage, CancelFlag cancelled,
                             Callback<std::string> reply) {
  bool target = stage == stageName(StageId::Target);
  impl->withCompile(uri, cancelled, /*products=*/true, /*complete=*/target,
              std::move(reply),
              [kernel, stage](const CompileResult &compiled) -> Outcome<std::string> {
                llvm::Expected<std::string> text =
                    findStageOutput(compiled, kernel, stage);
                if (!text)
                  return ServerError{ServerError::Kind::InvalidArgument,
                                     llvm::toString(text.takeError())};
                return std::move(*text);
              });
}

void AccyServer::stats(const std::string &uri, CancelFlag cancelled,
                       Callback<Stats> reply) {
  impl->withCompile(
      uri, cancelled, /*products=*/false, /*complete=*/true, std::move(reply),
      [this, uri](const CompileResult &compiled) -> Outcome<Stats> {
        std::shared_ptr<DocumentWorker> worker = impl->scheduler.worker(uri);
        if (!worker)
          return notOpen(uri);
        Stats stats;
        stats.compile = compiled.shared_from_this();
        stats.debounce = worker->debounce();
        stats.counters = worker->counters();
        return stats;
      });
}
