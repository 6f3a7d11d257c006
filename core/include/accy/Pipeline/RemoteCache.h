//===- RemoteCache.h - Kernel store entries on a team's cache servers -*- C++
//-*-===//
//
// The shared half of the kernel store: entries a colleague's or CI's build
// wrote, on servers teams already run for ccache, sccache and Bazel (an
// HTTP server speaking Bazel's remote-cache protocol, or Redis). The local
// store asks the remote one on a miss and writes through after a compile
// (docs/cache.md).
//
// A remote never fails a build: a backend that errs or times out once is
// off for the rest of the process (with one warning), and whatever a server
// answers is checked before use; what does not check is a miss, counted.
// Messages never hold credentials.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_PIPELINE_REMOTECACHE_H
#define ACCY_PIPELINE_REMOTECACHE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace accy {

/// What the remote backends of a process did, all together.
struct RemoteCacheCounters {
  uint64_t hits = 0, misses = 0, writes = 0;
  uint64_t errors = 0, timeouts = 0;
  /// Answers that did not check: garbage, a truncated body, another key's
  /// entry, an action entry whose content is missing or differs.
  uint64_t corrupt = 0;
  uint64_t bytesRead = 0, bytesWritten = 0;
  RemoteCacheCounters &operator+=(const RemoteCacheCounters &other);
  bool any() const;
};

/// One server of `$ACCY_REMOTE_CACHE` and its attributes.
struct RemoteBackendConfig {
  std::string url; // as written: may hold credentials; never printed
  bool readOnly = false;
  unsigned connectTimeoutMs = kDefaultConnectTimeoutMs;
  unsigned timeoutMs = kDefaultTimeoutMs;
  std::string caFile;         // https: the CAs to trust instead of the system's
  std::string bearerTokenEnv; // http: the variable holding a bearer token
  static constexpr unsigned kDefaultConnectTimeoutMs = 100;
  static constexpr unsigned kDefaultTimeoutMs = 2000;
};

/// Parses `$ACCY_REMOTE_CACHE` or `--remote-cache`: URLs separated by
/// spaces, each followed by `|attribute` or `|attribute=value` as ccache's
/// remote_storage takes them: read-only, connect-timeout=MS, timeout=MS,
/// ca-file=PATH, bearer-token-env=NAME. Schemes: http, https, redis,
/// redis+unix. Errors never repeat a credential.
llvm::Expected<std::vector<RemoteBackendConfig>>
parseRemoteCacheSpec(llvm::StringRef spec);

/// `url` without its user and password, for messages.
std::string redactUrl(llvm::StringRef url);

/// What one request to a backend came to.
struct RemoteAnswer {
  enum Kind { Hit, Miss, Stored, Error, Timeout, Corrupt };
  Kind kind = Miss;
  std::string bytes;   // Hit: the entry
  std::string message; // Error, Timeout, Corrupt: why (no credentials)
  uint64_t bytesRead = 0, bytesWritten = 0;
};

/// A server's protocol: an entry's bytes under a kernel store key.
class RemoteBackend {
public:
  virtual ~RemoteBackend();
  virtual RemoteAnswer get(llvm::StringRef key) = 0;
  virtual RemoteAnswer put(llvm::StringRef key, llvm::StringRef bytes) = 0;
};

/// A backend for `config`'s scheme; nothing is connected yet.
llvm::Expected<std::unique_ptr<RemoteBackend>>
createRemoteBackend(const RemoteBackendConfig &config);

/// The backends of a process, asked in order.
class RemoteCache {
public:
  explicit RemoteCache(std::vector<RemoteBackendConfig> configs);
  ~RemoteCache();
  RemoteCache(const RemoteCache &) = delete;
  RemoteCache &operator=(const RemoteCache &) = delete;

  /// The first entry under `key` that `accept` takes (it checks the entry
  /// and keeps what it parsed); none when no backend has one.
  std::optional<std::string>
  load(llvm::StringRef key, llvm::function_ref<bool(llvm::StringRef)> accept);
  /// Writes `bytes` under `key` to every backend that is not read-only.
  void store(llvm::StringRef key, llvm::StringRef bytes);

  RemoteCacheCounters counters() const;
  /// Why backends went off (once each), for the front door to print.
  std::vector<std::string> takeWarnings();

private:
  struct Backend;
  bool usable(Backend &backend);
  void count(Backend &backend, const RemoteAnswer &answer);

  mutable std::mutex mutex;
  std::vector<std::unique_ptr<Backend>> backends;
  RemoteCacheCounters counts;
  std::vector<std::string> warnings;
};

} // namespace accy

#endif // ACCY_PIPELINE_REMOTECACHE_H
