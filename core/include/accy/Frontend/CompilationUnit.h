//===- CompilationUnit.h - Everything the frontend knows about a file -*- C++ -*-===//
//
// A CompilationUnit holds one SourceModule per .accy file read (the main
// file first, then its imports in the order they were first reached), each
// with its parse tree and its typed items, plus the import graph.
//
// Imports make the `const` and `fn` items of the imported file (only those
// declared in it, not what it imports itself) visible in the importing file.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_FRONTEND_COMPILATIONUNIT_H
#define ACCY_FRONTEND_COMPILATIONUNIT_H

#include "accy/Frontend/AST.h"
#include "accy/Frontend/Syntax.h"

#include <memory>
#include <string>
#include <vector>

namespace accy {

struct SourceModule;

/// One `import "path";` of a module.
struct ImportEdge {
  std::string spelling; ///< The path as written.
  SourceRange range;    ///< The string literal.
  /// The module it resolved to; null when the file was not found.
  const SourceModule *target = nullptr;
};

/// One .accy file.
struct SourceModule {
  FileID file;
  std::string path; ///< As printed in diagnostics.
  std::unique_ptr<syntax::Module> syntax;
  std::vector<ImportEdge> imports;
  /// Typed items, in source order.
  std::vector<std::unique_ptr<ConstDecl>> consts;
  std::vector<std::unique_ptr<Function>> functions;
  std::vector<std::unique_ptr<Kernel>> kernels;

  const Kernel *findKernel(llvm::StringRef name) const;
  const Function *findFunction(llvm::StringRef name) const;
  const ConstDecl *findConst(llvm::StringRef name) const;
};

class CompilationUnit {
public:
  /// modules[0] is the main file (absent only if it could not be read).
  std::vector<std::unique_ptr<SourceModule>> modules;

  const SourceModule *mainModule() const {
    return modules.empty() ? nullptr : modules.front().get();
  }
  /// The kernels of the main file, in source order.
  std::vector<const Kernel *> kernels() const;
  const Kernel *findKernel(llvm::StringRef name) const;
  /// Paths of every file read besides the main one (for build depfiles).
  std::vector<std::string> dependencies() const;
  const SourceModule *findModule(FileID file) const;
};

} // namespace accy

#endif // ACCY_FRONTEND_COMPILATIONUNIT_H
