//===- TestUtil.h - Helpers for the frontend unit tests ---------*- C++ -*-===//
#ifndef ACCY_TESTS_UNIT_FRONTEND_TESTUTIL_H
#define ACCY_TESTS_UNIT_FRONTEND_TESTUTIL_H

#include "accy/Frontend/ASTPrinter.h"
#include "accy/Frontend/Frontend.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace accy::test {

/// One analysis of in-memory sources. Files live under /virtual/ and are
/// served through the overlay, so imports work without touching the disk.
struct Analysis {
  SourceManager sm;
  FrontendResult result;

  /// Diagnostics in the text format (no snippets by default).
  std::string text(bool snippets = false) const;
  /// The codes, in order: {"E0040", "E0022"}.
  std::vector<std::string> codes() const;
  /// Messages, in order.
  std::vector<std::string> messages() const;
  size_t errorCount() const;
  const Kernel *kernel(llvm::StringRef name) const;
  const Function *fn(llvm::StringRef name) const;
  /// The dump of a kernel (ASTPrinter).
  std::string dump(llvm::StringRef kernel) const;
};

/// Analyzes `main` as /virtual/main.accy with extra virtual files (paths
/// relative to /virtual/).
std::unique_ptr<Analysis>
analyze(const std::string &main,
        const std::map<std::string, std::string> &files = {},
        std::vector<std::string> includeDirs = {});

/// Analyzes a kernel body: wraps `body` as
///   kernel k(PARAMS) -> RESULT { BODY }
std::unique_ptr<Analysis> analyzeKernel(const std::string &params,
                                        const std::string &result,
                                        const std::string &body);

/// The type of the kernel's single returned value ("" when absent).
std::string resultTypeOf(const Analysis &a, llvm::StringRef kernel = "k");

/// Type of `expr` computed in kernel k(PARAMS) as `let __v = EXPR;`
/// Returns the type string, or "error:E00NN message" for the first error.
std::string typeOf(const std::string &params, const std::string &expr);

} // namespace accy::test

#endif
