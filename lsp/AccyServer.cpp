//===- AccyServer.cpp - The language server's logic, without JSON ---------===//

#include "AccyServer.h"

#include "Completion.h"
#include "Definition.h"
#include "Diagnostics.h"
#include "DocumentSymbols.h"
#include "Hover.h"
#include "InlayHints.h"
#include "SemanticTokens.h"
#include "SignatureHelp.h"
#include "StageOutput.h"
#include "Uri.h"

#include <algorithm>
#include <condition_variable>
#include <utility>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

using namespace accy;
using namespace accy::lsp;

ServerCallbacks::~ServerCallbacks() = default;

/// Everything the server keeps for one open document.
struct AccyServer::DocumentState {
  explicit DocumentState(const CompileOptions &options,
                         llvm::ThreadPoolInterface *pool)
      : compiler(options, pool) {}

  /// check() runs on the document's worker, under the server's
  /// compileSlot; generate() on the code generation thread, under
  /// codegenMutex.
  DocumentCompiler compiler;
  std::mutex codegenMutex;

  std::mutex mutex;
  std::condition_variable compiled;
  std::shared_ptr<const Analysis> analysis;
  std::shared_ptr<const CompileResult> latest;
  /// Bumped when an imported file changes: the same version compiles anew.
  uint64_t generation = 0;
  bool closed = false;
  CompileCounters counters;
};

AccyServer::AccyServer(ServerOptions options, ServerCallbacks &callbacks)
    : options(std::move(options)), callbacks(callbacks),
      compilePool(llvm::hardware_concurrency()),
      store(this->options.encoding),
      frontendPool(llvm::hardware_concurrency(2)),
      stagePool(llvm::hardware_concurrency(4)),
      codegenPool(llvm::hardware_concurrency(1)) {}

AccyServer::~AccyServer() {
  // Waiting requests give up; then the scheduler stops every compile.
  std::lock_guard<std::mutex> lock(statesMutex);
  for (auto &entry : states) {
    std::lock_guard<std::mutex> stateLock(entry.second->mutex);
    entry.second->closed = true;
    entry.second->compiled.notify_all();
  }
}

void AccyServer::setEncoding(PositionEncoding encoding) {
  store.setEncoding(encoding);
}

std::shared_ptr<AccyServer::DocumentState>
AccyServer::state(const std::string &uri) {
  std::lock_guard<std::mutex> lock(statesMutex);
  auto it = states.find(uri);
  return it == states.end() ? nullptr : it->second;
}

void AccyServer::openDocument(const std::string &uri, int64_t version,
                              std::string text) {
  std::string path = uriToPath(uri).value_or(uri);
  store.open({uri, path, version, std::move(text)});
  {
    std::lock_guard<std::mutex> lock(statesMutex);
    if (!states.count(uri))
      states[uri] =
          std::make_shared<DocumentState>(options.compile, &compilePool);
  }
  scheduleCompile(uri, /*immediate=*/true);
}

std::optional<std::string>
AccyServer::changeDocument(const std::string &uri, int64_t version,
                           const std::vector<TextChange> &changes) {
  if (std::optional<std::string> error = store.change(uri, version, changes))
    return error;
  scheduleCompile(uri, /*immediate=*/false);
  return std::nullopt;
}

void AccyServer::closeDocument(const std::string &uri) {
  store.close(uri);
  scheduler.remove(uri);
  std::shared_ptr<DocumentState> doc;
  {
    std::lock_guard<std::mutex> lock(statesMutex);
    auto it = states.find(uri);
    if (it == states.end())
      return;
    doc = it->second;
    states.erase(it);
    retainedOrder.erase(
        std::remove(retainedOrder.begin(), retainedOrder.end(), uri),
        retainedOrder.end());
  }
  std::lock_guard<std::mutex> lock(doc->mutex);
  doc->closed = true;
  doc->compiled.notify_all();
}

void AccyServer::filesChanged(const std::vector<std::string> &paths) {
  for (const auto &document : store.all()) {
    std::shared_ptr<DocumentState> doc = state(document->uri);
    if (!doc)
      continue;
    bool affected = false;
    {
      std::lock_guard<std::mutex> lock(doc->mutex);
      if (doc->latest)
        for (const std::string &dep : doc->latest->semantic().dependencies())
          affected |= std::find(paths.begin(), paths.end(), dep) != paths.end();
      // A missing import may have appeared: any change may matter then.
      if (doc->analysis)
        for (const auto &edge : doc->analysis->mainModule()
                                    ? doc->analysis->mainModule()->imports
                                    : std::vector<ImportEdge>())
          affected |= edge.target == nullptr;
      if (affected)
        ++doc->generation;
    }
    if (affected)
      scheduleCompile(document->uri, /*immediate=*/false);
  }
}

