//===- Format.h - The canonical layout of Accy source -----------*- C++ -*-===//
//
// accy-format's engine, shared with the language server. One layout, in the
// spirit of gofmt: the only option is the indent width.
//
// Comments are not part of the syntax tree: the lexer skips them, so the
// formatter re-attaches them from the gaps between tokens (a gap holds only
// white space and comments). The token sequence itself is never changed, so
// formatting cannot change what a file means; only white space does.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_FORMAT_FORMAT_H
#define ACCY_FORMAT_FORMAT_H

#include "accy/Frontend/Diagnostic.h"
#include "accy/Frontend/Token.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace accy {

struct FormatOptions {
  unsigned indentWidth = 2;
};

struct FormattedFile {
  std::string text;
  /// The tokens of the input (without the final Eof), in order.
  std::vector<Token> tokens;
  /// Where tokens[i] starts in `text`.
  std::vector<uint32_t> formattedOffsets;
};

/// Formats buffer `file` of the engine's SourceManager. A file that does not
/// lex and parse cleanly is refused: the error says so and the diagnostics
/// are in `diags`.
llvm::Expected<FormattedFile> formatFile(FileID file, DiagnosticEngine &diags,
                                         const FormatOptions &options = {});

} // namespace accy

#endif // ACCY_FORMAT_FORMAT_H
