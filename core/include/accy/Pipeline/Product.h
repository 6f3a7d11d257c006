//===- Product.h - The shape of a stage product ------------------*- C++ -*-===//
//
// A product is a top-level module tagged with its stage, holding one nested
// module per kernel. Each kernel module carries its own product key and the
// key of the product it was made from, so a chain of products can be checked
// link by link.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_PIPELINE_PRODUCT_H
#define ACCY_PIPELINE_PRODUCT_H

#include "accy/Pipeline/Stage.h"
#include "accy/ProductAttributes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

namespace accy {

/// A new, empty product of `stage`.
mlir::OwningOpRef<mlir::ModuleOp> createProduct(mlir::MLIRContext &context,
                                                StageId stage);

/// The kernel modules of a product, in order.
llvm::SmallVector<mlir::ModuleOp> kernelModules(mlir::ModuleOp product);
llvm::StringRef kernelName(mlir::ModuleOp kernelModule);
llvm::StringRef kernelKey(mlir::ModuleOp kernelModule);

/// Checks that `product` is a well-formed product of `stage`.
llvm::Error verifyProduct(mlir::ModuleOp product, StageId stage);

/// Checks that every kernel of `product` names, as its input key, the key of
/// the same kernel in `predecessor`.
llvm::Error verifyChain(mlir::ModuleOp predecessor, mlir::ModuleOp product);
/// The same for the kernel modules of two products.
llvm::Error verifyChain(llvm::ArrayRef<mlir::ModuleOp> predecessor,
                        llvm::ArrayRef<mlir::ModuleOp> made);

} // namespace accy

#endif // ACCY_PIPELINE_PRODUCT_H
