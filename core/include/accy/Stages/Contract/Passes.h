//===- Passes.h - Passes and pipeline of the contract stage -----*- C++ -*-===//
//
// Normalizes the semantic product into the backend contract product.
// The pipeline `accy-choir-contract` is registered for accy-opt; drivers build
// it per kernel module with buildContractPipeline.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_STAGES_CONTRACT_PASSES_H
#define ACCY_STAGES_CONTRACT_PASSES_H

#include "accy/Dialect/Choir/IR/Choir.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

#include <cstdint>
#include <memory>

namespace accy::contract {

#define GEN_PASS_DECL
#include "accy/Stages/Contract/Passes.h.inc"

/// Counts rewrites of the pattern sets below for pass statistics. The
/// patterns run in one greedy driver at a time, so plain counters do.
struct RewriteCounter {
  int64_t rewrites = 0;
  int64_t einsumMerges = 0;
};

/// `x + 0`, `x * 1`, double negation, identity transpose/reshape/broadcast/
/// cast, select on a constant condition.
void populateChoirCanonicalizationPatterns(mlir::RewritePatternSet &patterns,
                                           RewriteCounter *counter = nullptr);

/// The algebraic rewrite set of accy-choir-saturate. `dynamicSizeEstimate`
/// is the size the einsum-merge cost model assumes for a dynamic dimension.
void populateChoirSaturationPatterns(mlir::RewritePatternSet &patterns,
                                     RewriteCounter *counter = nullptr,
                                     int64_t dynamicSizeEstimate = 128);

/// Folds a `choir.transpose` feeding a `choir.einsum` into the einsum's spec.
void populateChoirLayoutFoldingPatterns(mlir::RewritePatternSet &patterns,
                                        RewriteCounter *counter = nullptr);

/// Evaluates choir ops whose operands are constants, for results of at most
/// `maxElements` elements. Unless `allowTables`, a result that is not a
/// splat is only made when an operand already is such a constant.
void populateChoirConstantFoldPatterns(mlir::RewritePatternSet &patterns,
                                       int64_t maxElements,
                                       bool allowTables = false,
                                       RewriteCounter *counter = nullptr);

struct ContractPipelineOptions
    : public mlir::PassPipelineOptions<ContractPipelineOptions> {
  Option<int64_t> maxSaturationIterations{
      *this, "max-saturation-iterations",
      llvm::cl::desc("Largest number of greedy sweeps of accy-choir-saturate"),
      llvm::cl::init(8)};
  Option<int64_t> maxFoldElements{
      *this, "max-fold-elements",
      llvm::cl::desc("Largest constant accy-choir-constant-fold makes"),
      llvm::cl::init(4096)};
  Option<bool> allowConstantTables{
      *this, "allow-constant-tables",
      llvm::cl::desc("Let accy-choir-constant-fold make new non-splat "
                     "constants (e.g. from iota)"),
      llvm::cl::init(false)};
};

/// Adds the contract stage to `pm` (anchored on a `builtin.module`: one
/// kernel module, or a file's top-level module): canonicalize, saturate,
/// shape-layout-propagate, constant-fold, then canonicalize again.
void buildContractPipeline(mlir::OpPassManager &pm,
                           const ContractPipelineOptions &options);
void buildContractPipeline(mlir::OpPassManager &pm);

/// Registers `accy-choir-contract`.
void registerContractPipeline();

#define GEN_PASS_REGISTRATION
#include "accy/Stages/Contract/Passes.h.inc"

} // namespace accy::contract

#endif // ACCY_STAGES_CONTRACT_PASSES_H
