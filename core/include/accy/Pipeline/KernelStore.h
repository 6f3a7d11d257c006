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
#include "accy/Pipeline/Stage.h"

#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace accy {

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
  PerStage total() const;
  KernelStoreCounters &operator+=(const KernelStoreCounters &other);
};

/// What `accyc cache stats` shows of a store directory.
struct KernelStoreSummary {
  KernelStoreCounters counters; // since the last clear, every process
  std::array<uint64_t, kNumStages> entries{}, bytes{};
  uint64_t limitBytes = 0;
};

/// Where the store lives and how large it may grow.
struct KernelStoreConfig {
  std::string directory;
  uint64_t limitBytes = kDefaultLimitBytes;
  static constexpr uint64_t kDefaultLimitBytes = 2ull << 30; // 2 GiB

  /// The user's configuration: `$ACCY_CACHE_DIR`, else
  /// `$XDG_CACHE_HOME/accy`, else `~/.cache/accy`; `$ACCY_CACHE_SIZE`
  /// ("2G", "500M", "64K" or bytes). None when `$ACCY_CACHE_DISABLE` is set
  /// or no directory can be named (no HOME). A malformed size is an error.
  static llvm::Expected<std::optional<KernelStoreConfig>> fromEnvironment();
  /// `$ACCY_CACHE_SIZE`, else the default; a malformed size is an error.
  static llvm::Expected<uint64_t> limitFromEnvironment();
  /// What a tool's `--cache-dir DIR` and `--no-cache` say (accyc and
  /// accy-lsp take both): none with `noCache`; `directory` whatever the
  /// environment says (the size from it); else fromEnvironment().
  static llvm::Expected<std::optional<KernelStoreConfig>>
  fromCommandLine(llvm::StringRef directory, bool noCache);
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
  /// is removed). Not while other threads use `context`.
  struct Loaded {
    SharedKernel kernel;
    uint64_t fingerprint;
  };
  std::optional<Loaded> load(StageId stage, llvm::StringRef key,
                             mlir::MLIRContext &context);
  /// Stores `kernel` (its key attributes set) under `key`. A failure turns
  /// writing off for this process and leaves a warning.
  void save(StageId stage, llvm::StringRef key, const KernelProduct &kernel,
            uint64_t fingerprint);

  /// Whether an entry of `stage` is stored under `key` (not checked: a load
  /// may still find it damaged).
  bool contains(StageId stage, llvm::StringRef key) const;

  /// The warning a failed write left (once), for the front door to print.
  std::optional<std::string> takeWarning();
  /// This process's counters.
  KernelStoreCounters counters() const;
  const KernelStoreConfig &config() const { return config_; }

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

  KernelStoreConfig config_;
  mutable std::mutex mutex;
  KernelStoreCounters counts;
  bool writable = true;
  std::optional<std::string> warning;
};

} // namespace accy

#endif // ACCY_PIPELINE_KERNELSTORE_H
