//===- RemoteBackends.h - The protocols of RemoteCache ----------*- C++ -*-===//
//
// Private to the Pipeline library: libcurl's and hiredis's headers stay in
// the two files that speak their protocols.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LIB_PIPELINE_REMOTEBACKENDS_H
#define ACCY_LIB_PIPELINE_REMOTEBACKENDS_H

#include "accy/Pipeline/RemoteCache.h"

namespace accy {

/// Bazel's remote-cache HTTP protocol: an action result under
/// `<url>/ac/<sha256>` naming the entry, stored as content under
/// `<url>/cas/<sha256>` (HttpCacheBackend.cpp).
llvm::Expected<std::unique_ptr<RemoteBackend>>
createHttpBackend(const RemoteBackendConfig &config);

/// Redis: the entry under `accy:<schema>:<key>` (RedisCacheBackend.cpp).
llvm::Expected<std::unique_ptr<RemoteBackend>>
createRedisBackend(const RemoteBackendConfig &config);

/// The schema of remote entries, as the local store's folder names it.
inline constexpr llvm::StringLiteral kRemoteSchema = "v1";

/// `message` with every occurrence of `secret` masked: libraries' own
/// messages may repeat what they were given.
std::string withoutSecret(std::string message, llvm::StringRef secret);

} // namespace accy

#endif // ACCY_LIB_PIPELINE_REMOTEBACKENDS_H
