//===- HttpCacheBackend.cpp - Bazel's remote-cache HTTP protocol ----------===//
//
// An entry is content (`<url>/cas/<sha256 of the entry>`) and an action
// result (`<url>/ac/<sha256 of "accy:v1:" + key>`), a serialized
// build.bazel.remote.execution.v2.ActionResult naming the content's digest
// as its one output file. Content goes first, so servers that check an
// action result's outputs exist (bazel-remote) accept it. Whatever a
// server answers is checked: the content's sha256 and size against the
// digest the action result names.
//
// The few protobuf fields are encoded by hand (no protobuf dependency):
//   ActionResult { repeated OutputFile output_files = 2; }
//   OutputFile   { string path = 1; Digest digest = 2; }
//   Digest       { string hash = 1; int64 size_bytes = 2; }
//
//===----------------------------------------------------------------------===//

#include "CurlLibrary.h"
#include "RemoteBackends.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"

#include <cstdlib>

using namespace accy;

static std::string sha256Hex(llvm::StringRef bytes) {
  std::array<uint8_t, 32> digest = llvm::SHA256::hash(llvm::ArrayRef(
      reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size()));
  return llvm::toHex(digest, /*LowerCase=*/true);
}

//===----------------------------------------------------------------------===//
// ActionResult
//===----------------------------------------------------------------------===//

namespace {
struct Digest {
  std::string hash;
  uint64_t size = 0;
};
} // namespace

static void putVarint(std::string &out, uint64_t value) {
  do {
    uint8_t byte = value & 0x7f;
    value >>= 7;
    out.push_back(static_cast<char>(byte | (value ? 0x80 : 0)));
  } while (value);
}

static void putBytesField(std::string &out, unsigned field,
                          llvm::StringRef bytes) {
  putVarint(out, field << 3 | 2);
  putVarint(out, bytes.size());
  out += bytes;
}

/// The name the output file has in the action result: a constant, so the
/// entry names nothing of the machine that wrote it.
static constexpr llvm::StringLiteral kOutputPath = "accy-kernel-store-entry";

static std::string encodeActionResult(const Digest &content) {
  std::string digest;
  putBytesField(digest, 1, content.hash);
  putVarint(digest, 2 << 3 | 0);
  putVarint(digest, content.size);
  std::string outputFile;
  putBytesField(outputFile, 1, kOutputPath);
  putBytesField(outputFile, 2, digest);
  std::string result;
  putBytesField(result, 2, outputFile);
  return result;
}

/// A protobuf message's fields, one at a time; false at the end or on
/// bytes that are not a message.
namespace {
class FieldReader {
public:
  explicit FieldReader(llvm::StringRef bytes) : rest(bytes) {}
  bool next(unsigned &field, unsigned &wireType, uint64_t &varint,
            llvm::StringRef &bytes) {
    if (rest.empty() || !readVarint(varint))
      return false;
    field = varint >> 3;
    wireType = varint & 7;
    switch (wireType) {
    case 0:
      return readVarint(varint);
    case 1:
    case 5: {
      size_t width = wireType == 1 ? 8 : 4;
      if (rest.size() < width)
        return false;
      rest = rest.drop_front(width);
      return true;
    }
    case 2:
      if (!readVarint(varint) || varint > rest.size())
        return false;
      bytes = rest.take_front(varint);
      rest = rest.drop_front(varint);
      return true;
    default:
      return false;
    }
  }
  bool atEnd() const { return rest.empty(); }

private:
  bool readVarint(uint64_t &value) {
    value = 0;
    for (unsigned shift = 0; shift < 64 && !rest.empty(); shift += 7) {
      uint8_t byte = rest.front();
      rest = rest.drop_front();
      value |= uint64_t(byte & 0x7f) << shift;
      if (!(byte & 0x80))
        return true;
    }
    return false;
  }
  llvm::StringRef rest;
};
} // namespace

