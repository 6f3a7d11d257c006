//===- KernelStore.cpp - Kernel products on disk, shared by processes -----===//
//
// Layout (docs/cache.md): DIR/v1/STAGE/KK/KEY, KK the key's first two hex
// digits, as ccache fans its files out; step entries in DIR/v1/steps/KK/KEY
// (StepEntry.h); DIR/v1/stats holds the counters of
// every process, updated under DIR/v1/stats.lock. An entry is a header line
// and the product's MLIR bytecode:
//
//   accy-kernel-store 1 STAGE KEY FINGERPRINT CONTENTHASH SIZE\n<bytes>
//
//===----------------------------------------------------------------------===//

#include "accy/Pipeline/KernelStore.h"

#include "KernelStoreCounters.h"

#include "accy/Pipeline/Hashing.h"
#include "accy/ProductAttributes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

#include <unistd.h>

using namespace accy;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

static constexpr llvm::StringLiteral kMagic = "accy-kernel-store";

bool accy::isStoredStage(StageId stage) {
  return stage == StageId::Memory || stage == StageId::Kernel ||
         stage == StageId::Target;
}

//===----------------------------------------------------------------------===//
// Configuration
//===----------------------------------------------------------------------===//

llvm::Expected<uint64_t> accy::parseStoreSize(llvm::StringRef text) {
  llvm::StringRef digits = text.trim();
  uint64_t scale = 1;
  if (!digits.empty()) {
    switch (llvm::toLower(digits.back())) {
    case 'k':
      scale = 1ull << 10;
      break;
    case 'm':
      scale = 1ull << 20;
      break;
    case 'g':
      scale = 1ull << 30;
      break;
    case 't':
      scale = 1ull << 40;
      break;
    default:
      break;
    }
    if (scale != 1)
      digits = digits.drop_back();
  }
  uint64_t value;
  if (digits.empty() || digits.getAsInteger(10, value) || value == 0)
    return llvm::createStringError(
        "cache size '" + text +
        "' is not a positive size such as 2G, 500M or 65536");
  return value * scale;
}

static std::optional<std::string> environment(const char *name) {
  const char *value = std::getenv(name);
  if (!value || !*value)
    return std::nullopt;
  return std::string(value);
}

llvm::Expected<std::optional<KernelStoreConfig>>
KernelStoreConfig::fromEnvironment(bool withRemotes) {
  if (environment("ACCY_CACHE_DISABLE"))
    return std::nullopt;
  KernelStoreConfig config;
  if (auto dir = environment("ACCY_CACHE_DIR")) {
    config.directory = *dir;
  } else if (auto xdg = environment("XDG_CACHE_HOME")) {
    llvm::SmallString<256> dir(*xdg);
    path::append(dir, "accy");
    config.directory = std::string(dir);
  } else if (auto home = environment("HOME")) {
    llvm::SmallString<256> dir(*home);
    path::append(dir, ".cache", "accy");
    config.directory = std::string(dir);
  } else {
    return std::nullopt;
  }
  auto limit = limitFromEnvironment();
  if (!limit)
    return limit.takeError();
  config.limitBytes = *limit;
  if (!withRemotes)
    return config;
  auto remotes = remotesFromEnvironment();
  if (!remotes)
    return remotes.takeError();
  config.remotes = std::move(*remotes);
  return config;
}

llvm::Expected<std::vector<RemoteBackendConfig>>
KernelStoreConfig::remotesFromEnvironment() {
  auto spec = environment("ACCY_REMOTE_CACHE");
  if (!spec)
    return std::vector<RemoteBackendConfig>();
  auto remotes = parseRemoteCacheSpec(*spec);
  if (!remotes)
    return llvm::createStringError("ACCY_REMOTE_CACHE: " +
                                   llvm::toString(remotes.takeError()));
  return remotes;
}

llvm::Expected<uint64_t> KernelStoreConfig::limitFromEnvironment() {
  auto size = environment("ACCY_CACHE_SIZE");
  if (!size)
    return kDefaultLimitBytes;
  auto limit = parseStoreSize(*size);
  if (!limit)
    return llvm::createStringError("ACCY_CACHE_SIZE: " +
                                   llvm::toString(limit.takeError()));
  return *limit;
}

//===----------------------------------------------------------------------===//
// Entries
//===----------------------------------------------------------------------===//

namespace {
/// A parsed entry header and the bytes after it.
struct Entry {
  StageId stage;
  std::string key, contentHash;
  uint64_t fingerprint = 0;
  llvm::StringRef bytes;
};
} // namespace

