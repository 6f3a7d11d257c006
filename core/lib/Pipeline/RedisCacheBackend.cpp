//===- RedisCacheBackend.cpp - Entries as Redis strings -------------------===//
//
// `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]` or
// `redis+unix://[[USER]:PASSWORD@]/SOCKET[?db=DB]`. An entry is the string
// under `accy:v1:<key>`, written without a TTL: a server that is meant to
// stay within its memory evicts with `maxmemory-policy allkeys-lru`, as
// ccache's and sccache's Redis users set it up. The entry carries its key
// and content hash, which the kernel store checks.
//
//===----------------------------------------------------------------------===//

#include "RemoteBackends.h"

#include "llvm/ADT/StringExtras.h"

#include <hiredis/hiredis.h>

#include <cerrno>

using namespace accy;

namespace {
struct RedisAddress {
  std::string host, socket, user, password;
  int port = 6379;
  unsigned db = 0;
};

class RedisCacheBackend : public RemoteBackend {
public:
  RedisCacheBackend(const RemoteBackendConfig &config, RedisAddress address)
      : config(config), address(std::move(address)) {}
  ~RedisCacheBackend() override {
    if (context)
      redisFree(context);
  }
  RemoteAnswer get(llvm::StringRef key) override;
  RemoteAnswer put(llvm::StringRef key, llvm::StringRef bytes) override;

private:
  /// Connects (once), authenticates and selects the database; an answer
  /// of kind Error or Timeout when that fails.
  std::optional<RemoteAnswer> connect();
  /// Runs a command; the reply, or an answer saying why there is none.
  redisReply *command(RemoteAnswer &answer, int argc, const char **argv,
                      const size_t *lengths);
  RemoteAnswer failure(llvm::StringRef what, llvm::StringRef why,
                       bool timedOut);

  RemoteBackendConfig config;
  RedisAddress address;
  redisContext *context = nullptr;
};
} // namespace

static timeval toTimeval(unsigned ms) {
  return {static_cast<time_t>(ms / 1000),
          static_cast<suseconds_t>(ms % 1000 * 1000)};
}

RemoteAnswer RedisCacheBackend::failure(llvm::StringRef what,
                                        llvm::StringRef why, bool timedOut) {
  RemoteAnswer answer;
  answer.kind = timedOut ? RemoteAnswer::Timeout : RemoteAnswer::Error;
  answer.message = withoutSecret((what + ": " + why).str(), address.password);
  return answer;
}

/// Whether the context's last error was a timeout (hiredis reports one as
/// an I/O error with errno set).
static bool timedOut(const redisContext *context) {
  return context->err == REDIS_ERR_IO &&
         (errno == EAGAIN || errno == EWOULDBLOCK || errno == ETIMEDOUT ||
          errno == EINPROGRESS);
}

redisReply *RedisCacheBackend::command(RemoteAnswer &answer, int argc,
                                       const char **argv,
                                       const size_t *lengths) {
  auto *reply =
      static_cast<redisReply *>(redisCommandArgv(context, argc, argv, lengths));
  if (!reply) {
    answer = failure(argv[0], context->errstr, timedOut(context));
    return nullptr;
  }
  if (reply->type == REDIS_REPLY_ERROR) {
    answer = failure(argv[0], llvm::StringRef(reply->str, reply->len), false);
    freeReplyObject(reply);
    return nullptr;
  }
  return reply;
}

std::optional<RemoteAnswer> RedisCacheBackend::connect() {
  if (context)
    return std::nullopt;
  timeval connectTimeout = toTimeval(config.connectTimeoutMs);
  context =
      address.socket.empty()
          ? redisConnectWithTimeout(address.host.c_str(), address.port,
                                    connectTimeout)
          : redisConnectUnixWithTimeout(address.socket.c_str(), connectTimeout);
  if (!context || context->err) {
    RemoteAnswer answer =
        failure("connect", context ? context->errstr : "out of memory",
                context && timedOut(context));
    if (context) {
      redisFree(context);
      context = nullptr;
    }
    return answer;
  }
  redisSetTimeout(context, toTimeval(config.timeoutMs));
  RemoteAnswer answer;
  auto run = [&](std::vector<std::string> words) {
    std::vector<const char *> argv;
    std::vector<size_t> lengths;
    for (const std::string &word : words) {
      argv.push_back(word.c_str());
      lengths.push_back(word.size());
    }
    redisReply *reply =
        command(answer, argv.size(), argv.data(), lengths.data());
    if (reply)
      freeReplyObject(reply);
    return reply != nullptr;
  };
  bool ready = true;
  if (!address.password.empty())
    ready = address.user.empty()
                ? run({"AUTH", address.password})
                : run({"AUTH", address.user, address.password});
  if (ready && address.db != 0)
    ready = run({"SELECT", std::to_string(address.db)});
  if (ready)
    return std::nullopt;
  redisFree(context);
  context = nullptr;
  return answer;
}

