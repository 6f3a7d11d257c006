// Tests of the SourceManager: lines, columns, UTF-16 conversions.
#include "accy/Frontend/Source.h"

#include <catch2/catch.hpp>

using namespace accy;

TEST_CASE("line and column of offsets", "[source]") {
  SourceManager sm;
  FileID f = sm.addBuffer("a.accy", "ab\ncd\r\n\nxyz");
  CHECK(sm.getNumLines(f) == 4);
  CHECK(sm.getLineCol(f, 0) == LineCol{1, 1});
  CHECK(sm.getLineCol(f, 2) == LineCol{1, 3});
  CHECK(sm.getLineCol(f, 3) == LineCol{2, 1});
  CHECK(sm.getLineCol(f, 8) == LineCol{4, 1});
  CHECK(sm.getLineCol(f, 11) == LineCol{4, 4});
  CHECK(sm.getLineCol(f, 999) == LineCol{4, 4}); // Clamped.
  CHECK(sm.getLineText(f, 2) == "cd");            // No '\r'.
  CHECK(sm.getLineText(f, 3).empty());
  CHECK(sm.getLineText(f, 4) == "xyz");
  CHECK(sm.getLineText(f, 5).empty());
  CHECK(sm.getOffset(f, {2, 2}) == 4u);
  CHECK(sm.getOffset(f, {4, 4}) == 11u);
  CHECK_FALSE(sm.getOffset(f, {4, 5}).has_value());
  CHECK_FALSE(sm.getOffset(f, {9, 1}).has_value());
  CHECK(sm.getLineStart(f, 2) == 3u);
}

TEST_CASE("files are found by path and keep their text", "[source]") {
  SourceManager sm;
  FileID a = sm.addBuffer("a.accy", "one");
  FileID b = sm.addBuffer("b.accy", "two");
  CHECK(a != b);
  CHECK(sm.findFile("b.accy") == b);
  CHECK_FALSE(sm.findFile("c.accy").isValid());
  CHECK(sm.getText(a) == "one");
  CHECK(sm.getPath(b) == "b.accy");
  CHECK(sm.getNumFiles() == 2);
  CHECK(sm.getText(FileID{}).empty());
}

TEST_CASE("UTF-16 positions for the language server", "[source]") {
  SourceManager sm;
  // 'é' is 2 bytes / 1 UTF-16 unit; U+1F600 is 4 bytes / 2 units.
  FileID f = sm.addBuffer("u.accy", "// \xC3\xA9\xF0\x9F\x98\x80x\nab");
  uint32_t x = 3 + 2 + 4;
  Utf16Position p = sm.getUtf16Position(f, x);
  CHECK(p.line == 0);
  CHECK(p.character == 3 + 1 + 2);
  CHECK(sm.getOffsetFromUtf16(f, p) == x);
  CHECK(sm.getUtf16Position(f, x + 2).line == 1);
  CHECK(sm.getOffsetFromUtf16(f, {1, 1}) == x + 3);
  CHECK(sm.getOffsetFromUtf16(f, {1, 99}) == x + 4); // Clamped to the line.
  CHECK_FALSE(sm.getOffsetFromUtf16(f, {5, 0}).has_value());
}

TEST_CASE("SourceRange::cover", "[source]") {
  FileID f{1};
  SourceRange a(f, 3, 5), b(f, 8, 10);
  CHECK(SourceRange::cover(a, b) == SourceRange(f, 3, 10));
  CHECK(SourceRange::cover(SourceRange(), b) == b);
}
