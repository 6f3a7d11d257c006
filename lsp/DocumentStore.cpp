//===- DocumentStore.cpp - The open documents and their edits -------------===//

#include "DocumentStore.h"

#include <algorithm>

using namespace accy::lsp;

void DocumentStore::open(DocumentSnapshot document) {
  std::string uri = document.uri;
  auto snapshot = std::make_shared<const DocumentSnapshot>(std::move(document));
  std::lock_guard<std::mutex> lock(mutex);
  documents[uri] = std::move(snapshot);
}

std::optional<std::string>
DocumentStore::change(const std::string &uri, int64_t version,
                      const std::vector<TextChange> &changes) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = documents.find(uri);
  if (it == documents.end())
    return "didChange for a document that is not open: " + uri;
  DocumentSnapshot next = *it->second;
  for (const TextChange &change : changes) {
    if (!change.range) {
      next.text = change.text;
      continue;
    }
    LineIndex index(next.text, encoding);
    uint32_t begin = index.offsetOf(change.range->start);
    uint32_t end = index.offsetOf(change.range->end);
    if (end < begin)
      std::swap(begin, end);
    next.text.replace(begin, end - begin, change.text);
  }
  next.version = version;
  it->second = std::make_shared<const DocumentSnapshot>(std::move(next));
  return std::nullopt;
}

bool DocumentStore::close(const std::string &uri) {
  std::lock_guard<std::mutex> lock(mutex);
  return documents.erase(uri) != 0;
}

std::shared_ptr<const DocumentSnapshot>
DocumentStore::get(const std::string &uri) const {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = documents.find(uri);
  return it == documents.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<const DocumentSnapshot>> DocumentStore::all() const {
  std::lock_guard<std::mutex> lock(mutex);
  std::vector<std::shared_ptr<const DocumentSnapshot>> out;
  for (const auto &entry : documents)
    out.push_back(entry.second);
  return out;
}
