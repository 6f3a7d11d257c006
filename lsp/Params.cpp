//===- Params.cpp - The params of each request, decoded once --------------===//

#include "Params.h"

#include "Uri.h"

#include <nlohmann/json.hpp>

#include <limits>

using namespace accy::lsp;
using nlohmann::json;

namespace {

/// Where a value is in the params, for the error message.
class Path {
public:
  explicit Path(std::string at, std::string &error)
      : at(std::move(at)), error(error) {}
  Path field(const char *name) const { return Path(at + "." + name, error); }
  Path element(size_t index) const {
    return Path(at + "[" + std::to_string(index) + "]", error);
  }
  bool fail(const char *expected) const {
    error = at + ": expected " + expected;
    return false;
  }

private:
  std::string at;
  std::string &error;
};

/// `object[name]`, or null when `object` is not an object or lacks it.
const json *member(const json &object, const char *name) {
  if (!object.is_object())
    return nullptr;
  auto it = object.find(name);
  return it == object.end() ? nullptr : &*it;
}

bool read(const json &value, std::string &out, const Path &path) {
  if (!value.is_string())
    return path.fail("a string");
  out = value.get_ref<const std::string &>();
  return true;
}

bool read(const json &value, int64_t &out, const Path &path) {
  if (!value.is_number_integer())
    return path.fail("an integer");
  out = value.get<int64_t>();
  return true;
}

bool read(const json &value, unsigned &out, const Path &path) {
  if (!value.is_number_unsigned() ||
      value.get<uint64_t>() > std::numeric_limits<unsigned>::max())
    return path.fail("an unsigned integer");
  out = value.get<unsigned>();
  return true;
}

bool read(const json &value, Position &out, const Path &path);
bool read(const json &value, Range &out, const Path &path);

/// Reads the required field `name` of `object`.
template <typename T>
bool readField(const json &object, const char *name, T &out,
               const Path &path, const char *expected) {
  const json *value = member(object, name);
  if (!value)
    return path.field(name).fail(expected);
  return read(*value, out, path.field(name));
}

bool read(const json &value, Position &out, const Path &path) {
  if (!value.is_object())
    return path.fail("a position");
  return readField(value, "line", out.line, path, "an unsigned integer") &&
         readField(value, "character", out.character, path,
                   "an unsigned integer");
}

bool read(const json &value, Range &out, const Path &path) {
  if (!value.is_object())
    return path.fail("a range");
  return readField(value, "start", out.start, path, "a position") &&
         readField(value, "end", out.end, path, "a position");
}

/// params.textDocument.uri, which nearly every method carries.
bool readDocumentUri(const json &params, std::string &uri, const Path &path) {
  const json *document = member(params, "textDocument");
  if (!document || !document->is_object())
    return path.field("textDocument").fail("a text document identifier");
  return readField(*document, "uri", uri, path.field("textDocument"),
                   "a string");
}

/// Whether capabilities.a.b... is `true` (false when absent or not a bool).
bool capability(const json &capabilities,
                std::initializer_list<const char *> names) {
  const json *at = &capabilities;
  for (const char *name : names)
    if (!(at = member(*at, name)))
      return false;
  return at->is_boolean() && at->get<bool>();
}

/// The URIs of an array of WorkspaceFolder.
bool readFolderUris(const json &folders, std::vector<std::string> &uris,
                    const Path &path) {
  if (!folders.is_array())
    return path.fail("an array");
  for (size_t i = 0; i < folders.size(); ++i) {
    std::string uri;
    if (!readField(folders[i], "uri", uri, path.element(i), "a string"))
      return false;
    uris.push_back(std::move(uri));
  }
  return true;
}

} // namespace