void AccyServer::scheduleCompile(const std::string &uri, bool immediate) {
  std::shared_ptr<const DocumentSnapshot> snapshot = store.get(uri);
  std::shared_ptr<DocumentState> doc = state(uri);
  if (!snapshot || !doc)
    return;
  uint64_t generation;
  {
    std::lock_guard<std::mutex> lock(doc->mutex);
    generation = doc->generation;
  }
  scheduler.schedule(
      uri,
      [this, uri, snapshot, doc,
       generation](const std::atomic<bool> &cancelled) {
        return compileJob(uri, snapshot, doc, generation, cancelled);
      },
      immediate);
}

/// Makes `result` the document's latest and returns the one it replaces,
/// for the caller to release outside the lock: freeing a version's products
/// takes a while. Holds doc.mutex.
std::shared_ptr<const CompileResult>
AccyServer::setLatest(DocumentState &doc,
                      std::shared_ptr<const CompileResult> result) {
  doc.counters.cachedProducts = doc.compiler.cachedProducts();
  std::shared_ptr<const CompileResult> replaced =
      std::exchange(doc.latest, std::move(result));
  doc.compiled.notify_all();
  return replaced;
}

/// Whether `result` is of the document's current version and generation:
/// what the client would see. Holds doc.mutex.
bool AccyServer::isCurrent(const std::string &uri, const DocumentState &doc,
                           const CompileResult &result) {
  std::shared_ptr<const DocumentSnapshot> current = store.get(uri);
  return !doc.closed && current &&
         current->version == result.document().version &&
         doc.generation == result.generation();
}

std::optional<std::chrono::duration<double>>
AccyServer::compileJob(const std::string &uri,
                       std::shared_ptr<const DocumentSnapshot> snapshot,
                       std::shared_ptr<DocumentState> doc,
                       uint64_t generation,
                       const std::atomic<bool> &cancelled) {
  std::lock_guard<std::mutex> slot(compileSlot);
  if (cancelled.load())
    return std::nullopt;
  {
    std::lock_guard<std::mutex> lock(doc->mutex);
    ++doc->counters.started;
  }
  auto start = std::chrono::steady_clock::now();
  uint64_t compile = nextCompile++;
  callbacks.compileStarted(uri, snapshot->version, compile);
  std::shared_ptr<const CompileResult> checked = doc->compiler.check(
      *snapshot, generation, cancelled,
      [&](StageId stage) { callbacks.stageStarted(compile, stage); });
  if (!checked) {
    callbacks.compileEnded(compile, /*cancelled=*/true);
    std::lock_guard<std::mutex> lock(doc->mutex);
    ++doc->counters.cancelled;
    return std::nullopt;
  }
  // Other documents release their products before anyone hears of this
  // compile, so what the client asks next sees the state after it.
  retain(uri);
  std::shared_ptr<const CompileResult> replaced;
  {
    std::lock_guard<std::mutex> lock(doc->mutex);
    ++doc->counters.finished;
    replaced = setLatest(*doc, checked);
    // Never publish for a version the client has already replaced.
    if (!cancelled.load() && isCurrent(uri, *doc, *checked))
      callbacks.publishDiagnostics(uri, snapshot->version,
                                   collectDiagnostics(*checked, encoding()));
  }
  std::chrono::duration<double> toDiagnostics =
      std::chrono::steady_clock::now() - start;
  replaced.reset(); // the older version's products, once the diagnostics are out
  if (checked->complete()) {
    callbacks.compileEnded(compile, /*cancelled=*/false);
    return toDiagnostics;
  }
  if (options.backgroundCodegen)
    codegenPool.async([this, uri, doc, checked, compile] {
      generateJob(uri, *doc, checked, compile);
    });
  else
    generateJob(uri, *doc, checked, compile);
  return toDiagnostics;
}

