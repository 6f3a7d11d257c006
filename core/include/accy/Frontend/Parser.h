//===- Parser.h - Parser for Accy files -------------------------*- C++ -*-===//
//
// A recursive-descent parser producing the parse tree of Syntax.h. On a
// syntax error it reports one diagnostic and recovers at the next ';' or
// '}' (or the start of the next statement or item), so one typo yields one
// diagnostic and the rest of the file is still parsed.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_FRONTEND_PARSER_H
#define ACCY_FRONTEND_PARSER_H

#include "accy/Frontend/Diagnostic.h"
#include "accy/Frontend/Syntax.h"
#include "accy/Frontend/Token.h"

#include <memory>
#include <vector>

namespace accy {

/// Lexes and parses one buffer of the engine's SourceManager.
std::unique_ptr<syntax::Module> parseFile(FileID file, DiagnosticEngine &diags);

/// Parses an already lexed token list (ending with Eof).
std::unique_ptr<syntax::Module> parseTokens(FileID file,
                                            const std::vector<Token> &tokens,
                                            DiagnosticEngine &diags);

} // namespace accy

#endif // ACCY_FRONTEND_PARSER_H
