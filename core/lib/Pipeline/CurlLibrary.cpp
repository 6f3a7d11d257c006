//===- CurlLibrary.cpp - libcurl, loaded on first use ---------------------===//

#include "CurlLibrary.h"

#include "llvm/Support/DynamicLibrary.h"

#include <mutex>

using namespace accy;

/// The soname of libcurl's ABI 4, unchanged since curl 7.16 (2006).
#define ACCY_LIBCURL_SONAME "libcurl.so.4"

/// Opens libcurl and resolves every entry point; the message says what is
/// missing. Called once per process.
static llvm::Expected<CurlLibrary> openCurlLibrary() {
  std::string error;
  llvm::sys::DynamicLibrary library =
      llvm::sys::DynamicLibrary::getPermanentLibrary(ACCY_LIBCURL_SONAME,
                                                     &error);
  if (!library.isValid())
    return llvm::createStringError(
        "cannot load " ACCY_LIBCURL_SONAME
        " for the HTTP remote cache (install libcurl4): " +
        error);
  CurlLibrary curl;
  std::string missing;
  auto resolve = [&](auto &entry, const char *name) {
    entry = reinterpret_cast<std::remove_reference_t<decltype(entry)>>(
        library.getAddressOfSymbol(name));
    if (!entry)
      missing += (missing.empty() ? "" : ", ") + std::string(name);
  };
  resolve(curl.globalInit, "curl_global_init");
  resolve(curl.easyInit, "curl_easy_init");
  resolve(curl.easyReset, "curl_easy_reset");
  resolve(curl.easySetopt, "curl_easy_setopt");
  resolve(curl.easyPerform, "curl_easy_perform");
  resolve(curl.easyGetinfo, "curl_easy_getinfo");
  resolve(curl.easyStrerror, "curl_easy_strerror");
  resolve(curl.easyCleanup, "curl_easy_cleanup");
  resolve(curl.slistAppend, "curl_slist_append");
  resolve(curl.slistFreeAll, "curl_slist_free_all");
  if (!missing.empty())
    return llvm::createStringError(ACCY_LIBCURL_SONAME " lacks " + missing);
  if (CURLcode code = curl.globalInit(CURL_GLOBAL_DEFAULT))
    return llvm::createStringError("libcurl cannot initialise: " +
                                   llvm::Twine(curl.easyStrerror(code)));
  return curl;
}

llvm::Expected<const CurlLibrary &> accy::loadCurlLibrary() {
  // The outcome, success or not, is the process's: loading is tried once.
  static std::once_flag once;
  static std::optional<CurlLibrary> library;
  static std::string error;
  std::call_once(once, [] {
    llvm::Expected<CurlLibrary> opened = openCurlLibrary();
    if (opened)
      library = *opened;
    else
      error = llvm::toString(opened.takeError());
  });
  if (!library)
    return llvm::createStringError(error);
  return *library;
}
