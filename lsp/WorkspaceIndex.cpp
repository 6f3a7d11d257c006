//===- WorkspaceIndex.cpp - The .accy files of the workspace --------------===//

#include "WorkspaceIndex.h"

#include "Scheduler.h"
#include "SymbolIndex.h"
#include "Uri.h"

#include "accy/Frontend/Parser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cctype>
#include <tuple>

using namespace accy;
using namespace accy::lsp;

/// How long one hold of the compile slot indexes at most.
static constexpr std::chrono::milliseconds kBatch{5};

WorkspaceIndex::WorkspaceIndex(Scheduler &scheduler,
                               std::vector<std::string> includeDirs,
                               Hooks hooks)
    : scheduler(scheduler), includeDirs(std::move(includeDirs)),
      hooks(std::move(hooks)), thread([this] { run(); }) {}

WorkspaceIndex::~WorkspaceIndex() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
  }
  wake.notify_all();
  scheduler.interruptIdle();
  thread.join();
}

void WorkspaceIndex::addFolders(std::vector<std::string> paths,
                                PositionEncoding positionEncoding) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    encoding = positionEncoding;
    for (std::string &path : paths) {
      roots.push_back(symbolPath(path));
      folders.push_back(roots.back());
    }
  }
  wake.notify_all();
}

void WorkspaceIndex::removeFolders(const std::vector<std::string> &paths) {
  std::lock_guard<std::mutex> lock(mutex);
  for (const std::string &path : paths) {
    std::string folder = symbolPath(path);
    auto same = [&](const std::string &f) { return f == folder; };
    llvm::erase_if(roots, same);
    llvm::erase_if(folders, same);
    std::string prefix = folder + "/";
    for (auto it = entries.begin(); it != entries.end();)
      it = llvm::StringRef(it->first).starts_with(prefix) ? entries.erase(it)
                                                          : std::next(it);
  }
}

void WorkspaceIndex::enqueue(const std::string &path) {
  if (queued.insert(path).second)
    pending.push_back(path);
}

void WorkspaceIndex::fileChanged(const std::string &path) {
  if (!llvm::StringRef(path).ends_with(".accy"))
    return;
  std::string file = symbolPath(path);
  {
    std::lock_guard<std::mutex> lock(mutex);
    bool inside = llvm::any_of(roots, [&](const std::string &root) {
      return llvm::StringRef(file).starts_with(root + "/");
    });
    if (!inside)
      return;
    enqueue(file);
  }
  wake.notify_all();
}

/// Every .accy file under `folder`, leaving out hidden folders and npm's.
static std::vector<std::string> accyFilesUnder(const std::string &folder) {
  std::vector<std::string> files;
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator it(folder, ec), end;
       it != end && !ec; it.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    if (it->type() == llvm::sys::fs::file_type::directory_file) {
      if (name.starts_with(".") || name == "node_modules")
        it.no_push();
      continue;
    }
    if (name.ends_with(".accy"))
      files.push_back(symbolPath(it->path()));
  }
  return files;
}

void WorkspaceIndex::run() {
  std::unique_lock<std::mutex> lock(mutex);
  for (;;) {
    auto scanDue = [&] { return !folders.empty() && scanLeft.empty(); };
    wake.wait(lock, [&] { return stopping || scanDue() || !pending.empty(); });
    if (stopping)
      return;
    if (scanDue()) {
      std::vector<std::string> scan = std::move(folders);
      folders.clear();
      lock.unlock();
      std::vector<std::string> files;
      for (const std::string &folder : scan)
        for (std::string &file : accyFilesUnder(folder))
          files.push_back(std::move(file));
      if (hooks.scanStarted)
        hooks.scanStarted(files.size());
      lock.lock();
      scanStart = std::chrono::steady_clock::now();
      scanTotal = files.size();
      for (const std::string &file : files) {
        scanLeft.insert(file);
        enqueue(file);
      }
      if (scanLeft.empty() && hooks.scanEnded) {
        lock.unlock();
        hooks.scanEnded(0, 0);
        lock.lock();
      }
      continue;
    }
    lock.unlock();
    CompileSlot::Lease lease = scheduler.acquireIdle([this] {
      std::lock_guard<std::mutex> guard(mutex);
      return stopping;
    });
    lock.lock();
    if (!lease)
      return;
    auto start = std::chrono::steady_clock::now();
    bool scanDone = false;
    while (!pending.empty() && !stopping &&
           std::chrono::steady_clock::now() - start < kBatch) {
      std::string path = std::move(pending.front());
      pending.pop_front();
      queued.erase(path);
      lock.unlock();
      std::optional<Entry> entry = indexFile(path);
      lock.lock();
      if (entry)
        entries[path] = std::move(*entry);
      else
        entries.erase(path);
      if (scanLeft.erase(path) && scanLeft.empty())
        scanDone = true;
    }
    lock.unlock();
    lease = CompileSlot::Lease();
    if (scanDone && hooks.scanEnded)
      hooks.scanEnded(scanTotal,
                      std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - scanStart)
                          .count());
    lock.lock();
  }
}