bool accy::lsp::fromJSON(const json &params, InitializeParams &out,
                         std::string &error) {
  Path path("params", error);
  if (!params.is_object())
    return path.fail("an object");
  if (const json *folders = member(params, "workspaceFolders");
      folders && folders->is_array()) {
    if (!readFolderUris(*folders, out.workspaceFolders,
                        path.field("workspaceFolders")))
      return false;
  } else if (const json *root = member(params, "rootUri");
             root && root->is_string()) {
    out.workspaceFolders.push_back(root->get<std::string>());
  }
  const json *capabilities = member(params, "capabilities");
  if (!capabilities)
    return true;
  if (!capabilities->is_object())
    return path.field("capabilities").fail("an object");
  if (const json *general = member(*capabilities, "general"))
    if (const json *encodings = member(*general, "positionEncodings"))
      if (encodings->is_array())
        for (const json &offered : *encodings)
          out.offersUtf8 |= offered == "utf-8";
  out.workDoneProgress = capability(*capabilities, {"window", "workDoneProgress"});
  out.watchFilesDynamically = capability(
      *capabilities, {"workspace", "didChangeWatchedFiles", "dynamicRegistration"});
  out.codeLensRefresh =
      capability(*capabilities, {"workspace", "codeLens", "refreshSupport"});
  return true;
}

bool accy::lsp::fromJSON(const json &params, DidOpenParams &out,
                         std::string &error) {
  Path path("params", error);
  const json *document = member(params, "textDocument");
  if (!document || !document->is_object())
    return path.field("textDocument").fail("a text document item");
  Path at = path.field("textDocument");
  return readField(*document, "uri", out.uri, at, "a string") &&
         readField(*document, "version", out.version, at, "an integer") &&
         readField(*document, "text", out.text, at, "a string");
}

bool accy::lsp::fromJSON(const json &params, DidChangeParams &out,
                         std::string &error) {
  Path path("params", error);
  const json *document = member(params, "textDocument");
  if (!document || !document->is_object())
    return path.field("textDocument").fail("a versioned text document identifier");
  Path at = path.field("textDocument");
  if (!readField(*document, "uri", out.uri, at, "a string") ||
      !readField(*document, "version", out.version, at, "an integer"))
    return false;
  const json *changes = member(params, "contentChanges");
  if (!changes || !changes->is_array())
    return path.field("contentChanges").fail("an array");
  for (size_t i = 0; i < changes->size(); ++i) {
    const json &change = (*changes)[i];
    Path element = path.field("contentChanges").element(i);
    TextChange c;
    if (!readField(change, "text", c.text, element, "a string"))
      return false;
    if (const json *range = member(change, "range")) {
      c.range.emplace();
      if (!read(*range, *c.range, element.field("range")))
        return false;
    }
    out.changes.push_back(std::move(c));
  }
  return true;
}

bool accy::lsp::fromJSON(const json &params, DidChangeWatchedFilesParams &out,
                         std::string &error) {
  Path path("params", error);
  const json *changes = member(params, "changes");
  if (!changes || !changes->is_array())
    return path.field("changes").fail("an array");
  for (size_t i = 0; i < changes->size(); ++i) {
    std::string uri;
    if (!readField((*changes)[i], "uri", uri,
                   path.field("changes").element(i), "a string"))
      return false;
    out.uris.push_back(std::move(uri));
  }
  return true;
}

bool accy::lsp::fromJSON(const json &params, TextDocumentParams &out,
                         std::string &error) {
  return readDocumentUri(params, out.uri, Path("params", error));
}

bool accy::lsp::fromJSON(const json &params, TextDocumentPositionParams &out,
                         std::string &error) {
  Path path("params", error);
  return readDocumentUri(params, out.uri, path) &&
         readField(params, "position", out.position, path, "a position");
}

bool accy::lsp::fromJSON(const json &params, InlayHintParams &out,
                         std::string &error) {
  Path path("params", error);
  return readDocumentUri(params, out.uri, path) &&
         readField(params, "range", out.range, path, "a range");
}

