//===- RemoteCacheTests.cpp - ACCY_REMOTE_CACHE and its counters ----------===//

#include <catch2/catch.hpp>

#include "accy/Pipeline/RemoteCache.h"

using namespace accy;

TEST_CASE("remote caches: URLs and attributes as ccache writes them",
          "[remote-cache]") {
  auto configs = parseRemoteCacheSpec(
      "http://ci:secret@cache:8080/accy|read-only|connect-timeout=50  "
      "redis://:pw@127.0.0.1:6379/2|timeout=700 "
      "https://cache/x|ca-file=/etc/ca.pem|bearer-token-env=TOKEN "
      "redis+unix:///run/redis.sock?db=1");
  REQUIRE(static_cast<bool>(configs));
  REQUIRE(configs->size() == 4);
  const RemoteBackendConfig &http = (*configs)[0];
  CHECK(http.url == "http://ci:secret@cache:8080/accy");
  CHECK(http.readOnly);
  CHECK(http.connectTimeoutMs == 50);
  CHECK(http.timeoutMs == RemoteBackendConfig::kDefaultTimeoutMs);
  CHECK(!(*configs)[1].readOnly);
  CHECK((*configs)[1].timeoutMs == 700);
  CHECK((*configs)[1].connectTimeoutMs == 100);
  CHECK((*configs)[2].caFile == "/etc/ca.pem");
  CHECK((*configs)[2].bearerTokenEnv == "TOKEN");
  CHECK((*configs)[3].url == "redis+unix:///run/redis.sock?db=1");

  auto none = parseRemoteCacheSpec("   ");
  REQUIRE(static_cast<bool>(none));
  CHECK(none->empty());
}

TEST_CASE("remote caches: a malformed spec is an error without credentials",
          "[remote-cache]") {
  for (const char *spec :
       {"ftp://user:secret@host/x", "http://user:secret@host|timeout=0",
        "http://user:secret@host|timeout=soon", "http://host|compress",
        "user:secret@host"}) {
    auto configs = parseRemoteCacheSpec(spec);
    REQUIRE(!static_cast<bool>(configs));
    std::string message = llvm::toString(configs.takeError());
    INFO(message);
    CHECK(message.find("secret") == std::string::npos);
  }
}

TEST_CASE("remote caches: URLs in messages hide the user and password",
          "[remote-cache]") {
  CHECK(redactUrl("https://ci:secret@cache:8443/accy") ==
        "https://***@cache:8443/accy");
  CHECK(redactUrl("redis://:pw@host:6379/2") == "redis://***@host:6379/2");
  CHECK(redactUrl("http://cache/a@b") == "http://cache/a@b");
  CHECK(redactUrl("redis+unix:///run/redis.sock") ==
        "redis+unix:///run/redis.sock");
}

TEST_CASE("remote caches: a server that cannot be named is off, once",
          "[remote-cache]") {
  auto configs = parseRemoteCacheSpec("redis://:secret@/no-host");
  REQUIRE(static_cast<bool>(configs));
  RemoteCache remote(std::move(*configs));
  auto never = [](llvm::StringRef) { return true; };
  CHECK(!remote.load("k1", never));
  CHECK(!remote.load("k2", never));
  remote.store("k1", "bytes");
  RemoteCacheCounters counts = remote.counters();
  CHECK(counts.errors == 1);
  CHECK(counts.misses == 2);
  CHECK(counts.writes == 0);
  std::vector<std::string> warnings = remote.takeWarnings();
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("redis://***@/no-host is off") != std::string::npos);
  CHECK(warnings[0].find("secret") == std::string::npos);
  CHECK(remote.takeWarnings().empty());
}
