//===- Frontend.h - Entry points of the Accy frontend -----------*- C++ -*-===//
//
// analyzeFile / analyzeBuffer read a main file and its imports, parse and
// check them, and return the typed CompilationUnit with every diagnostic.
// No exceptions, no aborts: bad input always ends up as diagnostics.
//
// Import resolution: `import "p";` in file F looks for dirname(F)/p, then
// I/p for each include directory I, in order. Files are identified by their
// absolute, dot-free path (symlinks are not resolved), so each is read once.
//
//   accy::SourceManager sm;
//   accy::FrontendResult r = accy::analyzeFile("k.accy", {"include"}, sm);
//   accy::printDiagnostics(llvm::errs(), sm, r.diagnostics);
//   if (!r.hasErrors())
//     for (const accy::Kernel *k : r.unit.kernels())
//       accy::walkPreOrder(*k, [](const accy::Expr &e) { ... });
//
// The headers, one responsibility each: Source.h (buffers, positions),
// Diagnostic.h + DiagnosticCodes.def (errors and their printer), Token.h +
// Lexer.h, Syntax.h + Parser.h (the parse tree), Types.h (element types,
// Dims, tensor types), Builtins.h (the built-in table), AST.h (the typed
// AST: the contract with emission), ASTWalk.h, ASTPrinter.h,
// CompilationUnit.h (modules and the import graph), Sema.h, Frontend.h.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_FRONTEND_FRONTEND_H
#define ACCY_FRONTEND_FRONTEND_H

#include "accy/Frontend/CompilationUnit.h"
#include "accy/Frontend/Diagnostic.h"
#include "accy/Frontend/Sema.h"
#include "accy/Frontend/Source.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace accy {

struct FrontendOptions {
  /// `-I` directories searched for imports after the importing file's own.
  std::vector<std::string> includeDirs;
  /// Supplies file contents before the disk is read (e.g. unsaved editor
  /// buffers). Called with the absolute path of a candidate file; return
  /// nullopt to fall back to the disk.
  std::function<std::optional<std::string>(llvm::StringRef absolutePath)>
      overlay;
  /// Stop reporting after this many errors (0: no limit).
  unsigned errorLimit = 100;
  SemaLimits semaLimits;
};

/// Every call adds the files it reads to `sm` (buffers are never removed):
/// long-running processes such as the language server should give each
/// analysis a fresh SourceManager and keep it as long as the result.
struct FrontendResult {
  CompilationUnit unit;
  /// Sorted by file (main first) and position.
  std::vector<Diagnostic> diagnostics;
  /// The main file's id in the SourceManager (invalid if it was unreadable).
  FileID mainFile;

  bool hasErrors() const;
};

/// Reads `path` from disk (or the overlay) and analyzes it.
FrontendResult analyzeFile(llvm::StringRef path,
                           const std::vector<std::string> &includeDirs,
                           SourceManager &sm);
FrontendResult analyzeFile(llvm::StringRef path, const FrontendOptions &options,
                           SourceManager &sm);

/// Analyzes `text` as the contents of `path` (which need not exist; its
/// directory is used to resolve relative imports).
FrontendResult analyzeBuffer(llvm::StringRef path, llvm::StringRef text,
                             const std::vector<std::string> &includeDirs,
                             SourceManager &sm);
FrontendResult analyzeBuffer(llvm::StringRef path, llvm::StringRef text,
                             const FrontendOptions &options, SourceManager &sm);

} // namespace accy

#endif // ACCY_FRONTEND_FRONTEND_H
