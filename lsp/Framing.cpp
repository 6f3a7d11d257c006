//===- Framing.cpp - The LSP base protocol's message framing --------------===//

#include "Framing.h"

#include <cctype>
#include <charconv>

using namespace accy::lsp;

static constexpr std::string_view kLengthHeader = "content-length:";
static constexpr std::string_view kHeaderEnd = "\r\n\r\n";

static bool startsWithNoCase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size())
    return false;
  for (size_t i = 0; i < prefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(text[i])) != prefix[i])
      return false;
  return true;
}

/// Offset of the next plausible header block at or after `from`: a
/// `Content-Length:` followed by header text (no JSON punctuation) up to a
/// blank line; npos when there is none yet.
static size_t findLengthHeader(std::string_view text, size_t from) {
  for (size_t i = from; i + kLengthHeader.size() <= text.size(); ++i) {
    if (!startsWithNoCase(text.substr(i), kLengthHeader))
      continue;
    size_t end = text.find(kHeaderEnd, i);
    if (end == std::string_view::npos)
      return i; // Possibly a header still arriving.
    std::string_view block = text.substr(i, end - i);
    if (block.find_first_of("\"{}[]") == std::string_view::npos)
      return i;
  }
  return std::string_view::npos;
}

static std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

FramedMessage MessageFramer::fail(std::string error) {
  // Drop what cannot be a message and continue at the next header.
  size_t header = findLengthHeader(buffer, 1);
  buffer.erase(0, header == std::string::npos ? buffer.size() : header);
  return {"", std::move(error)};
}

std::optional<FramedMessage> MessageFramer::next() {
  if (skipping) {
    size_t dropped = std::min(skipping, buffer.size());
    buffer.erase(0, dropped);
    skipping -= dropped;
    if (skipping)
      return std::nullopt;
  }
  size_t end = buffer.find(kHeaderEnd);
  if (end == std::string::npos) {
    if (buffer.size() > kMaxHeaderBytes)
      return fail("header block longer than " +
                  std::to_string(kMaxHeaderBytes) + " bytes");
    return std::nullopt;
  }
  std::optional<size_t> length;
  std::string_view headers(buffer.data(), end);
  while (!headers.empty()) {
    size_t eol = headers.find("\r\n");
    std::string_view line = headers.substr(0, eol);
    headers = eol == std::string_view::npos ? "" : headers.substr(eol + 2);
    if (!startsWithNoCase(line, kLengthHeader))
      continue; // Content-Type and unknown headers are ignored.
    std::string_view value = trim(line.substr(kLengthHeader.size()));
    size_t parsed = 0;
    auto [ptr, ec] =
        std::from_chars(value.data(), value.data() + value.size(), parsed);
    if (ec != std::errc() || ptr != value.data() + value.size() ||
        value.empty())
      return fail("malformed Content-Length '" + std::string(value) + "'");
    length = parsed;
  }
  if (!length)
    return fail("message without a Content-Length header");
  size_t bodyStart = end + kHeaderEnd.size();
  if (*length > kMaxBodyBytes) {
    buffer.erase(0, bodyStart);
    skipping = *length;
    FramedMessage refused{"", "Content-Length " + std::to_string(*length) +
                                  " exceeds the limit of " +
                                  std::to_string(kMaxBodyBytes) + " bytes"};
    // The announced body may never come: a header in what follows starts
    // the next message.
    size_t header = findLengthHeader(buffer, 0);
    if (header != std::string::npos) {
      buffer.erase(0, header);
      skipping = 0;
    }
    return refused;
  }
  if (buffer.size() - bodyStart < *length) {
    // A shorter body than announced shows as the next header arriving
    // inside it: JSON can hold "Content-Length:" only inside a string, and
    // a string cannot run unquoted to a blank line.
    size_t header = findLengthHeader(buffer, bodyStart);
    if (header != std::string::npos &&
        buffer.find(kHeaderEnd, header) != std::string::npos) {
      buffer.erase(0, header);
      return FramedMessage{"", "body shorter than its Content-Length"};
    }
    return std::nullopt;
  }
  std::string body = buffer.substr(bodyStart, *length);
  buffer.erase(0, bodyStart + *length);
  return FramedMessage{std::move(body), ""};
}

std::string MessageFramer::frame(std::string_view body) {
  std::string out = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  out.append(body);
  return out;
}
