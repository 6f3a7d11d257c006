//===- LineIndex.cpp - LSP positions over a UTF-8 text --------------------===//

#include "LineIndex.h"

#include "accy/Frontend/Source.h"

#include <algorithm>

using namespace accy::lsp;

unsigned accy::lsp::codeUnits(std::string_view utf8, PositionEncoding encoding) {
  if (encoding == PositionEncoding::Utf8)
    return utf8.size();
  unsigned units = 0;
  for (size_t i = 0; i < utf8.size();) {
    unsigned length = utf8SequenceLength(static_cast<unsigned char>(utf8[i]));
    // Astral-plane characters (4-byte sequences) are surrogate pairs.
    units += length == 4 ? 2 : 1;
    i += length;
  }
  return units;
}

LineIndex::LineIndex(std::string_view text, PositionEncoding encoding)
    : text(text), positionEncoding(encoding) {
  lineStarts.push_back(0);
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n')
      lineStarts.push_back(i + 1);
}

std::string_view LineIndex::lineText(unsigned line) const {
  uint32_t begin = lineStarts[line];
  uint32_t end = line + 1 < lineStarts.size() ? lineStarts[line + 1] - 1
                                               : text.size();
  if (end > begin && text[end - 1] == '\r')
    --end;
  return text.substr(begin, end - begin);
}

uint32_t LineIndex::offsetOf(Position pos) const {
  if (pos.line >= lineStarts.size())
    return text.size();
  std::string_view line = lineText(pos.line);
  unsigned units = 0;
  size_t i = 0;
  while (i < line.size()) {
    unsigned length = utf8SequenceLength(static_cast<unsigned char>(line[i]));
    unsigned width = positionEncoding == PositionEncoding::Utf8 ? length
                     : length == 4                              ? 2
                                                                : 1;
    // A position inside a character (between the halves of a surrogate
    // pair) rounds down to the character's start.
    if (units + width > pos.character)
      break;
    units += width;
    i += length;
  }
  return lineStarts[pos.line] + std::min<size_t>(i, line.size());
}

Position LineIndex::positionOf(uint32_t offset) const {
  offset = std::min<uint32_t>(offset, text.size());
  auto it = std::upper_bound(lineStarts.begin(), lineStarts.end(), offset);
  unsigned line = (it - lineStarts.begin()) - 1;
  std::string_view before =
      text.substr(lineStarts[line], offset - lineStarts[line]);
  return {line, codeUnits(before, positionEncoding)};
}
