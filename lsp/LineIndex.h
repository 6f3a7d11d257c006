//===- LineIndex.h - LSP positions over a UTF-8 text ------------*- C++ -*-===//
//
// Converts between byte offsets into a document and LSP positions (0-based
// line, 0-based column counted in UTF-16 code units by default, or in UTF-8
// bytes when the client negotiated "utf-8"). Out-of-range positions clamp as
// the specification asks: a column past the end of its line means the end
// of the line, a line past the end of the text means the end of the text.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LSP_LINEINDEX_H
#define ACCY_LSP_LINEINDEX_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace accy::lsp {

enum class PositionEncoding { Utf16, Utf8 };

struct Position {
  unsigned line = 0;
  unsigned character = 0;
  friend bool operator==(Position a, Position b) {
    return a.line == b.line && a.character == b.character;
  }
  friend bool operator<(Position a, Position b) {
    return a.line < b.line || (a.line == b.line && a.character < b.character);
  }
};

struct Range {
  Position start, end;
};

class LineIndex {
public:
  LineIndex(std::string_view text, PositionEncoding encoding);

  /// The byte offset of `pos`, clamped into the text.
  uint32_t offsetOf(Position pos) const;
  /// The position of a byte offset (clamped to the end of the text).
  Position positionOf(uint32_t offset) const;
  Range rangeOf(uint32_t begin, uint32_t end) const {
    return {positionOf(begin), positionOf(end)};
  }
  unsigned lineCount() const { return lineStarts.size(); }
  PositionEncoding encoding() const { return positionEncoding; }

private:
  /// The line's bytes without its terminator.
  std::string_view lineText(unsigned line) const;
  std::string_view text;
  PositionEncoding positionEncoding;
  std::vector<uint32_t> lineStarts;
};

/// Code units of `encoding` that the UTF-8 bytes `utf8` occupy.
unsigned codeUnits(std::string_view utf8, PositionEncoding encoding);

} // namespace accy::lsp

#endif // ACCY_LSP_LINEINDEX_H
