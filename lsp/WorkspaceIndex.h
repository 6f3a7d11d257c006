//===- WorkspaceIndex.h - The .accy files of the workspace ------*- C++ -*-===//
//
// Every .accy file under the workspace folders, parsed in the background:
// its kernels, fns and consts (for workspace/symbol) and the files its
// imports may name (so that references and rename find the files that
// import a definition). One thread indexes, taking the scheduler's compile
// slot at background priority (below every check) for a few milliseconds
// at a time, so a check waits at most for one short batch. Watched-file events, opens,
// edits and closes queue a file again; deleted files leave the index.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LSP_WORKSPACEINDEX_H
#define ACCY_LSP_WORKSPACEINDEX_H

#include "Protocol.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace accy::lsp {

class Scheduler;

class WorkspaceIndex {
public:
  struct Hooks {
    /// The text of an open document at `path`; nullopt for the disk's.
    std::function<std::optional<std::string>(const std::string &path)> openText;
    /// A scan of folders starts, and ends with every file found indexed.
    std::function<void(size_t files)> scanStarted;
    std::function<void(size_t files, double seconds)> scanEnded;
  };
  WorkspaceIndex(Scheduler &scheduler, std::vector<std::string> includeDirs,
                 Hooks hooks);
  /// Stops indexing and waits for the thread.
  ~WorkspaceIndex();

  /// Scans the folders (absolute paths) and indexes every file in them;
  /// positions are in `encoding`. One scan at a time: folders added while
  /// one runs are scanned after it.
  void addFolders(std::vector<std::string> folders, PositionEncoding encoding);
  /// Forgets the files under these folders.
  void removeFolders(const std::vector<std::string> &folders);
  /// The file changed, appeared or vanished (on disk or in the editor);
  /// files outside the workspace folders are not indexed.
  void fileChanged(const std::string &path);

  /// The items whose name matches `query` (its characters in order, any
  /// case), best matches first, at most `limit`.
  std::vector<SymbolInformation> symbols(const std::string &query,
                                         size_t limit) const;
  /// Indexed files one of whose imports may name `path`.
  std::vector<std::string> importersOf(const std::string &path) const;

private:
  struct Entry {
    std::string uri;
    std::vector<SymbolInformation> symbols;
    /// Where each import may resolve (first the importing file's folder,
    /// then each include directory), as symbol paths.
    std::vector<std::string> importCandidates;
  };
  void run();
  /// Reads and parses `path`; nullopt when it is no longer there.
  std::optional<Entry> indexFile(const std::string &path) const;
  void enqueue(const std::string &path);

  Scheduler &scheduler;
  const std::vector<std::string> includeDirs;
  Hooks hooks;
  PositionEncoding encoding = PositionEncoding::Utf16;

  mutable std::mutex mutex;
  std::condition_variable wake;
  bool stopping = false;
  /// The workspace folders; those still to scan.
  std::vector<std::string> roots, folders;
  std::deque<std::string> pending;
  std::set<std::string> queued;
  std::map<std::string, Entry> entries;
  /// Files of the running scan not yet indexed; its size and start.
  std::set<std::string> scanLeft;
  size_t scanTotal = 0;
  std::chrono::steady_clock::time_point scanStart;
  std::thread thread;
};

} // namespace accy::lsp

#endif // ACCY_LSP_WORKSPACEINDEX_H
