//===- ImportSearch.cpp - Which workspace files define a name -------------===//

#include "ImportSearch.h"

#include "accy/Frontend/Parser.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace accy;
using namespace accy::lsp;

namespace fs = llvm::sys::fs;

/// A bound on the files one search looks at, for very large folders.
static constexpr size_t kMaxFiles = 5000;
/// How long a listing of the folders is used without a watched-file event.
static constexpr std::chrono::seconds kListingLifetime{10};

static std::vector<std::string>
accyFiles(const std::vector<std::string> &folders) {
  std::vector<std::string> out;
  for (const std::string &folder : folders) {
    std::error_code ec;
    for (fs::recursive_directory_iterator it(folder, ec), end;
         it != end && !ec && out.size() < kMaxFiles; it.increment(ec)) {
      llvm::StringRef name = llvm::sys::path::filename(it->path());
      if (fs::is_directory(it->path())) {
        if (name.starts_with(".") || name == "node_modules")
          it.no_push();
        continue;
      }
      if (llvm::sys::path::extension(name) == ".accy")
        out.push_back(it->path());
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

const ImportSearch::Entry *ImportSearch::entry(const std::string &path) {
  fs::file_status status;
  if (fs::status(path, status))
    return nullptr;
  auto it = files.find(path);
  if (it != files.end() &&
      it->second.modified == status.getLastModificationTime() &&
      it->second.size == status.getSize())
    return &it->second;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return nullptr;
  SourceManager sm;
  FileID file = sm.addBuffer(path, (*buffer)->getBuffer().str());
  DiagnosticEngine diags(sm);
  std::unique_ptr<syntax::Module> module = parseFile(file, diags);
  Entry fresh;
  fresh.modified = status.getLastModificationTime();
  fresh.size = status.getSize();
  if (module) {
    for (const syntax::ConstDecl &c : module->consts)
      fresh.consts.push_back(c.name);
    for (const syntax::FunctionDecl &f : module->functions)
      if (!f.isKernel)
        fresh.fns.push_back(f.name);
  }
  return &(files[path] = std::move(fresh));
}

void ImportSearch::invalidate() {
  std::lock_guard<std::mutex> lock(mutex);
  listValid = false;
}

std::vector<ImportSearch::Match>
ImportSearch::filesDefining(const std::vector<std::string> &folders,
                            llvm::StringRef name, bool isFn) {
  std::vector<Match> out;
  std::lock_guard<std::mutex> lock(mutex);
  auto now = std::chrono::steady_clock::now();
  if (!listValid || folders != listedFolders ||
      now - listedAt > kListingLifetime) {
    listed = accyFiles(folders);
    listedFolders = folders;
    listedAt = now;
    listValid = true;
  }
  for (const std::string &path : listed) {
    const Entry *e = entry(path);
    if (!e)
      continue;
    const std::vector<std::string> &defined = isFn ? e->fns : e->consts;
    if (std::find(defined.begin(), defined.end(), name) == defined.end())
      continue;
    Match match{path, e->consts};
    match.exported.insert(match.exported.end(), e->fns.begin(), e->fns.end());
    out.push_back(std::move(match));
  }
  return out;
}