void AccyServer::generateJob(const std::string &uri, DocumentState &doc,
                             std::shared_ptr<const CompileResult> checked,
                             uint64_t compile) {
  std::lock_guard<std::mutex> codegen(doc.codegenMutex);
  // Whether the latest result is still of `checked`'s version and
  // generation (perhaps released since). Holds doc.mutex.
  auto stillLatest = [&] {
    return doc.latest->document().version == checked->document().version &&
           doc.latest->generation() == checked->generation();
  };
  bool superseded;
  {
    std::lock_guard<std::mutex> lock(doc.mutex);
    // Released since (retain): the compiler has a fresh context, and
    // `checked`'s products live in the old one.
    superseded =
        doc.closed || !stillLatest() || !doc.latest->retainsProducts();
  }
  if (superseded) {
    callbacks.compileEnded(compile, /*cancelled=*/true);
    return;
  }
  callbacks.stageStarted(compile, StageId::Target);
  std::shared_ptr<const CompileResult> result = doc.compiler.generate(*checked);
  callbacks.compileEnded(compile, /*cancelled=*/false);
  std::lock_guard<std::mutex> lock(doc.mutex);
  // Releasing waits for codegenMutex, so the products are still retained.
  if (!stillLatest())
    return;
  setLatest(doc, result); // replaces `checked`, whose products it shares
  // The target stage adds diagnostics only when it fails.
  if (!result->record(StageId::Target).failures.empty() &&
      isCurrent(uri, doc, *result))
    callbacks.publishDiagnostics(uri, result->document().version,
                                 collectDiagnostics(*result, encoding()));
}

void AccyServer::retain(const std::string &uri) {
  std::vector<std::shared_ptr<DocumentState>> released;
  {
    std::lock_guard<std::mutex> lock(statesMutex);
    retainedOrder.erase(
        std::remove(retainedOrder.begin(), retainedOrder.end(), uri),
        retainedOrder.end());
    retainedOrder.insert(retainedOrder.begin(), uri);
    while (retainedOrder.size() > std::max(1u, options.retainedDocuments)) {
      auto it = states.find(retainedOrder.back());
      if (it != states.end())
        released.push_back(it->second);
      retainedOrder.pop_back();
    }
  }
  // No other compile runs (this one holds the slot), so no cache is in use.
  for (const std::shared_ptr<DocumentState> &doc : released) {
    std::lock_guard<std::mutex> codegen(doc->codegenMutex);
    doc->compiler.releaseProducts();
    std::lock_guard<std::mutex> lock(doc->mutex);
    doc->counters.cachedProducts = 0;
    if (doc->latest)
      doc->latest = doc->latest->withoutProducts();
  }
#if defined(__GLIBC__)
  // Hand the released products' pages back, so the next compile does not
  // grow the process from a higher base.
  if (!released.empty())
    malloc_trim(0);
#endif
}

std::shared_ptr<const Analysis> AccyServer::analysis(const std::string &uri) {
  std::shared_ptr<const DocumentSnapshot> snapshot = store.get(uri);
  std::shared_ptr<DocumentState> doc = state(uri);
  if (!snapshot || !doc)
    return nullptr;
  uint64_t generation;
  {
    std::lock_guard<std::mutex> lock(doc->mutex);
    if (doc->analysis && doc->analysis->document().version == snapshot->version &&
        doc->analysis->generation() == doc->generation &&
        doc->analysis->encoding() == encoding())
      return doc->analysis;
    generation = doc->generation;
  }
  std::shared_ptr<const Analysis> fresh = Analysis::build(
      *snapshot, options.compile.includeDirs, encoding(), generation);
  std::lock_guard<std::mutex> lock(doc->mutex);
  if (!doc->analysis ||
      doc->analysis->document().version <= snapshot->version)
    doc->analysis = fresh;
  return fresh;
}

std::shared_ptr<const CompileResult>
AccyServer::waitForCompile(const std::string &uri, const CancelFlag &cancelled,
                           bool complete) {
  std::shared_ptr<const DocumentSnapshot> snapshot = store.get(uri);
  std::shared_ptr<DocumentState> doc = state(uri);
  if (!snapshot || !doc)
    return nullptr;
  std::unique_lock<std::mutex> lock(doc->mutex);
  uint64_t generation = doc->generation;
  auto ready = [&] {
    return doc->closed || (cancelled && cancelled->load()) ||
           (doc->latest && doc->latest->document().version >= snapshot->version &&
            doc->latest->generation() >= generation &&
            (!complete || doc->latest->complete()));
  };
  // Cancellation is a flag, not a notification: look at it now and then.
  while (!doc->compiled.wait_for(lock, std::chrono::milliseconds(20), ready)) {
  }
  if (doc->closed || (cancelled && cancelled->load()))
    return nullptr;
  return doc->latest;
}

std::shared_ptr<const CompileResult>
AccyServer::waitForProducts(const std::string &uri, const CancelFlag &cancelled,
                            bool complete) {
  std::shared_ptr<const CompileResult> compiled =
      waitForCompile(uri, cancelled, complete);
  if (!compiled || compiled->retainsProducts())
    return compiled;
  std::shared_ptr<DocumentState> doc = state(uri);
  if (!doc)
    return nullptr;
  {
    // A new generation: the wait below is for a compile after this one.
    std::lock_guard<std::mutex> lock(doc->mutex);
    ++doc->generation;
  }
  scheduleCompile(uri, /*immediate=*/true);
  return waitForCompile(uri, cancelled, complete);
}