static std::string redisKey(llvm::StringRef key) {
  return ("accy:" + kRemoteSchema + ":" + key).str();
}

RemoteAnswer RedisCacheBackend::get(llvm::StringRef key) {
  if (std::optional<RemoteAnswer> failed = connect())
    return *failed;
  std::string name = redisKey(key);
  const char *argv[] = {"GET", name.c_str()};
  size_t lengths[] = {3, name.size()};
  RemoteAnswer answer;
  redisReply *reply = command(answer, 2, argv, lengths);
  if (!reply)
    return answer;
  if (reply->type == REDIS_REPLY_STRING) {
    answer.kind = RemoteAnswer::Hit;
    answer.bytes.assign(reply->str, reply->len);
    answer.bytesRead = reply->len;
  } else if (reply->type != REDIS_REPLY_NIL) {
    answer.kind = RemoteAnswer::Corrupt;
    answer.message = "GET answered something other than a string";
  }
  freeReplyObject(reply);
  return answer;
}

RemoteAnswer RedisCacheBackend::put(llvm::StringRef key,
                                    llvm::StringRef bytes) {
  if (std::optional<RemoteAnswer> failed = connect())
    return *failed;
  std::string name = redisKey(key);
  const char *argv[] = {"SET", name.c_str(), bytes.data()};
  size_t lengths[] = {3, name.size(), bytes.size()};
  RemoteAnswer answer;
  redisReply *reply = command(answer, 3, argv, lengths);
  if (!reply)
    return answer;
  freeReplyObject(reply);
  answer.kind = RemoteAnswer::Stored;
  answer.bytesWritten = bytes.size();
  return answer;
}

/// `[[USER]:PASSWORD@]` at the front of `rest`, taken off it.
static void takeCredentials(llvm::StringRef &rest, RedisAddress &address) {
  size_t end = rest.find('/', rest.starts_with("/") ? 1 : 0);
  size_t at = rest.take_front(end).rfind('@');
  if (at == llvm::StringRef::npos)
    return;
  auto [user, password] = rest.take_front(at).split(':');
  address.user = user.str();
  address.password = password.str();
  rest = rest.drop_front(at + 1);
}

static llvm::Expected<RedisAddress> parseAddress(llvm::StringRef url) {
  RedisAddress address;
  auto [scheme, rest] = url.split("://");
  takeCredentials(rest, address);
  auto bad = [&](const char *expected) {
    return llvm::createStringError("remote cache '" + redactUrl(url) +
                                   "': expected " + expected);
  };
  if (scheme == "redis+unix") {
    auto [socket, query] = rest.split('?');
    if (!socket.starts_with("/"))
      return bad("redis+unix:///path/to/socket[?db=N]");
    address.socket = socket.str();
    if (!query.empty() &&
        (!query.consume_front("db=") || query.getAsInteger(10, address.db)))
      return bad("redis+unix:///path/to/socket[?db=N]");
    return address;
  }
  auto [hostPort, db] = rest.split('/');
  auto [host, port] = hostPort.rsplit(':');
  address.host = host.str();
  if (host.empty() ||
      (hostPort.contains(':') && (port.getAsInteger(10, address.port) ||
                                  address.port <= 0 || address.port > 65535)) ||
      (!db.empty() && db.getAsInteger(10, address.db)))
    return bad("redis://[:password@]host[:port][/db]");
  return address;
}

llvm::Expected<std::unique_ptr<RemoteBackend>>
accy::createRedisBackend(const RemoteBackendConfig &config) {
  auto address = parseAddress(config.url);
  if (!address)
    return address.takeError();
  return std::make_unique<RedisCacheBackend>(config, std::move(*address));
}
