//===- KernelStore.h - Kernel products on disk, shared by processes -*- C++ -*-===//
//
// The persistent half of reuse by key: every kernel's product at the stages
// after dispatch, in a directory every process of the user shares (as
// ccache's and Triton's caches are), so that `accyc stage` under Ninja,
// `accyc build` and later processes compile only the kernels whose keys are
// new. A key names everything a product depends on (stage, compiler build
// id, stage options with the target list, the input's content hash), so an
// entry is served only for its own key; what a stage file holds never
// depends on whether its kernels came from the store.
//
// Entries are written atomically (a temporary file renamed into place) and
// carry their key and the content hash of their bytes, which every read
// checks: an entry that is truncated, altered or of another schema is
// counted, removed and compiled again. Errors never fail a compile: a store
// that cannot be written is used read-only, with one warning.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_PIPELINE_KERNELSTORE_H
#define ACCY_PIPELINE_KERNELSTORE_H

#include "accy/Pipeline/ProductCache.h"
#include "accy/Pipeline/RemoteCache.h"
#include "accy/Pipeline/Stage.h"
#include "accy/Pipeline/StepEntry.h"

#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace accy {

/// The folder of a store directory that holds the entries of this format
/// (DIR/v1/...): bumped whenever the format of an entry or what it means
/// changes, so older entries are never read (they sit apart until trimmed).
inline constexpr llvm::StringLiteral kKernelStoreSchema = "v1";

/// Whether the store keeps `stage`'s products: the stages after dispatch,
/// where compiling costs more than reading a product back.
bool isStoredStage(StageId stage);

/// Counters of a store, per stage (index: stageIndex) and in total.
struct KernelStoreCounters {
  struct PerStage {
    uint64_t hits = 0, misses = 0, writes = 0, corrupt = 0;
    PerStage &operator+=(const PerStage &other);
  };
  std::array<PerStage, kNumStages> stages{};
  /// The store's size as of its last trim plus the bytes written since: an
  /// upper bound that tells a process when a trim (a walk of the whole
  /// directory) is due, without walking it.
  uint64_t bytes = 0;
  /// The remote caches' (all stages).
  RemoteCacheCounters remote;
  PerStage total() const;
  KernelStoreCounters &operator+=(const KernelStoreCounters &other);
};

/// What `accyc cache stats` shows of a store directory.
struct KernelStoreSummary {
  KernelStoreCounters counters; // since the last clear, every process
  std::array<uint64_t, kNumStages> entries{}, bytes{};
  /// Step entries (StepEntry.h) and the steps they served.
  uint64_t stepEntries = 0, stepBytes = 0, stepHits = 0;
  uint64_t limitBytes = 0;
};

/// Where the store lives and how large it may grow.
struct KernelStoreConfig {
  std::string directory;
  uint64_t limitBytes = kDefaultLimitBytes;
  /// The servers asked on a local miss and written through after a
  /// compile, in order (RemoteCache.h).
  std::vector<RemoteBackendConfig> remotes;
  static constexpr uint64_t kDefaultLimitBytes = 2ull << 30; // 2 GiB

  /// The user's configuration: `$ACCY_CACHE_DIR`, else
  /// `$XDG_CACHE_HOME/accy`, else `~/.cache/accy`; `$ACCY_CACHE_SIZE`
  /// ("2G", "500M", "64K" or bytes); `$ACCY_REMOTE_CACHE`. None when
  /// `$ACCY_CACHE_DISABLE` is set or no directory can be named (no HOME).
  /// A malformed size or remote is an error. Without `withRemotes`,
  /// `$ACCY_REMOTE_CACHE` is not read (a command line names the remotes).
  static llvm::Expected<std::optional<KernelStoreConfig>>
  fromEnvironment(bool withRemotes = true);
  /// `$ACCY_CACHE_SIZE`, else the default; a malformed size is an error.
  static llvm::Expected<uint64_t> limitFromEnvironment();
  /// What a tool's `--cache-dir DIR` and `--no-cache` say (accyc and
  /// accy-lsp take both): none with `noCache`; `directory` whatever the
  /// environment says (the size and remotes from it); else
  /// fromEnvironment(). Without `withRemotes`, as fromEnvironment.
  static llvm::Expected<std::optional<KernelStoreConfig>>
  fromCommandLine(llvm::StringRef directory, bool noCache,
                  bool withRemotes = true);
  /// `$ACCY_REMOTE_CACHE`'s servers (none when unset); malformed: an error.
  static llvm::Expected<std::vector<RemoteBackendConfig>>
  remotesFromEnvironment();
};

/// Parses a size as `$ACCY_CACHE_SIZE` takes it.
llvm::Expected<uint64_t> parseStoreSize(llvm::StringRef text);

