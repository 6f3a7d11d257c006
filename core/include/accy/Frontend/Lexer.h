//===- Lexer.h - Tokenizer for Accy sources ---------------------*- C++ -*-===//
//
// The lexer turns one buffer into tokens, skipping whitespace and comments.
// Malformed input never stops it: each bad run of bytes becomes one Error
// token plus one diagnostic, and lexing continues. The token list always
// ends with an Eof token.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_FRONTEND_LEXER_H
#define ACCY_FRONTEND_LEXER_H

#include "accy/Frontend/Diagnostic.h"
#include "accy/Frontend/Token.h"

#include <vector>

namespace accy {

/// Tokenizes the whole buffer `file` of the engine's SourceManager.
std::vector<Token> lexFile(FileID file, DiagnosticEngine &diags);

/// The keyword kind of an identifier spelling, or Identifier.
TokenKind keywordKind(llvm::StringRef spelling);

} // namespace accy

#endif // ACCY_FRONTEND_LEXER_H
