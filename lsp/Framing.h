//===- Framing.h - The LSP base protocol's message framing -----*- C++ -*-===//
//
// Splits a byte stream into message bodies framed by `Content-Length: N`
// headers. Framing errors (a missing, malformed or oversized length, an
// endless header block, a body that turns out to hold the next header
// because the announced length was wrong) are results, not aborts; after
// one the framer resynchronizes on the next `Content-Length:` header so
// the server keeps serving.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LSP_FRAMING_H
#define ACCY_LSP_FRAMING_H

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace accy::lsp {

struct FramedMessage {
  /// The body, when the frame was good.
  std::string body;
  /// Why the frame was bad; empty for a good one.
  std::string error;
  bool ok() const { return error.empty(); }
};

class MessageFramer {
public:
  /// Bodies longer than this are refused (and skipped).
  static constexpr size_t kMaxBodyBytes = 64u << 20;
  static constexpr size_t kMaxHeaderBytes = 8u << 10;

  void feed(std::string_view bytes) { buffer.append(bytes); }
  /// The next complete message or framing error; nullopt when more bytes
  /// are needed.
  std::optional<FramedMessage> next();
  /// Adds the header for `body`.
  static std::string frame(std::string_view body);

private:
  FramedMessage fail(std::string error);
  std::string buffer;
  /// Bytes of an oversized body still to be dropped.
  size_t skipping = 0;
};

} // namespace accy::lsp

#endif // ACCY_LSP_FRAMING_H