std::optional<WorkspaceIndex::Entry>
WorkspaceIndex::indexFile(const std::string &path) const {
  std::string text;
  if (std::optional<std::string> open =
          hooks.openText ? hooks.openText(path) : std::nullopt) {
    text = std::move(*open);
  } else {
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer)
      return std::nullopt;
    text = (*buffer)->getBuffer().str();
  }
  SourceManager sm;
  FileID file = sm.addBuffer(path, text);
  DiagnosticEngine ignored(sm, /*errorLimit=*/1);
  std::unique_ptr<syntax::Module> module = parseFile(file, ignored);
  LineIndex lines(text, encoding);
  Entry entry;
  entry.uri = pathToUri(path);
  std::string container = llvm::sys::path::filename(path).str();
  auto add = [&](const std::string &name, SymbolKind kind, SourceRange range) {
    if (name.empty())
      return;
    entry.symbols.push_back(
        {name, kind, {entry.uri, lines.rangeOf(range.begin, range.end)},
         container});
  };
  for (const syntax::ConstDecl &c : module->consts)
    add(c.name, SymbolKind::Constant, c.nameRange);
  for (const syntax::FunctionDecl &f : module->functions)
    add(f.name, SymbolKind::Function, f.nameRange);
  llvm::StringRef dir = llvm::sys::path::parent_path(path);
  for (const syntax::ImportDecl &imp : module->imports) {
    if (llvm::sys::path::is_absolute(imp.path)) {
      entry.importCandidates.push_back(symbolPath(imp.path));
      continue;
    }
    llvm::SmallString<256> local(dir);
    llvm::sys::path::append(local, imp.path);
    entry.importCandidates.push_back(symbolPath(local));
    for (const std::string &inc : includeDirs) {
      llvm::SmallString<256> p(inc);
      llvm::sys::path::append(p, imp.path);
      entry.importCandidates.push_back(symbolPath(p));
    }
  }
  return entry;
}

/// Whether `query`'s characters occur in `name` in order, ignoring case.
static bool fuzzyMatches(llvm::StringRef name, llvm::StringRef query) {
  size_t at = 0;
  for (char c : query) {
    at = name.find_insensitive(llvm::StringRef(&c, 1), at);
    if (at == llvm::StringRef::npos)
      return false;
    ++at;
  }
  return true;
}

std::vector<SymbolInformation>
WorkspaceIndex::symbols(const std::string &query, size_t limit) const {
  struct Match {
    bool notPrefix;
    const SymbolInformation *symbol;
  };
  std::lock_guard<std::mutex> lock(mutex);
  std::vector<Match> found;
  for (const auto &[path, entry] : entries)
    for (const SymbolInformation &symbol : entry.symbols)
      if (fuzzyMatches(symbol.name, query))
        found.push_back(
            {!llvm::StringRef(symbol.name).starts_with_insensitive(query),
             &symbol});
  // Names that start with the query first, then shorter names.
  auto better = [](const Match &a, const Match &b) {
    const SymbolInformation &x = *a.symbol, &y = *b.symbol;
    size_t xs = x.name.size(), ys = y.name.size();
    return std::tie(a.notPrefix, xs, x.name, x.location.uri) <
           std::tie(b.notPrefix, ys, y.name, y.location.uri);
  };
  size_t keep = std::min(limit, found.size());
  std::partial_sort(found.begin(), found.begin() + keep, found.end(), better);
  std::vector<SymbolInformation> result;
  result.reserve(keep);
  for (size_t i = 0; i < keep; ++i)
    result.push_back(*found[i].symbol);
  return result;
}

std::vector<std::string>
WorkspaceIndex::importersOf(const std::string &path) const {
  std::string key = symbolPath(path);
  std::vector<std::string> importers;
  std::lock_guard<std::mutex> lock(mutex);
  for (const auto &[file, entry] : entries)
    if (std::find(entry.importCandidates.begin(), entry.importCandidates.end(),
                  key) != entry.importCandidates.end())
      importers.push_back(file);
  return importers;
}