class KernelStore {
public:
  explicit KernelStore(KernelStoreConfig config);
  /// Adds this process's counters to the directory's and trims the store
  /// when they say it grew past its limit.
  ~KernelStore();
  KernelStore(const KernelStore &) = delete;
  KernelStore &operator=(const KernelStore &) = delete;

  /// A stored product of `stage` under `key`, parsed into `context`, with
  /// its fingerprint; none on a miss or an entry that does not check (which
  /// is removed). On a local miss the remote caches are asked, and their
  /// entry, when it checks, is stored locally. Not while other threads use
  /// `context`.
  struct Loaded {
    SharedKernel kernel;
    uint64_t fingerprint;
    bool fromRemote = false; // a remote cache served it
  };
  std::optional<Loaded> load(StageId stage, llvm::StringRef key,
                             mlir::MLIRContext &context);
  /// The remote caches' entry of `stage` under `key`, checked and stored
  /// locally as load() stores it, without asking the local store first:
  /// for the next stages of a kernel a remote served (prefetchFollowing).
  std::optional<Loaded> fetchRemote(StageId stage, llvm::StringRef key,
                                    mlir::MLIRContext &context);
  /// Stores `kernel` (its key attributes set) under `key`, here and in the
  /// remote caches that are not read-only; `bytes` are its productBytes
  /// where the caller has them already. A failure turns writing off for
  /// this process and leaves a warning. Safe on several threads at once.
  void save(StageId stage, llvm::StringRef key, const KernelProduct &kernel,
            uint64_t fingerprint, llvm::StringRef bytes = {});

  /// Keeps a step entry's bytes (StepEntry.h) under `key`, here and in the
  /// remote caches that are not read-only, as save() keeps a product.
  void saveStep(llvm::StringRef key, llvm::StringRef data);
  /// The step entry under `key` that checks: the local one, else a remote
  /// cache's, which is then stored locally. An entry that does not check is
  /// removed (locally) or counted as corrupt (remotely).
  std::optional<StepEntry> loadStep(llvm::StringRef key);

  /// Whether an entry of `stage` is stored under `key` (not checked: a load
  /// may still find it damaged).
  bool contains(StageId stage, llvm::StringRef key) const;
  /// The content hash the local entry of `stage` under `key` records in
  /// its header, read without the entry's bytes; none without one. For a
  /// product read from a stage file whose kernel has that key: by key the
  /// same bytes, whose hash is then not computed again.
  std::optional<std::string> recordedContentHash(StageId stage,
                                                 llvm::StringRef key) const;
  /// Whether remote caches are asked on a local miss.
  bool hasRemotes() const { return remote != nullptr; }

  /// The warning a failed write left (once), for the front door to print.
  std::optional<std::string> takeWarning();
  /// Why remote caches went off, once each.
  std::vector<std::string> takeRemoteWarnings();
  /// This process's counters.
  KernelStoreCounters counters() const;
  const KernelStoreConfig &config() const { return config_; }

  /// Makes the entry file `path` the most recently used: trimming removes
  /// the least recently used first.
  static void markUsed(const std::string &path);
  /// Counts a step that ran from its step entry: one byte appended to the
  /// directory's step-hits file, without a lock or a read, so that the fast
  /// path (driver/StepFastPath.cpp) stays fast.
  static void countServedStep(const KernelStoreConfig &config);

  /// The directory's entries, sizes and counters.
  static llvm::Expected<KernelStoreSummary>
  summarize(const KernelStoreConfig &config);
  /// Removes the least recently used entries until the store holds at most
  /// its limit (and temporary files a killed writer left); returns the
  /// bytes removed.
  static llvm::Expected<uint64_t> trim(const KernelStoreConfig &config);
  /// Removes every entry and the counters.
  static llvm::Error clear(const KernelStoreConfig &config);

private:
  std::string entryPath(StageId stage, llvm::StringRef key) const;
  void disableWrites(const llvm::Twine &why);
  /// Writes `data` as the entry file `file`, atomically; false on failure
  /// (writes are then off).
  bool writeEntryFile(const std::string &file, llvm::StringRef data);
  /// Writes `data` as the local entry file `file` when writes are on (an
  /// entry a remote served, or a step entry), counting its bytes; true when
  /// it was written.
  bool keepLocally(const std::string &file, llvm::StringRef data);

  KernelStoreConfig config_;
  mutable std::mutex mutex;
  KernelStoreCounters counts;
  bool writable = true;
  std::optional<std::string> warning;
  std::unique_ptr<RemoteCache> remote; // none without remotes
};

} // namespace accy

#endif // ACCY_PIPELINE_KERNELSTORE_H
