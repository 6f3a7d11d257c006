//===- Passes.h - Passes and pipeline of the tensor stage -------*- C++ -*-===//
//
// Lowers the contract product to linalg/tensor/arith/math on tensors in
// destination-passing style. The pipeline `accy-choir-tensor` is registered
// for accy-opt; drivers build it per kernel module with buildTensorPipeline.
//
// (The namespace is `tensorstage`: `accy::tensor` would hide mlir::tensor
// inside the accy namespace.)
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_STAGES_TENSOR_PASSES_H
#define ACCY_STAGES_TENSOR_PASSES_H

#include "accy/Dialect/Choir/IR/Choir.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

#include <memory>

namespace accy::tensorstage {

#define GEN_PASS_DECL
#include "accy/Stages/Tensor/Passes.h.inc"

/// mse, cross_entropy, nll.
void populateChoirLossLoweringPatterns(mlir::RewritePatternSet &patterns);
/// relu gelu sigmoid tanh silu exp log sqrt rsqrt abs neg softmax
/// log_softmax.
void populateChoirActivationLoweringPatterns(mlir::RewritePatternSet &patterns);
/// einsum; `useNamedOps` picks linalg.matmul/batch_matmul where they match.
void populateChoirEinsumLoweringPatterns(mlir::RewritePatternSet &patterns,
                                         bool useNamedOps = true);
/// slice take transpose reshape broadcast concat scan.
void populateChoirIndexingLoweringPatterns(mlir::RewritePatternSet &patterns);
/// reduce.
void populateChoirReductionLoweringPatterns(mlir::RewritePatternSet &patterns);
/// add sub mul div cmp select cast constant full iota.
void populateChoirElementwiseLoweringPatterns(
    mlir::RewritePatternSet &patterns);

/// Rewrites a kernel function (`choir.kernel`) into destination-passing
/// style; see accy-choir-destination-style.
mlir::LogicalResult convertToDestinationStyle(mlir::func::FuncOp func);

struct TensorPipelineOptions
    : public mlir::PassPipelineOptions<TensorPipelineOptions> {
  Option<bool> useNamedOps{
      *this, "use-named-ops",
      llvm::cl::desc("Lower matching einsums to linalg.matmul/batch_matmul"),
      llvm::cl::init(true)};
};

/// Adds the tensor stage to `pm` (anchored on a `builtin.module`: one kernel
/// module, or a file's top-level module): loss, activation, einsum,
/// indexing, reduction and elementwise lowering, cleanup (canonicalize,
/// dims resolved to the arguments, CSE), then destination-passing style.
void buildTensorPipeline(mlir::OpPassManager &pm,
                         const TensorPipelineOptions &options);
void buildTensorPipeline(mlir::OpPassManager &pm);

/// Registers `accy-choir-tensor`.
void registerTensorPipeline();

#define GEN_PASS_REGISTRATION
#include "accy/Stages/Tensor/Passes.h.inc"

} // namespace accy::tensorstage

#endif // ACCY_STAGES_TENSOR_PASSES_H
