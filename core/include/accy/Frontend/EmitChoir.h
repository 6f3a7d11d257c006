//===- EmitChoir.h - From the typed AST to the choir dialect ----*- C++ -*-===//
//
// The last step of the semantic stage: every valid kernel becomes one
// kernel module holding a func.func of choir ops. Locations are
// kernel-relative (`loc("kernel#N")`, N the node's ordinal), so a comment or
// whitespace edit leaves the output byte-identical; the ordinals' source
// ranges are returned beside the module.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_FRONTEND_EMITCHOIR_H
#define ACCY_FRONTEND_EMITCHOIR_H

#include "accy/Frontend/Source.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <vector>

namespace accy {

struct Kernel;

struct EmittedKernel {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  /// Node ordinal -> source range; node 0 is the kernel's name.
  std::vector<SourceRange> nodes;
};

/// Emits `kernel` (which must be valid: sema reported no error in it) as
/// `module @NAME attributes {accy.kernel = "NAME"} { func.func @NAME ... }`.
EmittedKernel emitChoir(mlir::MLIRContext &context, const Kernel &kernel);

} // namespace accy

#endif // ACCY_FRONTEND_EMITCHOIR_H