/// The digest of the output file an action result names, when it is one
/// this backend wrote (or one like it).
static std::optional<Digest> decodeActionResult(llvm::StringRef bytes) {
  auto each = [](llvm::StringRef message, auto onField) {
    FieldReader reader(message);
    unsigned field, wireType;
    uint64_t varint;
    llvm::StringRef value;
    while (reader.next(field, wireType, varint, value))
      onField(field, wireType, varint, value);
    return reader.atEnd();
  };
  std::optional<Digest> found;
  bool wellFormed = each(bytes, [&](unsigned field, unsigned wireType, uint64_t,
                                    llvm::StringRef outputFile) {
    if (field != 2 || wireType != 2 || found)
      return;
    std::string path;
    std::optional<Digest> digest;
    each(outputFile, [&](unsigned f, unsigned w, uint64_t, llvm::StringRef v) {
      if (f == 1 && w == 2)
        path = v.str();
      if (f != 2 || w != 2)
        return;
      Digest d;
      bool sized = false;
      each(v, [&](unsigned g, unsigned x, uint64_t n, llvm::StringRef s) {
        if (g == 1 && x == 2)
          d.hash = s.str();
        if (g == 2 && x == 0) {
          d.size = n;
          sized = true;
        }
      });
      if (d.hash.size() == 64 && sized)
        digest = d;
    });
    if (path == kOutputPath)
      found = digest;
  });
  if (!wellFormed)
    return std::nullopt;
  return found;
}

//===----------------------------------------------------------------------===//
// Requests
//===----------------------------------------------------------------------===//

namespace {
struct Response {
  long status = 0;
  std::string body;
  CURLcode code = CURLE_OK;
  std::string error;
};

class HttpCacheBackend : public RemoteBackend {
public:
  HttpCacheBackend(const RemoteBackendConfig &config,
                   const CurlLibrary &lib, CURL *curl);
  ~HttpCacheBackend() override;
  RemoteAnswer get(llvm::StringRef key) override;
  RemoteAnswer put(llvm::StringRef key, llvm::StringRef bytes) override;

private:
  enum class Method { Get, Head, Put };
  Response request(Method method, const std::string &path,
                   llvm::StringRef body = {});
  /// An answer for a request that did not come back as expected.
  RemoteAnswer failure(const Response &response, llvm::StringRef what);

  RemoteBackendConfig config;
  std::string base;            // the URL, without a trailing slash
  std::string password, token; // masked in every message
  const CurlLibrary &lib;
  CURL *curl;
  curl_slist *headers = nullptr;
};
} // namespace

static std::string acPath(llvm::StringRef key) {
  return "/ac/" + sha256Hex(("accy:" + kRemoteSchema + ":" + key).str());
}

HttpCacheBackend::HttpCacheBackend(const RemoteBackendConfig &config,
                                   const CurlLibrary &lib, CURL *curl)
    : config(config), base(llvm::StringRef(config.url).rtrim('/').str()),
      lib(lib), curl(curl) {
  llvm::StringRef authority =
      llvm::StringRef(config.url).split("://").second.split('/').first;
  if (authority.contains('@'))
    password = authority.rsplit('@').first.split(':').second.str();
  // No "Expect: 100-continue": a server that does not answer it would cost
  // every upload a second.
  headers = lib.slistAppend(headers, "Expect:");
  if (!config.bearerTokenEnv.empty())
    if (const char *value = std::getenv(config.bearerTokenEnv.c_str())) {
      headers = lib.slistAppend(
          headers, ("Authorization: Bearer " + std::string(value)).c_str());
      token = value;
    }
}

HttpCacheBackend::~HttpCacheBackend() {
  lib.slistFreeAll(headers);
  lib.easyCleanup(curl);
}

static size_t appendBody(char *data, size_t size, size_t count, void *out) {
  static_cast<std::string *>(out)->append(data, size * count);
  return size * count;
}

