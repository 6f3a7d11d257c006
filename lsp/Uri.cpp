//===- Uri.cpp - file:// URIs and paths -----------------------------------===//

#include "Uri.h"

#include <cctype>

using namespace accy::lsp;

static int hexValue(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  c = std::tolower(static_cast<unsigned char>(c));
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  return -1;
}

std::optional<std::string> accy::lsp::uriToPath(std::string_view uri) {
  constexpr std::string_view scheme = "file://";
  if (uri.substr(0, scheme.size()) != scheme)
    return std::nullopt;
  uri.remove_prefix(scheme.size());
  // An authority (usually empty, or "localhost") precedes the path.
  size_t slash = uri.find('/');
  if (slash == std::string_view::npos)
    return std::nullopt;
  uri.remove_prefix(slash);
  std::string path;
  for (size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] != '%') {
      path.push_back(uri[i]);
      continue;
    }
    if (i + 2 >= uri.size() || hexValue(uri[i + 1]) < 0 ||
        hexValue(uri[i + 2]) < 0)
      return std::nullopt;
    path.push_back(static_cast<char>(hexValue(uri[i + 1]) * 16 +
                                     hexValue(uri[i + 2])));
    i += 2;
  }
  return path;
}

std::string accy::lsp::pathToUri(std::string_view path) {
  static const char *hex = "0123456789ABCDEF";
  std::string uri = "file://";
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' ||
        c == '~') {
      uri.push_back(c);
      continue;
    }
    uri.push_back('%');
    uri.push_back(hex[c >> 4]);
    uri.push_back(hex[c & 15]);
  }
  return uri;
}
