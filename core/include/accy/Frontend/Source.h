//===- Source.h - Source buffers, ranges and positions ----------*- C++ -*-===//
//
// The SourceManager owns every file buffer the frontend reads (the main file
// and its imports) and converts byte offsets to line/column positions.
//
// Conventions used everywhere in the frontend:
//  - A SourceRange is a half-open byte range [begin, end) in one file.
//  - Lines and columns are 1-based; columns count bytes (UTF-8 code units).
//    The end position of a range is the position one past its last byte.
//  - For the language server, UTF-16 helpers convert to and from LSP
//    positions (0-based line, 0-based UTF-16 code unit column).
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_FRONTEND_SOURCE_H
#define ACCY_FRONTEND_SOURCE_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace accy {

/// Length of the UTF-8 sequence started by byte `lead`; 1 for a byte that
/// cannot start one, so that malformed text still advances a byte at a time.
unsigned utf8SequenceLength(unsigned char lead);


/// Identifies one buffer in a SourceManager. The default value is invalid.
struct FileID {
  uint32_t value = 0;
  bool isValid() const { return value != 0; }
  friend bool operator==(FileID a, FileID b) { return a.value == b.value; }
  friend bool operator!=(FileID a, FileID b) { return a.value != b.value; }
  friend bool operator<(FileID a, FileID b) { return a.value < b.value; }
};

/// A half-open byte range [begin, end) in one file.
struct SourceRange {
  FileID file;
  uint32_t begin = 0;
  uint32_t end = 0;

  SourceRange() = default;
  SourceRange(FileID file, uint32_t begin, uint32_t end)
      : file(file), begin(begin), end(end) {}
  bool isValid() const { return file.isValid(); }
  uint32_t size() const { return end - begin; }
  /// The smallest range covering both (which must be in the same file; an
  /// invalid operand yields the other one).
  static SourceRange cover(SourceRange a, SourceRange b);
  friend bool operator==(const SourceRange &a, const SourceRange &b) {
    return a.file == b.file && a.begin == b.begin && a.end == b.end;
  }
};

/// A 1-based line and 1-based byte column.
struct LineCol {
  unsigned line = 0;
  unsigned col = 0;
  friend bool operator==(LineCol a, LineCol b) {
    return a.line == b.line && a.col == b.col;
  }
};

/// An LSP-style position: 0-based line and 0-based UTF-16 code unit column.
struct Utf16Position {
  unsigned line = 0;
  unsigned character = 0;
};

class SourceManager {
public:
  SourceManager();
  ~SourceManager();
  SourceManager(const SourceManager &) = delete;
  SourceManager &operator=(const SourceManager &) = delete;

  /// Adds a buffer and returns its id. `path` is what diagnostics print.
  /// Buffers are never removed; their text stays valid for the manager's life.
  FileID addBuffer(std::string path, std::string text);

  /// The most recently added buffer with this path, or an invalid id.
  FileID findFile(llvm::StringRef path) const;

  llvm::StringRef getPath(FileID file) const;
  llvm::StringRef getText(FileID file) const;
  unsigned getNumFiles() const;
  unsigned getNumLines(FileID file) const;

  /// Line/column (1-based, byte columns) of a byte offset. Offsets past the
  /// end clamp to the end of the buffer.
  LineCol getLineCol(FileID file, uint32_t offset) const;
  /// Byte offset of a 1-based line/column; nullopt when out of range.
  /// A column one past the end of the line is allowed.
  std::optional<uint32_t> getOffset(FileID file, LineCol pos) const;
  /// The text of a 1-based line, without its line terminator.
  llvm::StringRef getLineText(FileID file, unsigned line) const;
  /// Byte offset where a 1-based line starts.
  uint32_t getLineStart(FileID file, unsigned line) const;

  /// LSP position of a byte offset (UTF-16 column).
  Utf16Position getUtf16Position(FileID file, uint32_t offset) const;
  /// Byte offset of an LSP position; the column clamps to the line's end.
  std::optional<uint32_t> getOffsetFromUtf16(FileID file,
                                             Utf16Position pos) const;

private:
  struct Buffer;
  const Buffer *get(FileID file) const;
  std::vector<std::unique_ptr<Buffer>> buffers;
};

} // namespace accy

#endif // ACCY_FRONTEND_SOURCE_H
