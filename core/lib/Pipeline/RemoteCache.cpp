//===- RemoteCache.cpp - Kernel store entries on a team's cache servers ---===//

#include "accy/Pipeline/RemoteCache.h"

#include "RemoteBackends.h"

#include "llvm/ADT/StringExtras.h"

using namespace accy;

RemoteCacheCounters &
RemoteCacheCounters::operator+=(const RemoteCacheCounters &other) {
  hits += other.hits;
  misses += other.misses;
  writes += other.writes;
  errors += other.errors;
  timeouts += other.timeouts;
  corrupt += other.corrupt;
  bytesRead += other.bytesRead;
  bytesWritten += other.bytesWritten;
  return *this;
}

bool RemoteCacheCounters::any() const {
  return hits || misses || writes || errors || timeouts || corrupt;
}

std::string accy::redactUrl(llvm::StringRef url) {
  size_t scheme = url.find("://");
  size_t start = scheme == llvm::StringRef::npos ? 0 : scheme + 3;
  size_t end = url.find_first_of("/?#", start);
  llvm::StringRef authority = url.slice(start, end);
  size_t at = authority.rfind('@');
  if (at == llvm::StringRef::npos)
    return url.str();
  return (url.take_front(start) + "***@" + url.substr(start + at + 1)).str();
}

std::string accy::withoutSecret(std::string message, llvm::StringRef secret) {
  if (secret.empty())
    return message;
  for (size_t at; (at = message.find(secret.str())) != std::string::npos;)
    message.replace(at, secret.size(), "***");
  return message;
}

static llvm::Expected<unsigned> parseMilliseconds(llvm::StringRef name,
                                                  llvm::StringRef value) {
  unsigned ms;
  if (value.getAsInteger(10, ms) || ms == 0)
    return llvm::createStringError("remote cache attribute " + name + "=" +
                                   value +
                                   " is not a positive number of milliseconds");
  return ms;
}

static llvm::Error applyAttribute(RemoteBackendConfig &config,
                                  llvm::StringRef attribute) {
  auto [name, value] = attribute.split('=');
  bool hasValue = attribute.contains('=');
  if (name == "read-only" && !hasValue) {
    config.readOnly = true;
    return llvm::Error::success();
  }
  if (name == "connect-timeout" || name == "timeout") {
    auto ms = parseMilliseconds(name, value);
    if (!ms)
      return ms.takeError();
    (name == "timeout" ? config.timeoutMs : config.connectTimeoutMs) = *ms;
    return llvm::Error::success();
  }
  if ((name == "ca-file" || name == "bearer-token-env") && !value.empty()) {
    (name == "ca-file" ? config.caFile : config.bearerTokenEnv) = value.str();
    return llvm::Error::success();
  }
  return llvm::createStringError(
      "unknown remote cache attribute '" + name +
      "' (expected read-only, connect-timeout=MS, timeout=MS, "
      "ca-file=PATH or bearer-token-env=NAME)");
}

llvm::Expected<std::vector<RemoteBackendConfig>>
accy::parseRemoteCacheSpec(llvm::StringRef spec) {
  std::vector<RemoteBackendConfig> configs;
  llvm::SmallVector<llvm::StringRef> words, parts;
  spec.split(words, ' ', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef word : words) {
    parts.clear();
    word.split(parts, '|');
    RemoteBackendConfig config;
    config.url = parts.front().str();
    llvm::StringRef scheme = parts.front().split("://").first;
    if (!parts.front().contains("://") ||
        !llvm::is_contained({"http", "https", "redis", "redis+unix"}, scheme))
      return llvm::createStringError(
          "remote cache '" + redactUrl(parts.front()) +
          "' is not an http://, https://, redis:// or "
          "redis+unix:// URL");
    for (llvm::StringRef attribute : llvm::ArrayRef(parts).drop_front())
      if (llvm::Error err = applyAttribute(config, attribute))
        return std::move(err);
    configs.push_back(std::move(config));
  }
  return configs;
}

RemoteBackend::~RemoteBackend() = default;

llvm::Expected<std::unique_ptr<RemoteBackend>>
accy::createRemoteBackend(const RemoteBackendConfig &config) {
  if (llvm::StringRef(config.url).starts_with("http"))
    return createHttpBackend(config);
  return createRedisBackend(config);
}

//===----------------------------------------------------------------------===//
// The backends of a process
//===----------------------------------------------------------------------===//

struct RemoteCache::Backend {
  RemoteBackendConfig config;
  std::unique_ptr<RemoteBackend> protocol; // made on first use
  bool off = false;
};

RemoteCache::RemoteCache(std::vector<RemoteBackendConfig> configs) {
  for (RemoteBackendConfig &config : configs)
    backends.push_back(
        std::make_unique<Backend>(Backend{std::move(config), nullptr, false}));
}

RemoteCache::~RemoteCache() = default;

bool RemoteCache::usable(Backend &backend) {
  if (backend.off)
    return false;
  if (backend.protocol)
    return true;
  auto protocol = createRemoteBackend(backend.config);
  if (!protocol) {
    RemoteAnswer answer;
    answer.kind = RemoteAnswer::Error;
    answer.message = llvm::toString(protocol.takeError());
    count(backend, answer);
    return false;
  }
  backend.protocol = std::move(*protocol);
  return true;
}

void RemoteCache::count(Backend &backend, const RemoteAnswer &answer) {
  counts.bytesRead += answer.bytesRead;
  counts.bytesWritten += answer.bytesWritten;
  switch (answer.kind) {
  case RemoteAnswer::Hit:
  case RemoteAnswer::Miss:
    return; // counted once per lookup, by load
  case RemoteAnswer::Stored:
    ++counts.writes;
    return;
  case RemoteAnswer::Corrupt:
    ++counts.corrupt;
    return;
  case RemoteAnswer::Error:
  case RemoteAnswer::Timeout:
    ++(answer.kind == RemoteAnswer::Timeout ? counts.timeouts : counts.errors);
    // One error costs a process one timeout at most: the server is down,
    // slow or refuses us, and will not be better in a second.
    backend.off = true;
    warnings.push_back("remote cache " + redactUrl(backend.config.url) +
                       " is off for the rest of this run: " + answer.message);
    return;
  }
}

std::optional<std::string>
RemoteCache::load(llvm::StringRef key,
                  llvm::function_ref<bool(llvm::StringRef)> accept) {
  std::lock_guard<std::mutex> lock(mutex);
  for (std::unique_ptr<Backend> &backend : backends) {
    if (!usable(*backend))
      continue;
    RemoteAnswer answer = backend->protocol->get(key);
    if (answer.kind == RemoteAnswer::Hit && !accept(answer.bytes)) {
      answer.kind = RemoteAnswer::Corrupt;
      answer.message = "the entry does not check";
    }
    count(*backend, answer);
    if (answer.kind == RemoteAnswer::Hit) {
      ++counts.hits;
      return std::move(answer.bytes);
    }
  }
  ++counts.misses;
  return std::nullopt;
}

void RemoteCache::store(llvm::StringRef key, llvm::StringRef bytes) {
  std::lock_guard<std::mutex> lock(mutex);
  for (std::unique_ptr<Backend> &backend : backends)
    if (!backend->config.readOnly && usable(*backend))
      count(*backend, backend->protocol->put(key, bytes));
}

RemoteCacheCounters RemoteCache::counters() const {
  std::lock_guard<std::mutex> lock(mutex);
  return counts;
}

std::vector<std::string> RemoteCache::takeWarnings() {
  std::lock_guard<std::mutex> lock(mutex);
  return std::exchange(warnings, {});
}
