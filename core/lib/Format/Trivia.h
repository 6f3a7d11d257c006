//===- Trivia.h - Comments and line breaks between tokens -------*- C++ -*-===//
//
// The lexer skips white space and comments; the formatter needs them back.
// Between two tokens of a file that lexed cleanly there is only trivia, so
// scanning that gap recovers its comments and how many line breaks
// surround each one.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LIB_FORMAT_TRIVIA_H
#define ACCY_LIB_FORMAT_TRIVIA_H

#include "llvm/ADT/StringRef.h"

#include <vector>

namespace accy::format {

struct Comment {
  /// As written; a line comment without its trailing white space.
  llvm::StringRef text;
  bool isLineComment = false;
  /// Line breaks between the previous token or comment and this one.
  unsigned newlinesBefore = 0;
};

struct Gap {
  std::vector<Comment> comments;
  /// Line breaks between the last comment (or the previous token) and the
  /// next token.
  unsigned newlinesAfter = 0;
};

/// Scans `text`, which must hold only white space and complete comments.
Gap scanGap(llvm::StringRef text);

} // namespace accy::format

#endif // ACCY_LIB_FORMAT_TRIVIA_H