void AccyServer::onFrontendPool(std::function<void()> work) {
  frontendPool.async(std::move(work));
}

void AccyServer::onStagePool(std::function<void()> work) {
  stagePool.async(std::move(work));
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
void AccyServer::withAnalysis(const std::string &uri, Callback<T> reply,
                              F &&compute) {
  onFrontendPool([this, uri, reply = std::move(reply),
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
  onFrontendPool([this, uri, pos, cancelled, reply = std::move(reply)] {
    std::shared_ptr<const Analysis> a = analysis(uri);
    if (!a)
      return reply(notOpen(uri));
    HoverNeed need = hoverNeed(*a, pos);
    if (need == HoverNeed::Nothing || need == HoverNeed::Frontend)
      return reply(findHover(*a, nullptr, pos));
    // Only these hovers wait, and not on the frontend's pool.
    onStagePool([this, uri, a, pos, need, cancelled, reply] {
      // The stage table shows a target stage still generating code as
      // such rather than waiting for it.
      std::shared_ptr<const CompileResult> compiled =
          need == HoverNeed::StageProducts
              ? waitForProducts(uri, cancelled, /*complete=*/false)
              : waitForCompile(uri, cancelled, /*complete=*/false);
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
  withAnalysis(uri, std::move(reply), [range](const Analysis &a) {
    return findInlayHints(a, range);
  });
}

void AccyServer::documentSymbols(const std::string &uri,
                                 Callback<std::vector<DocumentSymbol>> reply) {
  withAnalysis(uri, std::move(reply),
               [](const Analysis &a) { return findDocumentSymbols(a); });
}

void AccyServer::definition(const std::string &uri, Position pos,
                            Callback<std::optional<Location>> reply) {
  withAnalysis(uri, std::move(reply),
               [pos](const Analysis &a) { return findDefinition(a, pos); });
}

void AccyServer::semanticTokens(const std::string &uri,
                                Callback<std::vector<uint32_t>> reply) {
  withAnalysis(uri, std::move(reply),
               [](const Analysis &a) { return findSemanticTokens(a); });
}

void AccyServer::completion(const std::string &uri, Position pos,
                            Callback<std::vector<CompletionItem>> reply) {
  withAnalysis(uri, std::move(reply),
               [pos](const Analysis &a) { return findCompletions(a, pos); });
}

void AccyServer::signatureHelp(const std::string &uri, Position pos,
                               Callback<std::optional<SignatureHelp>> reply) {
  withAnalysis(uri, std::move(reply),
               [pos](const Analysis &a) { return findSignatureHelp(a, pos); });
}

template <typename T, typename F>
void AccyServer::withCompile(const std::string &uri, CancelFlag cancelled,
                             bool needsProducts, bool complete,
                             Callback<T> reply, F &&compute) {
  onStagePool([this, uri, cancelled, needsProducts, complete,
               reply = std::move(reply), compute = std::forward<F>(compute)] {
    std::shared_ptr<const CompileResult> compiled =
        needsProducts ? waitForProducts(uri, cancelled, complete)
                      : waitForCompile(uri, cancelled, complete);
    if (!compiled)
      return reply(waitFailed(cancelled, uri));
    reply(compute(*compiled));
  });
}

void AccyServer::diagnostics(const std::string &uri, CancelFlag cancelled,
                             Callback<std::vector<lsp::Diagnostic>> reply) {
  withCompile(uri, cancelled, /*needsProducts=*/false, /*complete=*/true,
              std::move(reply), [this](const CompileResult &compiled) {
                return collectDiagnostics(compiled, encoding());
              });
}

void AccyServer::stageOutput(const std::string &uri, std::string kernel,
                             std::string stage, CancelFlag cancelled,
                             Callback<std::string> reply) {
  bool target = stage == stageName(StageId::Target);
  withCompile(uri, cancelled, /*needsProducts=*/true, /*complete=*/target,
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
  withCompile(uri, cancelled, /*needsProducts=*/false, /*complete=*/true,
              std::move(reply),
              [this, uri](const CompileResult &compiled) -> Outcome<Stats> {
                std::shared_ptr<DocumentState> doc = state(uri);
                if (!doc)
                  return notOpen(uri);
                Stats stats;
                stats.compile = compiled.shared_from_this();
                stats.debounce = scheduler.debounceOf(uri);
                std::lock_guard<std::mutex> lock(doc->mutex);
                stats.counters = doc->counters;
                return stats;
              });
}
