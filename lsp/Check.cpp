//===- Check.cpp - accy-lsp --check FILE ----------------------------------===//

#include "Check.h"

#include "AstLookup.h"
#include "Uri.h"

#include "accy/Frontend/ASTWalk.h"
#include "accy/Pipeline/Hashing.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <future>

using namespace accy;
using namespace accy::lsp;

namespace {

/// Collects what the server publishes.
class CheckCallbacks : public ServerCallbacks {
public:
  void publishDiagnostics(const std::string &, int64_t,
                          std::vector<lsp::Diagnostic> diagnostics) override {
    std::lock_guard<std::mutex> lock(mutex);
    published = std::move(diagnostics);
  }
  std::mutex mutex;
  std::vector<lsp::Diagnostic> published;
};

/// Runs one asynchronous feature and waits for its answer.
template <typename T, typename Start> Outcome<T> await(Start start) {
  std::promise<Outcome<T>> promise;
  std::future<Outcome<T>> future = promise.get_future();
  start([&promise](Outcome<T> outcome) { promise.set_value(std::move(outcome)); });
  return future.get();
}

std::string describe(Position p) {
  return std::to_string(p.line + 1) + ":" + std::to_string(p.character + 1);
}

} // namespace

int accy::lsp::runCheck(const std::string &file, ServerOptions options) {
  llvm::SmallString<256> absolute(file);
  llvm::sys::fs::make_absolute(absolute);
  llvm::sys::path::remove_dots(absolute, /*remove_dot_dot=*/true);
  auto buffer = llvm::MemoryBuffer::getFile(absolute);
  if (!buffer) {
    llvm::errs() << "accy-lsp: cannot read " << file << ": "
                 << buffer.getError().message() << "\n";
    return 2;
  }
  llvm::raw_ostream &os = llvm::outs();
  CheckCallbacks callbacks;
  AccyServer server(options, callbacks);
  std::string uri = pathToUri(absolute.str().str());
  auto start = std::chrono::steady_clock::now();
  server.openDocument(uri, 1, (*buffer)->getBuffer().str());
  bool failed = false;
  auto featureFailed = [&](const char *what, const ServerError &error) {
    os << "  " << what << " failed: " << error.message << "\n";
    failed = true;
  };

  // Diagnostics (and the compile everything else waits for).
  Outcome<std::vector<lsp::Diagnostic>> diagnostics =
      await<std::vector<lsp::Diagnostic>>([&](auto cb) {
        server.diagnostics(uri, nullptr, std::move(cb));
      });
  double ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - start)
                  .count();
  os << "diagnostics (" << llvm::format("%.1f", ms) << " ms):\n";
  if (!diagnostics.ok())
    featureFailed("diagnostics", diagnostics.error);
  else
    for (const lsp::Diagnostic &d : *diagnostics.value) {
      os << "  " << describe(d.range.start) << "-" << describe(d.range.end)
         << " " << (d.severity == DiagnosticSeverity::Error ? "error" : "warning")
         << " [" << d.source << " " << d.code << "] " << d.message << "\n";
      failed |= d.severity == DiagnosticSeverity::Error;
    }

  std::shared_ptr<const Analysis> analysis = server.analysis(uri);
  const SourceModule *module = analysis ? analysis->mainModule() : nullptr;
  auto hoverAt = [&](SourceRange range, const std::string &what) {
    Position pos = analysis->index().positionOf(range.begin);
    auto hover = await<std::optional<Hover>>(
        [&](auto cb) { server.hover(uri, pos, nullptr, std::move(cb)); });
    if (!hover.ok())
      return featureFailed("hover", hover.error);
    os << "hover " << what << " at " << describe(pos) << ":\n";
    if (*hover.value)
      os << "  " << llvm::StringRef((*hover.value)->markdown).trim() << "\n";
  };
  if (module) {
    for (const auto &kernel : module->kernels) {
      hoverAt(kernel->nameRange, "kernel " + kernel->name);
      for (const LetBinding *let : letsOf(*kernel))
        if (let->value)
          hoverAt(let->value->range, "let " + let->name + " value");
    }
  }

  auto hints = await<std::vector<InlayHint>>([&](auto cb) {
    server.inlayHints(uri, {{0, 0}, {~0u >> 1, 0}}, std::move(cb));
  });
  if (hints.ok()) {
    os << "inlay hints: " << hints.value->size() << "\n";
    for (const InlayHint &h : *hints.value)
      os << "  " << describe(h.position) << " " << h.label << "\n";
  } else {
    featureFailed("inlay hints", hints.error);
  }

  auto symbols = await<std::vector<DocumentSymbol>>(
      [&](auto cb) { server.documentSymbols(uri, std::move(cb)); });
  if (symbols.ok()) {
    os << "document symbols: " << symbols.value->size() << "\n";
    for (const DocumentSymbol &s : *symbols.value)
      os << "  " << s.name << " (" << s.detail << ", " << s.children.size()
         << " children)\n";
  } else {
    featureFailed("document symbols", symbols.error);
  }

  auto tokens = await<std::vector<uint32_t>>(
      [&](auto cb) { server.semanticTokens(uri, std::move(cb)); });
  if (tokens.ok())
    os << "semantic tokens: " << tokens.value->size() / 5 << "\n";
  else
    featureFailed("semantic tokens", tokens.error);

  auto completions = await<std::vector<CompletionItem>>(
      [&](auto cb) { server.completion(uri, {0, 0}, std::move(cb)); });
  if (completions.ok())
    os << "completion items: " << completions.value->size() << "\n";
  else
    featureFailed("completion", completions.error);

  auto edits = await<std::vector<TextEdit>>(
      [&](auto cb) { server.formatting(uri, std::nullopt, std::move(cb)); });
  if (edits.ok())
    os << "formatting edits: " << edits.value->size() << "\n";
  else
    featureFailed("formatting", edits.error);

  // Definitions of every name used, and signature help inside every call.
  unsigned definitions = 0, signatures = 0;
  if (module)
    for (const auto &kernel : module->kernels)
      walkPreOrder(*kernel, [&](const Expr &e) {
        if (e.range.file != module->file)
          return;
        Position pos = analysis->index().positionOf(e.range.begin);
        if (llvm::isa<LetRefExpr, ParamRefExpr, ConstRefExpr>(e)) {
          auto def = await<std::optional<Location>>(
              [&](auto cb) { server.definition(uri, pos, std::move(cb)); });
          definitions += def.ok() && *def.value;
        }
        if (auto *call = llvm::dyn_cast<BuiltinCallExpr>(&e)) {
          Position inside = analysis->index().positionOf(call->calleeRange.end + 1);
          auto help = await<std::optional<SignatureHelp>>([&](auto cb) {
            server.signatureHelp(uri, inside, std::move(cb));
          });
          signatures += help.ok() && *help.value;
        }
      });
  os << "definitions found: " << definitions << "\n";
  os << "signature help found: " << signatures << "\n";

  if (module)
    for (const auto &kernel : module->kernels)
      for (StageId stage : kAllStages) {
        auto text = await<std::string>([&](auto cb) {
          server.stageOutput(uri, kernel->name, stageName(stage).str(),
                             nullptr, std::move(cb));
        });
        os << "stage output " << kernel->name << " " << stageName(stage)
           << ": "
           << (text.ok() ? std::to_string(text.value->size()) + " bytes"
                         : text.error.message)
           << "\n";
      }
  return failed ? 1 : 0;
}