static std::string entryHeader(StageId stage, llvm::StringRef key,
                               uint64_t fingerprint,
                               llvm::StringRef contentHash, size_t size) {
  return (kMagic + " 1 " + stageName(stage) + " " + key + " " +
          fingerprintHex(fingerprint) + " " + contentHash + " " +
          llvm::Twine(size) + "\n")
      .str();
}

/// An entry's header line (without its newline), when it is well formed;
/// `size` is the length it gives the bytes.
static std::optional<Entry> parseEntryHeader(llvm::StringRef header,
                                             uint64_t &size) {
  llvm::SmallVector<llvm::StringRef> fields;
  header.split(fields, ' ');
  if (fields.size() != 7 || fields[0] != kMagic || fields[1] != "1")
    return std::nullopt;
  Entry entry;
  std::optional<StageId> stage = parseStageName(fields[2]);
  if (!stage || fields[4].getAsInteger(16, entry.fingerprint) ||
      fields[6].getAsInteger(10, size))
    return std::nullopt;
  entry.stage = *stage;
  entry.key = fields[3].str();
  entry.contentHash = fields[5].str();
  return entry;
}

/// The entry in `data`, when its header is well formed and the bytes
/// after it are exactly as long and hash as it says.
static std::optional<Entry> parseEntry(llvm::StringRef data) {
  auto [header, bytes] = data.split('\n');
  if (header.size() == data.size())
    return std::nullopt;
  uint64_t size;
  std::optional<Entry> entry = parseEntryHeader(header, size);
  if (!entry || size != bytes.size() ||
      accy::contentHash(bytes) != entry->contentHash)
    return std::nullopt;
  entry->bytes = bytes;
  return entry;
}

KernelStore::KernelStore(KernelStoreConfig config)
    : config_(std::move(config)) {
  if (!config_.remotes.empty())
    remote = std::make_unique<RemoteCache>(config_.remotes);
}

llvm::Expected<std::optional<KernelStoreConfig>>
KernelStoreConfig::fromCommandLine(llvm::StringRef directory, bool noCache,
                                   bool withRemotes) {
  if (noCache)
    return std::nullopt;
  if (directory.empty())
    return fromEnvironment(withRemotes);
  auto limit = limitFromEnvironment();
  if (!limit)
    return limit.takeError();
  KernelStoreConfig config;
  config.directory = directory.str();
  config.limitBytes = *limit;
  if (withRemotes) {
    auto remotes = remotesFromEnvironment();
    if (!remotes)
      return remotes.takeError();
    config.remotes = std::move(*remotes);
  }
  return config;
}

bool KernelStore::contains(StageId stage, llvm::StringRef key) const {
  return fs::exists(entryPath(stage, key));
}

std::optional<std::string>
KernelStore::recordedContentHash(StageId stage, llvm::StringRef key) const {
  llvm::Expected<fs::file_t> file = fs::openNativeFileForRead(entryPath(stage, key));
  if (!file) {
    llvm::consumeError(file.takeError());
    return std::nullopt;
  }
  // A header is under 200 bytes: magic, version, stage, two hashes, a
  // fingerprint and a size.
  char buffer[512];
  llvm::Expected<size_t> read = fs::readNativeFile(*file, buffer);
  fs::closeFile(*file);
  if (!read) {
    llvm::consumeError(read.takeError());
    return std::nullopt;
  }
  llvm::StringRef data(buffer, *read);
  size_t newline = data.find('\n');
  if (newline == llvm::StringRef::npos)
    return std::nullopt;
  uint64_t size;
  std::optional<Entry> entry = parseEntryHeader(data.take_front(newline), size);
  if (!entry || entry->stage != stage || entry->key != key)
    return std::nullopt;
  return entry->contentHash;
}

std::string KernelStore::entryPath(StageId stage, llvm::StringRef key) const {
  llvm::SmallString<256> p(config_.directory);
  path::append(p, kKernelStoreSchema, stageName(stage), key.take_front(2), key);
  return std::string(p);
}

