//===- Source.cpp - Source buffers, ranges and positions ------------------===//

#include "accy/Frontend/Source.h"

#include <algorithm>

using namespace accy;

SourceRange SourceRange::cover(SourceRange a, SourceRange b) {
  if (!a.isValid())
    return b;
  if (!b.isValid() || a.file != b.file)
    return a;
  return SourceRange(a.file, std::min(a.begin, b.begin),
                     std::max(a.end, b.end));
}

struct SourceManager::Buffer {
  std::string path;
  std::string text;
  /// Byte offset of the start of each line; lineStarts[0] == 0.
  std::vector<uint32_t> lineStarts;
};

SourceManager::SourceManager() = default;
SourceManager::~SourceManager() = default;

FileID SourceManager::addBuffer(std::string path, std::string text) {
  auto buffer = std::make_unique<Buffer>();
  buffer->path = std::move(path);
  buffer->text = std::move(text);
  buffer->lineStarts.push_back(0);
  const std::string &t = buffer->text;
  for (size_t i = 0, e = t.size(); i < e; ++i)
    if (t[i] == '\n')
      buffer->lineStarts.push_back(static_cast<uint32_t>(i + 1));
  buffers.push_back(std::move(buffer));
  return FileID{static_cast<uint32_t>(buffers.size())};
}

FileID SourceManager::findFile(llvm::StringRef path) const {
  for (size_t i = buffers.size(); i > 0; --i)
    if (buffers[i - 1]->path == path)
      return FileID{static_cast<uint32_t>(i)};
  return FileID{};
}

const SourceManager::Buffer *SourceManager::get(FileID file) const {
  if (!file.isValid() || file.value > buffers.size())
    return nullptr;
  return buffers[file.value - 1].get();
}

llvm::StringRef SourceManager::getPath(FileID file) const {
  const Buffer *b = get(file);
  return b ? llvm::StringRef(b->path) : llvm::StringRef();
}

llvm::StringRef SourceManager::getText(FileID file) const {
  const Buffer *b = get(file);
  return b ? llvm::StringRef(b->text) : llvm::StringRef();
}

unsigned SourceManager::getNumFiles() const { return buffers.size(); }

unsigned SourceManager::getNumLines(FileID file) const {
  const Buffer *b = get(file);
  return b ? b->lineStarts.size() : 0;
}

LineCol SourceManager::getLineCol(FileID file, uint32_t offset) const {
  const Buffer *b = get(file);
  if (!b)
    return {};
  offset = std::min<uint32_t>(offset, b->text.size());
  auto it = std::upper_bound(b->lineStarts.begin(), b->lineStarts.end(),
                             offset);
  unsigned line = it - b->lineStarts.begin();
  return {line, offset - b->lineStarts[line - 1] + 1};
}

uint32_t SourceManager::getLineStart(FileID file, unsigned line) const {
  const Buffer *b = get(file);
  if (!b || line == 0)
    return 0;
  if (line > b->lineStarts.size())
    return b->text.size();
  return b->lineStarts[line - 1];
}

llvm::StringRef SourceManager::getLineText(FileID file, unsigned line) const {
  const Buffer *b = get(file);
  if (!b || line == 0 || line > b->lineStarts.size())
    return {};
  uint32_t start = b->lineStarts[line - 1];
  uint32_t end = line < b->lineStarts.size() ? b->lineStarts[line] - 1
                                             : b->text.size();
  llvm::StringRef text(b->text.data() + start, end - start);
  if (text.ends_with("\r"))
    text = text.drop_back();
  return text;
}

std::optional<uint32_t> SourceManager::getOffset(FileID file,
                                                 LineCol pos) const {
  const Buffer *b = get(file);
  if (!b || pos.line == 0 || pos.col == 0 || pos.line > b->lineStarts.size())
    return std::nullopt;
  uint32_t start = b->lineStarts[pos.line - 1];
  uint32_t end = pos.line < b->lineStarts.size() ? b->lineStarts[pos.line] - 1
                                                 : b->text.size();
  if (pos.col - 1 > end - start)
    return std::nullopt;
  return start + pos.col - 1;
}

/// Number of UTF-16 code units a UTF-8 lead byte's sequence encodes to.
static unsigned utf16Units(unsigned char lead) {
  return lead >= 0xF0 ? 2 : 1;
}
unsigned accy::utf8SequenceLength(unsigned char lead) {
  if (lead < 0xC0)
    return 1;
  if (lead < 0xE0)
    return 2;
  if (lead < 0xF0)
    return 3;
  if (lead < 0xF8)
    return 4;
  return 1;
}

Utf16Position SourceManager::getUtf16Position(FileID file,
                                              uint32_t offset) const {
  const Buffer *b = get(file);
  if (!b)
    return {};
  LineCol lc = getLineCol(file, offset);
  uint32_t start = b->lineStarts[lc.line - 1];
  uint32_t target = start + lc.col - 1;
  unsigned units = 0;
  for (uint32_t i = start; i < target;) {
    unsigned char c = b->text[i];
    unsigned len = utf8SequenceLength(c);
    units += len == 1 ? 1 : utf16Units(c);
    i += len;
  }
  return {lc.line - 1, units};
}

std::optional<uint32_t>
SourceManager::getOffsetFromUtf16(FileID file, Utf16Position pos) const {
  const Buffer *b = get(file);
  if (!b || pos.line >= b->lineStarts.size())
    return std::nullopt;
  uint32_t start = b->lineStarts[pos.line];
  llvm::StringRef line = getLineText(file, pos.line + 1);
  uint32_t end = start + line.size();
  unsigned units = 0;
  uint32_t i = start;
  while (i < end && units < pos.character) {
    unsigned char c = b->text[i];
    unsigned len = utf8SequenceLength(c);
    units += len == 1 ? 1 : utf16Units(c);
    i = std::min(end, i + len);
  }
  return i;
}
