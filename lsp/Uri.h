//===- Uri.h - file:// URIs and paths ---------------------------*- C++ -*-===//
#ifndef ACCY_LSP_URI_H
#define ACCY_LSP_URI_H

#include <optional>
#include <string>
#include <string_view>

namespace accy::lsp {

/// The absolute path a `file://` URI names (percent-decoded); nullopt for
/// any other scheme or a malformed escape.
std::optional<std::string> uriToPath(std::string_view uri);
/// `file://` URI of an absolute path, percent-encoding what RFC 3986 asks.
std::string pathToUri(std::string_view path);

} // namespace accy::lsp

#endif // ACCY_LSP_URI_H