bool accy::lsp::fromJSON(const json &params, DocumentRangeFormattingParams &out,
                         std::string &error) {
  Path path("params", error);
  return readDocumentUri(params, out.uri, path) &&
         readField(params, "range", out.range, path, "a range");
}

bool accy::lsp::fromJSON(const json &params, CodeActionParams &out,
                         std::string &error) {
  Path path("params", error);
  return readDocumentUri(params, out.uri, path) &&
         readField(params, "range", out.range, path, "a range");
}

bool accy::lsp::fromJSON(const json &params, CodeActionResolveParams &out,
                         std::string &error) {
  Path path("params", error);
  const json *data = member(params, "data");
  if (!data || !data->is_object())
    return path.field("data").fail("the data of an accy-lsp code action");
  Path at = path.field("data");
  return readField(*data, "uri", out.data.uri, at, "a string") &&
         readField(*data, "name", out.data.name, at, "a string") &&
         readField(*data, "path", out.data.path, at, "a string");
}

bool accy::lsp::fromJSON(const json &params, StageOutputParams &out,
                         std::string &error) {
  Path path("params", error);
  return readField(params, "uri", out.uri, path, "a string") &&
         readField(params, "kernel", out.kernel, path, "a string") &&
         readField(params, "stage", out.stage, path, "a string");
}

bool accy::lsp::fromJSON(const json &params, StatsParams &out,
                         std::string &error) {
  return readField(params, "uri", out.uri, Path("params", error), "a string");
}

bool accy::lsp::fromJSON(const json &params, ReferenceParams &out,
                         std::string &error) {
  Path path("params", error);
  if (!readDocumentUri(params, out.uri, path) ||
      !readField(params, "position", out.position, path, "a position"))
    return false;
  if (const json *context = member(params, "context"))
    if (const json *include = member(*context, "includeDeclaration")) {
      if (!include->is_boolean())
        return path.field("context").field("includeDeclaration").fail("a boolean");
      out.includeDeclaration = include->get<bool>();
    }
  return true;
}

bool accy::lsp::fromJSON(const json &params, RenameParams &out,
                         std::string &error) {
  Path path("params", error);
  return readDocumentUri(params, out.uri, path) &&
         readField(params, "position", out.position, path, "a position") &&
         readField(params, "newName", out.newName, path, "a string");
}

bool accy::lsp::fromJSON(const json &params, WorkspaceSymbolParams &out,
                         std::string &error) {
  return readField(params, "query", out.query, Path("params", error),
                   "a string");
}

bool accy::lsp::fromJSON(const json &params, SelectionRangeParams &out,
                         std::string &error) {
  Path path("params", error);
  if (!readDocumentUri(params, out.uri, path))
    return false;
  const json *positions = member(params, "positions");
  if (!positions || !positions->is_array())
    return path.field("positions").fail("an array");
  for (size_t i = 0; i < positions->size(); ++i) {
    Position p;
    if (!read((*positions)[i], p, path.field("positions").element(i)))
      return false;
    out.positions.push_back(p);
  }
  return true;
}

bool accy::lsp::fromJSON(const json &params, SemanticTokensDeltaParams &out,
                         std::string &error) {
  Path path("params", error);
  return readDocumentUri(params, out.uri, path) &&
         readField(params, "previousResultId", out.previousResultId, path,
                   "a string");
}

bool accy::lsp::fromJSON(const json &params,
                         DidChangeWorkspaceFoldersParams &out,
                         std::string &error) {
  Path path("params", error);
  const json *event = member(params, "event");
  if (!event || !event->is_object())
    return path.field("event").fail("a workspace folders change event");
  Path at = path.field("event");
  const json *added = member(*event, "added");
  const json *removed = member(*event, "removed");
  if (!added)
    return at.field("added").fail("an array");
  if (!removed)
    return at.field("removed").fail("an array");
  return readFolderUris(*added, out.added, at.field("added")) &&
         readFolderUris(*removed, out.removed, at.field("removed"));
}
