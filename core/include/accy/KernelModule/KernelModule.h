//===- KernelModule.h - The kernel modules of a product ---------*- C++ -*-===//
//
// From the contract stage on, a product is a module of kernel modules, one
// per kernel (`accy.kernel`), each with its entry function and, from the
// dispatch stage on, the targets planned for it. These are the accessors
// every stage, the code generation library and the language server share;
// they sit below all of them.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_KERNELMODULE_KERNELMODULE_H
#define ACCY_KERNELMODULE_KERNELMODULE_H

#include "accy/Target/TargetProfile.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"

#include <vector>

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace accy {

/// Every pass of the stages runs on one kernel module: the pass manager
/// nests it under the product's module (`builtin.module(builtin.module(
/// PASS))`, as the stage pipelines do), runs it on each kernel, on several
/// threads, and reports it per kernel. Emits an error that says so and
/// fails when `module` (the module `pass` was given) is not a kernel module.
mlir::LogicalResult verifyKernelModuleAnchor(mlir::ModuleOp module,
                                             llvm::StringRef pass);

/// The kernel modules of a product: `product` itself if it is one, else the
/// kernel modules nested in it, in order.
std::vector<mlir::ModuleOp> getKernelModules(mlir::ModuleOp product);

/// The entry function of a kernel module (the func.func with `accy.entry`, or
/// the one named after the kernel); emits an error and returns null if there
/// is none.
mlir::func::FuncOp getKernelEntry(mlir::ModuleOp kernel);

/// The kernel's name (`accy.kernel`, else the module's symbol name).
llvm::StringRef getKernelName(mlir::ModuleOp kernel);

/// The targets recorded by the planner on a kernel module; emits an error if
/// the attribute is missing or names an unknown target.
mlir::FailureOr<llvm::SmallVector<const TargetProfile *>>
getPlannedTargets(mlir::ModuleOp kernel);

} // namespace accy

#endif // ACCY_KERNELMODULE_KERNELMODULE_H