/// The product an entry's bytes hold, when they are an entry of `stage`
/// under `key` whose product names that key too.
static std::optional<KernelStore::Loaded>
parseLoaded(StageId stage, llvm::StringRef key, llvm::StringRef data,
            mlir::MLIRContext &context) {
  std::optional<Entry> entry = parseEntry(data);
  if (!entry || entry->stage != stage || entry->key != key)
    return std::nullopt;
  // The store's entries were verified when they were made, by this
  // compiler build (the key says so), and their content hash is checked.
  mlir::ParserConfig parserConfig(&context, /*verifyAfterParse=*/false);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(entry->bytes, parserConfig);
  // A product that does not name its own key is not this entry's either.
  auto stored =
      module ? (*module)->getAttrOfType<mlir::StringAttr>(kKeyAttr) : nullptr;
  if (!stored || stored.getValue() != key)
    return std::nullopt;
  auto kernel = std::make_shared<const KernelProduct>(std::move(module),
                                                      entry->contentHash);
  return KernelStore::Loaded{std::move(kernel), entry->fingerprint};
}

std::optional<KernelStore::Loaded>
KernelStore::load(StageId stage, llvm::StringRef key,
                  mlir::MLIRContext &context) {
  std::string file = entryPath(stage, key);
  auto count = [&](auto field) {
    std::lock_guard<std::mutex> lock(mutex);
    ++(counts.stages[stageIndex(stage)].*field);
  };
  auto buffer = llvm::MemoryBuffer::getFile(file, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (buffer) {
    if (std::optional<Loaded> loaded =
            parseLoaded(stage, key, (*buffer)->getBuffer(), context)) {
      count(&KernelStoreCounters::PerStage::hits);
      markUsed(file);
      return loaded;
    }
    count(&KernelStoreCounters::PerStage::corrupt);
    fs::remove(file);
  }
  count(&KernelStoreCounters::PerStage::misses);
  return fetchRemote(stage, key, context);
}

std::optional<KernelStore::Loaded>
KernelStore::fetchRemote(StageId stage, llvm::StringRef key,
                         mlir::MLIRContext &context) {
  if (!remote)
    return std::nullopt;
  // The remote entry is checked as a local one is, before it is used or
  // kept: what does not check is the remote's miss.
  std::optional<Loaded> fetched;
  std::optional<std::string> data =
      remote->load(key, [&](llvm::StringRef bytes) {
        fetched = parseLoaded(stage, key, bytes, context);
        return fetched.has_value();
      });
  if (!data)
    return std::nullopt;
  keepLocally(entryPath(stage, key), *data);
  fetched->fromRemote = true;
  return fetched;
}

bool KernelStore::keepLocally(const std::string &file, llvm::StringRef data) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!writable)
      return false;
  }
  if (!writeEntryFile(file, data))
    return false;
  std::lock_guard<std::mutex> lock(mutex);
  counts.bytes += data.size();
  return true;
}

void KernelStore::disableWrites(const llvm::Twine &why) {
  writable = false;
  warning = ("kernel store " + config_.directory +
             " is not written to for the rest of this run: " + why)
                .str();
}

bool KernelStore::writeEntryFile(const std::string &file,
                                 llvm::StringRef data) {
  auto fail = [&](const llvm::Twine &what, std::error_code ec) {
    std::lock_guard<std::mutex> lock(mutex);
    disableWrites(what + ": " + ec.message());
    return false;
  };
  if (std::error_code ec = fs::create_directories(path::parent_path(file)))
    return fail("cannot create " + path::parent_path(file), ec);
  // A temporary file beside the entry, renamed over it: readers see the
  // whole entry or none, and a writer killed half way leaves only a
  // temporary file that nothing reads (trim removes it).
  llvm::SmallString<256> temporary;
  int fd;
  if (std::error_code ec =
          fs::createUniqueFile(file + ".tmp-%%%%%%%%", fd, temporary))
    return fail("cannot create a file in " + path::parent_path(file), ec);
  bool renamed = false;
  auto cleanup = llvm::make_scope_exit([&] {
    if (!renamed)
      fs::remove(temporary);
  });
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << data;
    os.close();
    if (os.has_error()) {
      std::error_code ec = os.error();
      os.clear_error();
      return fail("cannot write " + temporary, ec);
    }
  }
  if (std::error_code ec = fs::rename(temporary, file))
    return fail("cannot rename " + temporary, ec);
  renamed = true;
  return true;
}

void KernelStore::save(StageId stage, llvm::StringRef key,
                       const KernelProduct &kernel, uint64_t fingerprint,
                       llvm::StringRef bytes) {
  bool local;
  {
    std::lock_guard<std::mutex> lock(mutex);
    local = writable;
  }
  if (!local && !remote)
    return;
  std::string written;
  if (bytes.empty())
    bytes = written = productBytes(kernel.module.get());
  std::string data =
      entryHeader(stage, key, fingerprint, kernel.contentHash, bytes.size()) +
      bytes.str();
  if (local && writeEntryFile(entryPath(stage, key), data)) {
    std::lock_guard<std::mutex> lock(mutex);
    ++counts.stages[stageIndex(stage)].writes;
    counts.bytes += data.size();
  }
  if (remote)
    remote->store(key, data);
}

