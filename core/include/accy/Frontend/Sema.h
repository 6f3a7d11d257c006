//===- Sema.h - Name resolution, types and shapes ---------------*- C++ -*-===//
//
// Sema turns the parse trees of a CompilationUnit into typed items:
// resolves names, checks types and shapes (broadcasting, einsum, indexing,
// built-in arguments), and inlines fn calls. Errors go to the engine; the
// typed AST is produced even then (with ErrorExprs) for editor features.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_FRONTEND_SEMA_H
#define ACCY_FRONTEND_SEMA_H

#include "accy/Frontend/CompilationUnit.h"
#include "accy/Frontend/Diagnostic.h"

namespace accy {

struct SemaLimits {
  /// Deepest typed expression tree, counting inlined fn bodies.
  unsigned maxExprDepth = 1024;
  /// Most nested inlined fn calls.
  unsigned maxInlineDepth = 64;
  /// Most typed nodes one item may contain after inlining.
  uint64_t maxNodesPerItem = 1000000;
};

/// Checks every module of `unit` (each must have its `syntax` and resolved
/// `imports`), filling in their typed consts, functions and kernels.
void checkCompilationUnit(CompilationUnit &unit, DiagnosticEngine &diags,
                          const SemaLimits &limits = {});

} // namespace accy

#endif // ACCY_FRONTEND_SEMA_H
