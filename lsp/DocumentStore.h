//===- DocumentStore.h - The open documents and their edits -----*- C++ -*-===//
//
// Holds the text of every open document by URI and applies incremental
// edits in the negotiated position encoding. Readers get immutable
// snapshots, so a compile on a worker thread never sees a half-applied
// edit.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LSP_DOCUMENTSTORE_H
#define ACCY_LSP_DOCUMENTSTORE_H

#include "LineIndex.h"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace accy::lsp {

struct DocumentSnapshot {
  std::string uri;
  std::string path;
  int64_t version = 0;
  std::string text;
};

/// One entry of didChange's contentChanges: a range edit, or the whole text
/// when `range` is absent.
struct TextChange {
  std::optional<Range> range;
  std::string text;
};

class DocumentStore {
public:
  explicit DocumentStore(PositionEncoding encoding) : encoding(encoding) {}
  void setEncoding(PositionEncoding e) { encoding = e; }
  PositionEncoding getEncoding() const { return encoding; }

  void open(DocumentSnapshot document);
  /// Applies the changes in order; an error message when the document is
  /// not open (ranges past the end clamp to the end, as the protocol says).
  std::optional<std::string> change(const std::string &uri, int64_t version,
                                    const std::vector<TextChange> &changes);
  /// False when it was not open.
  bool close(const std::string &uri);
  std::shared_ptr<const DocumentSnapshot> get(const std::string &uri) const;
  std::vector<std::shared_ptr<const DocumentSnapshot>> all() const;

private:
  PositionEncoding encoding;
  mutable std::mutex mutex;
  std::map<std::string, std::shared_ptr<const DocumentSnapshot>> documents;
};

} // namespace accy::lsp

#endif // ACCY_LSP_DOCUMENTSTORE_H
