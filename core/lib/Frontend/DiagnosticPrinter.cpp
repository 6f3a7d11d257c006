//===- DiagnosticPrinter.cpp - Text rendering of diagnostics --------------===//

#include "accy/Frontend/Diagnostic.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace accy;

namespace {
/// One displayed character of a source line: the bytes it came from and
/// what to print for it (sanitized so a snippet is always valid UTF-8).
struct DisplayUnit {
  uint32_t byteOffset; ///< Offset within the line.
  std::string text;
};
} // namespace

static unsigned utf8SequenceLength(llvm::StringRef s, size_t i) {
  unsigned char c = s[i];
  unsigned len = c < 0x80 ? 1 : c >= 0xC2 && c < 0xE0 ? 2
                 : c >= 0xE0 && c < 0xF0             ? 3
                 : c >= 0xF0 && c < 0xF5             ? 4
                                                     : 0;
  if (len == 0 || i + len > s.size())
    return 0;
  for (unsigned k = 1; k < len; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80)
      return 0;
  return len;
}

static std::vector<DisplayUnit> splitLine(llvm::StringRef line) {
  std::vector<DisplayUnit> units;
  for (size_t i = 0; i < line.size();) {
    unsigned len = utf8SequenceLength(line, i);
    unsigned char c = line[i];
    if (len == 0) {
      units.push_back({static_cast<uint32_t>(i), "?"});
      ++i;
    } else if (len == 1) {
      std::string text(1, c == '\t' ? '\t' : (c < 0x20 || c == 0x7F) ? ' '
                                                                     : char(c));
      units.push_back({static_cast<uint32_t>(i), text});
      ++i;
    } else {
      units.push_back({static_cast<uint32_t>(i), line.substr(i, len).str()});
      i += len;
    }
  }
  return units;
}

/// Index of the first unit at or after a byte offset within the line.
static size_t unitAt(const std::vector<DisplayUnit> &units, uint32_t offset) {
  auto it = std::lower_bound(
      units.begin(), units.end(), offset,
      [](const DisplayUnit &u, uint32_t off) { return u.byteOffset < off; });
  return it - units.begin();
}

static void printSnippet(llvm::raw_ostream &os, const SourceManager &sm,
                         SourceRange range, LineCol begin, LineCol end) {
  if (!range.isValid() || begin.line == 0)
    return;
  llvm::StringRef line = sm.getLineText(range.file, begin.line);
  // Only decode a window of a very long line around the range.
  uint32_t beginByte = begin.col - 1;
  uint32_t endByte = end.line == begin.line ? end.col - 1 : line.size();
  size_t windowStart = 0;
  bool clippedFront = false, clippedBack = false;
  if (line.size() > 1024) {
    windowStart = beginByte > 512 ? beginByte - 512 : 0;
    while (windowStart > 0 && windowStart < line.size() &&
           (static_cast<unsigned char>(line[windowStart]) & 0xC0) == 0x80)
      ++windowStart;
    size_t windowEnd = std::min<size_t>(line.size(), beginByte + 512);
    clippedFront = windowStart > 0;
    clippedBack = windowEnd < line.size();
    line = line.slice(windowStart, windowEnd);
    beginByte -= std::min<uint32_t>(beginByte, windowStart);
    endByte = endByte > windowStart ? endByte - windowStart : 0;
  }
  std::vector<DisplayUnit> units = splitLine(line);
  size_t first = unitAt(units, beginByte);
  size_t last = std::min(unitAt(units, endByte), units.size());
  if (last <= first)
    last = first + 1; // Always show at least a caret.

  // Long lines (generated or minified sources) show a window around the
  // range so the snippet stays readable.
  const size_t maxWidth = 120;
  size_t from = 0, to = units.size();
  if (units.size() > maxWidth || clippedFront || clippedBack) {
    from = first > 40 ? first - 40 : 0;
    to = std::min(units.size(), from + maxWidth);
    last = std::min(last, std::max(to, first + 1));
  }
  std::string lineNo = std::to_string(begin.line);
  std::string gutter(lineNo.size() + 2, ' ');
  bool dotsFront = from > 0 || clippedFront;
  os << "  " << lineNo << " | ";
  if (dotsFront)
    os << "...";
  for (size_t i = from; i < to; ++i)
    os << units[i].text;
  if (to < units.size() || clippedBack)
    os << "...";
  os << "\n" << gutter << " | ";
  if (dotsFront)
    os << "   ";
  for (size_t i = from; i < first && i < to; ++i)
    os << (units[i].text == "\t" ? "\t" : " ");
  for (size_t i = first; i < last; ++i)
    os << (i == first ? '^' : '~');
  os << "\n";
}

static void printLocation(llvm::raw_ostream &os, const SourceManager &sm,
                          SourceRange range, LineCol begin, LineCol end) {
  if (range.isValid())
    os << sm.getPath(range.file) << ":" << begin.line << ":" << begin.col
       << "-" << end.line << ":" << end.col << ": ";
}

static void printOne(llvm::raw_ostream &os, const SourceManager &sm,
                     const Diagnostic &diag, const DiagPrintOptions &options) {
  printLocation(os, sm, diag.range, diag.begin, diag.end);
  os << severityName(diag.severity);
  if (diag.severity != Severity::Note)
    os << "[" << diagCodeString(diag.code) << "]";
  os << ": " << diag.message << "\n";
  if (options.showSnippet)
    printSnippet(os, sm, diag.range, diag.begin, diag.end);
  for (const DiagnosticNote &note : diag.notes) {
    printLocation(os, sm, note.range, note.begin, note.end);
    os << "note: " << note.message << "\n";
    if (options.showSnippet && options.showNoteSnippets)
      printSnippet(os, sm, note.range, note.begin, note.end);
  }
  if (!options.showFixIts)
    return;
  for (const FixIt &fix : diag.fixIts) {
    const SourceRange &first = fix.edits.front().range;
    printLocation(os, sm, first, sm.getLineCol(first.file, first.begin),
                  sm.getLineCol(first.file, first.end));
    os << "fix-it: " << fix.title << "\n";
  }
}

void accy::printDiagnostics(llvm::raw_ostream &os, const SourceManager &sm,
                            llvm::ArrayRef<Diagnostic> diags,
                            const DiagPrintOptions &options) {
  for (const Diagnostic &diag : diags)
    printOne(os, sm, diag, options);
}

std::string accy::formatDiagnostic(const SourceManager &sm,
                                   const Diagnostic &diag,
                                   const DiagPrintOptions &options) {
  std::string out;
  llvm::raw_string_ostream os(out);
  printOne(os, sm, diag, options);
  os.flush();
  return out;
}
