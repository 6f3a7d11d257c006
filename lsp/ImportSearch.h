//===- ImportSearch.h - Which workspace files define a name -----*- C++ -*-===//
//
// For the import quick fix: the const and fn items (what an import makes
// visible) of the .accy files under the workspace folders, read with the
// frontend's parser and kept per file until its size or modification time
// changes, so a search re-reads only edited files. The list of files is
// kept too, for a few seconds or until invalidate() (a watched file was
// created or deleted): walking a large folder takes longer than a code
// action may. Safe to call from any thread.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LSP_IMPORTSEARCH_H
#define ACCY_LSP_IMPORTSEARCH_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Chrono.h"

#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace accy::lsp {

class ImportSearch {
public:
  struct Match {
    std::string path;
    /// Every const and fn name the file defines (`name` among them).
    std::vector<std::string> exported;
  };

  /// The files under `folders` (hidden folders and node_modules skipped)
  /// that define `name` as a fn (`isFn`) or as a const, sorted by path.
  std::vector<Match> filesDefining(const std::vector<std::string> &folders,
                                   llvm::StringRef name, bool isFn);
  /// Lists the folders' files again at the next search.
  void invalidate();

private:
  struct Entry {
    llvm::sys::TimePoint<> modified;
    uint64_t size = 0;
    std::vector<std::string> consts, fns;
  };
  /// The entry of `path`, read again when it changed; null when unreadable.
  const Entry *entry(const std::string &path);

  std::mutex mutex;
  std::map<std::string, Entry> files;
  std::vector<std::string> listedFolders, listed;
  std::chrono::steady_clock::time_point listedAt;
  bool listValid = false;
};

} // namespace accy::lsp

#endif // ACCY_LSP_IMPORTSEARCH_H