Response HttpCacheBackend::request(Method method, const std::string &path,
                                   llvm::StringRef body) {
  Response response;
  char error[CURL_ERROR_SIZE] = "";
  lib.easyReset(curl);
  std::string url = base + path;
  lib.easySetopt(curl, CURLOPT_URL, url.c_str());
  lib.easySetopt(curl, CURLOPT_NOSIGNAL, 1L);
  lib.easySetopt(curl, CURLOPT_ERRORBUFFER, error);
  lib.easySetopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
                 long(config.connectTimeoutMs));
  lib.easySetopt(curl, CURLOPT_TIMEOUT_MS, long(config.timeoutMs));
  lib.easySetopt(curl, CURLOPT_HTTPHEADER, headers);
  lib.easySetopt(curl, CURLOPT_WRITEFUNCTION, appendBody);
  lib.easySetopt(curl, CURLOPT_WRITEDATA, &response.body);
  if (!config.caFile.empty())
    lib.easySetopt(curl, CURLOPT_CAINFO, config.caFile.c_str());
  if (method == Method::Head)
    lib.easySetopt(curl, CURLOPT_NOBODY, 1L);
  if (method == Method::Put) {
    lib.easySetopt(curl, CURLOPT_CUSTOMREQUEST, "PUT");
    lib.easySetopt(curl, CURLOPT_POSTFIELDS, body.data());
    lib.easySetopt(curl, CURLOPT_POSTFIELDSIZE_LARGE,
                   curl_off_t(body.size()));
  }
  response.code = lib.easyPerform(curl);
  lib.easyGetinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
  if (response.code != CURLE_OK)
    response.error = withoutSecret(
        withoutSecret(*error ? error : lib.easyStrerror(response.code),
                      password),
        token);
  return response;
}

RemoteAnswer HttpCacheBackend::failure(const Response &response,
                                       llvm::StringRef what) {
  RemoteAnswer answer;
  answer.kind = response.code == CURLE_OPERATION_TIMEDOUT
                    ? RemoteAnswer::Timeout
                    : RemoteAnswer::Error;
  answer.message = (what + ": " +
                    (response.code != CURLE_OK
                         ? response.error
                         : "HTTP status " + std::to_string(response.status)))
                       .str();
  return answer;
}

RemoteAnswer HttpCacheBackend::get(llvm::StringRef key) {
  RemoteAnswer answer;
  Response action = request(Method::Get, acPath(key));
  if (action.code == CURLE_OK && action.status == 404)
    return answer;
  if (action.code != CURLE_OK || action.status != 200)
    return failure(action, "GET /ac/");
  answer.bytesRead += action.body.size();
  answer.kind = RemoteAnswer::Corrupt;
  std::optional<Digest> digest = decodeActionResult(action.body);
  if (!digest) {
    answer.message = "an action result that names no entry";
    return answer;
  }
  Response content = request(Method::Get, "/cas/" + digest->hash);
  if (content.code != CURLE_OK ||
      (content.status != 200 && content.status != 404))
    return failure(content, "GET /cas/");
  answer.bytesRead += content.body.size();
  if (content.status == 404) {
    answer.message = "an action result whose content is missing";
    return answer;
  }
  if (content.body.size() != digest->size ||
      sha256Hex(content.body) != digest->hash) {
    answer.message = "content that does not match its digest";
    return answer;
  }
  answer.kind = RemoteAnswer::Hit;
  answer.bytes = std::move(content.body);
  return answer;
}

RemoteAnswer HttpCacheBackend::put(llvm::StringRef key, llvm::StringRef bytes) {
  Digest digest{sha256Hex(bytes), bytes.size()};
  RemoteAnswer answer;
  std::string casPath = "/cas/" + digest.hash;
  // Content another key or another machine already wrote is not sent again.
  Response known = request(Method::Head, casPath);
  if (known.code != CURLE_OK)
    return failure(known, "HEAD /cas/");
  if (known.status != 200) {
    Response content = request(Method::Put, casPath, bytes);
    if (content.code != CURLE_OK || content.status / 100 != 2)
      return failure(content, "PUT /cas/");
    answer.bytesWritten += bytes.size();
  }
  std::string actionResult = encodeActionResult(digest);
  Response action = request(Method::Put, acPath(key), actionResult);
  if (action.code != CURLE_OK || action.status / 100 != 2)
    return failure(action, "PUT /ac/");
  answer.bytesWritten += actionResult.size();
  answer.kind = RemoteAnswer::Stored;
  return answer;
}

llvm::Expected<std::unique_ptr<RemoteBackend>>
accy::createHttpBackend(const RemoteBackendConfig &config) {
  llvm::Expected<const CurlLibrary &> lib = loadCurlLibrary();
  if (!lib)
    return lib.takeError();
  CURL *curl = lib->easyInit();
  if (!curl)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "libcurl cannot make a handle");
  return std::make_unique<HttpCacheBackend>(config, *lib, curl);
}