void KernelStore::markUsed(const std::string &path) {
  int fd;
  if (!fs::openFileForWrite(path, fd, fs::CD_OpenExisting, fs::OF_Append)) {
    (void)fs::setLastAccessAndModificationTime(
        fd, std::chrono::system_clock::now());
    llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  }
}

void KernelStore::countServedStep(const KernelStoreConfig &config) {
  int fd;
  if (!fs::openFileForWrite(stepHitsPath(config.directory), fd,
                            fs::CD_OpenAlways, fs::OF_Append)) {
    (void)!::write(fd, "+", 1);
    llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  }
}

void KernelStore::saveStep(llvm::StringRef key, llvm::StringRef data) {
  keepLocally(stepEntryPath(config_.directory, key), data);
  if (remote)
    remote->store(key, data);
}

std::optional<StepEntry> KernelStore::loadStep(llvm::StringRef key) {
  std::string file = stepEntryPath(config_.directory, key);
  if (std::optional<StepEntry> entry = readStepEntry(file, key))
    return entry;
  fs::remove(file); // one that does not check; none is there on a miss
  if (!remote)
    return std::nullopt;
  std::optional<StepEntry> fetched;
  std::optional<std::string> data =
      remote->load(key, [&](llvm::StringRef bytes) {
        fetched = decodeStepEntry(bytes, key);
        return fetched.has_value();
      });
  if (!data)
    return std::nullopt;
  keepLocally(file, *data);
  return fetched;
}

std::optional<std::string> KernelStore::takeWarning() {
  std::lock_guard<std::mutex> lock(mutex);
  return std::exchange(warning, std::nullopt);
}

std::vector<std::string> KernelStore::takeRemoteWarnings() {
  return remote ? remote->takeWarnings() : std::vector<std::string>();
}

KernelStoreCounters KernelStore::counters() const {
  KernelStoreCounters result;
  {
    std::lock_guard<std::mutex> lock(mutex);
    result = counts;
  }
  if (remote)
    result.remote = remote->counters();
  return result;
}

//===----------------------------------------------------------------------===//
// The directory as a whole
//===----------------------------------------------------------------------===//

static std::string schemaPath(const KernelStoreConfig &config,
                              llvm::StringRef name = "") {
  llvm::SmallString<256> p(config.directory);
  path::append(p, kKernelStoreSchema);
  if (!name.empty())
    path::append(p, name);
  return std::string(p);
}

/// Runs `update` on the directory's counters under its lock file (a
/// process-wide advisory lock, so concurrent builds add, never overwrite).
static void updateCounters(
    const KernelStoreConfig &config,
    llvm::function_ref<void(KernelStoreCounters &)> update) {
  if (fs::create_directories(schemaPath(config)))
    return;
  int lockFd;
  if (fs::openFileForWrite(schemaPath(config, "stats.lock"), lockFd,
                           fs::CD_OpenAlways))
    return;
  auto closeLock = llvm::make_scope_exit(
      [&] { llvm::sys::Process::SafelyCloseFileDescriptor(lockFd); });
  if (fs::lockFile(lockFd))
    return;
  auto unlock = llvm::make_scope_exit([&] { (void)fs::unlockFile(lockFd); });
  std::string statsFile = schemaPath(config, "stats");
  KernelStoreCounters counters;
  if (auto buffer = llvm::MemoryBuffer::getFile(statsFile))
    counters = parseStoreCounters((*buffer)->getBuffer());
  update(counters);
  std::string temporary = statsFile + ".tmp";
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(temporary, ec);
    if (ec)
      return;
    os << printStoreCounters(counters);
  }
  (void)fs::rename(temporary, statsFile);
}

namespace {
struct FileInfo {
  std::string path;
  std::optional<StageId> stage; // none: a step entry
  uint64_t size;
  llvm::sys::TimePoint<> used;
  bool temporary;
};
} // namespace

