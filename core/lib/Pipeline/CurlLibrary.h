//===- CurlLibrary.h - libcurl, loaded on first use -------------*- C++ -*-===//
//
// libcurl and what it links (TLS, Kerberos, LDAP, HTTP/2: 28 libraries) cost
// every process about 3 ms to load and relocate, more than an `accyc stage`
// step spends on the early stages of a small file. Only an HTTP remote cache
// needs it, so it is opened with dlopen when the first HTTP backend is made,
// and a process without one never maps it. docs/cache.md says so.
//
//===----------------------------------------------------------------------===//

#ifndef ACCY_PIPELINE_CURLLIBRARY_H
#define ACCY_PIPELINE_CURLLIBRARY_H

#include "llvm/Support/Error.h"

#include <curl/curl.h>

namespace accy {

/// The libcurl entry points the HTTP backend calls.
struct CurlLibrary {
  CURLcode (*globalInit)(long flags);
  CURL *(*easyInit)();
  void (*easyReset)(CURL *);
  CURLcode (*easySetopt)(CURL *, CURLoption, ...);
  CURLcode (*easyPerform)(CURL *);
  CURLcode (*easyGetinfo)(CURL *, CURLINFO, ...);
  const char *(*easyStrerror)(CURLcode);
  void (*easyCleanup)(CURL *);
  curl_slist *(*slistAppend)(curl_slist *, const char *);
  void (*slistFreeAll)(curl_slist *);
};

/// libcurl, opened and initialised (curl_global_init) by the first call;
/// an error value naming the library when it cannot be loaded.
llvm::Expected<const CurlLibrary &> loadCurlLibrary();

} // namespace accy

#endif // ACCY_PIPELINE_CURLLIBRARY_H
