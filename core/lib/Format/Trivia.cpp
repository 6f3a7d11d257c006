//===- Trivia.cpp - Comments and line breaks between tokens ---------------===//

#include "Trivia.h"

using namespace accy::format;

Gap accy::format::scanGap(llvm::StringRef text) {
  Gap gap;
  unsigned newlines = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    char c = text[pos];
    if (c == '\n') {
      ++newlines;
      ++pos;
      continue;
    }
    if (text.substr(pos).starts_with("//")) {
      size_t end = text.find('\n', pos);
      if (end == llvm::StringRef::npos)
        end = text.size();
      gap.comments.push_back(
          {text.slice(pos, end).rtrim(" \t\r\f\v"), true, newlines});
      newlines = 0;
      pos = end;
      continue;
    }
    if (text.substr(pos).starts_with("/*")) {
      size_t close = text.find("*/", pos + 2);
      size_t end = close == llvm::StringRef::npos ? text.size() : close + 2;
      gap.comments.push_back({text.slice(pos, end), false, newlines});
      newlines = 0;
      pos = end;
      continue;
    }
    ++pos; // Other white space: spaces, tabs, carriage returns.
  }
  gap.newlinesAfter = newlines;
  return gap;
}