/// Every entry and temporary file of the store's current schema.
static std::vector<FileInfo> listFiles(const KernelStoreConfig &config) {
  std::vector<FileInfo> files;
  std::vector<std::pair<llvm::StringRef, std::optional<StageId>>> folders = {
      {"steps", std::nullopt}};
  for (StageId stage : kAllStages)
    if (isStoredStage(stage))
      folders.push_back({stageName(stage), stage});
  for (auto [folder, stage] : folders) {
    llvm::SmallString<256> root(schemaPath(config, folder));
    std::error_code ec;
    for (fs::recursive_directory_iterator it(root, ec), end; it != end && !ec;
         it.increment(ec)) {
      fs::file_status status;
      if (fs::status(it->path(), status) ||
          status.type() != fs::file_type::regular_file)
        continue;
      files.push_back({it->path(), stage, status.getSize(),
                       status.getLastModificationTime(),
                       llvm::StringRef(it->path()).contains(".tmp-")});
    }
  }
  return files;
}

llvm::Expected<KernelStoreSummary>
KernelStore::summarize(const KernelStoreConfig &config) {
  KernelStoreSummary summary;
  summary.limitBytes = config.limitBytes;
  for (const FileInfo &file : listFiles(config)) {
    if (file.temporary)
      continue;
    if (!file.stage) {
      ++summary.stepEntries;
      summary.stepBytes += file.size;
      continue;
    }
    ++summary.entries[stageIndex(*file.stage)];
    summary.bytes[stageIndex(*file.stage)] += file.size;
  }
  fs::file_status hits;
  if (!fs::status(stepHitsPath(config.directory), hits))
    summary.stepHits = hits.getSize();
  if (auto buffer = llvm::MemoryBuffer::getFile(schemaPath(config, "stats")))
    summary.counters = parseStoreCounters((*buffer)->getBuffer());
  return summary;
}

namespace {
struct Trimmed {
  uint64_t removed = 0, remaining = 0;
};
} // namespace

/// Removes the least recently used entries until the store holds at most
/// its limit, and temporary files a killed writer left.
static Trimmed trimFiles(const KernelStoreConfig &config) {
  std::vector<FileInfo> files = listFiles(config);
  uint64_t removed = 0, total = 0;
  auto remove = [&](const FileInfo &file) {
    if (!fs::remove(file.path))
      removed += file.size;
  };
  // A temporary file older than an hour was left by a writer that died.
  auto stale = std::chrono::system_clock::now() - std::chrono::hours(1);
  std::vector<FileInfo> entries;
  for (FileInfo &file : files) {
    if (file.temporary) {
      if (file.used < stale)
        remove(file);
      continue;
    }
    total += file.size;
    entries.push_back(std::move(file));
  }
  if (total <= config.limitBytes)
    return {removed, total};
  // Down to 90% of the limit, so that a store at its limit is not trimmed
  // again by every process that writes one entry.
  uint64_t goal = config.limitBytes / 10 * 9;
  llvm::sort(entries, [](const FileInfo &a, const FileInfo &b) {
    return a.used < b.used;
  });
  for (const FileInfo &file : entries) {
    if (total <= goal)
      break;
    remove(file);
    total -= file.size;
  }
  return {removed, total};
}

llvm::Expected<uint64_t> KernelStore::trim(const KernelStoreConfig &config) {
  Trimmed trimmed = trimFiles(config);
  updateCounters(config,
                 [&](KernelStoreCounters &c) { c.bytes = trimmed.remaining; });
  return trimmed.removed;
}

llvm::Error KernelStore::clear(const KernelStoreConfig &config) {
  std::string root = schemaPath(config);
  if (!fs::exists(root))
    return llvm::Error::success();
  for (const FileInfo &file : listFiles(config))
    if (std::error_code ec = fs::remove(file.path))
      return llvm::createStringError("cannot remove " + file.path + ": " +
                                     ec.message());
  fs::remove(stepHitsPath(config.directory));
  updateCounters(config, [](KernelStoreCounters &c) { c = {}; });
  return llvm::Error::success();
}

KernelStore::~KernelStore() {
  KernelStoreCounters mine = counters();
  KernelStoreCounters::PerStage total = mine.total();
  if (total.hits + total.misses + total.writes + total.corrupt == 0 &&
      !mine.remote.any() && mine.bytes == 0)
    return;
  uint64_t estimate = 0;
  updateCounters(config_, [&](KernelStoreCounters &c) {
    c += mine;
    estimate = c.bytes;
  });
  if (mine.bytes == 0 || estimate <= config_.limitBytes)
    return;
  Trimmed trimmed = trimFiles(config_);
  // What other processes wrote since the estimate was read is kept.
  updateCounters(config_, [&](KernelStoreCounters &c) {
    c.bytes = trimmed.remaining + (c.bytes > estimate ? c.bytes - estimate : 0);
  });
}
