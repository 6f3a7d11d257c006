//===- AccyServer.cpp - The language server's logic, without JSON ---------===//

#include "AccyServer.h"

#include "CodeActions.h"
#include "Completion.h"
#include "Definition.h"
#include "Diagnostics.h"
#include "DocumentSymbols.h"
#include "Formatting.h"
#include "Hover.h"
#include "InlayHints.h"
#include "Scheduler.h"
#include "SemanticTokens.h"
#include "SignatureHelp.h"
#include "StageOutput.h"
#include "Uri.h"

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
                  compilePool, callbacks, [this] { return store.getEncoding(); }) {}

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
  Scheduler scheduler; // Destroyed first: no compile outlives the rest.
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
}

std::optional<std::string>
AccyServer::changeDocument(const std::string &uri, int64_t version,
                           const std::vector<TextChange> &changes) {
  if (std::optional<std::string> error =
          impl->store.change(uri, version, changes))
    return error;
  impl->scheduler.update(impl->store.get(uri), /*immediate=*/false);
  return std::nullopt;
}

void AccyServer::closeDocument(const std::string &uri) {
  impl->store.close(uri);
  impl->scheduler.remove(uri);
}

void AccyServer::filesChanged(const std::vector<std::string> &paths) {
  impl->importSearch.invalidate();
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

void AccyServer::setWorkspaceFolders(std::vector<std::string> folders) {
  std::lock_guard<std::mutex> lock(impl->foldersMutex);
  impl->workspaceFolders = std::move(folders);
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
