//===- ContractUtils.h - Helpers shared by the contract passes --*- C++ -*-===//
#ifndef ACCY_LIB_STAGES_CONTRACT_CONTRACTUTILS_H
#define ACCY_LIB_STAGES_CONTRACT_CONTRACTUTILS_H

#include "accy/Dialect/Choir/IR/Choir.h"
#include "accy/Dialect/Choir/IR/EinsumSpec.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>
#include <string>

namespace accy::contract {

struct RewriteCounter;

/// Counts one rewrite for the pass statistics (no counter: nothing).
void noteRewrite(RewriteCounter *counter);

/// A rewrite pattern of the contract passes: it reports each rewrite to the
/// pass's counter.
template <typename OpTy>
struct CountedPattern : mlir::OpRewritePattern<OpTy> {
  CountedPattern(mlir::MLIRContext *ctx, RewriteCounter *counter)
      : mlir::OpRewritePattern<OpTy>(ctx), counter(counter) {}
  RewriteCounter *counter;
};

inline mlir::RankedTensorType tensorType(mlir::Value v) {
  return mlir::cast<mlir::RankedTensorType>(v.getType());
}

/// True when a value of shape `from` becomes shape `to` by a tensor.cast:
/// one rank, and no size-1 dimension that would have to broadcast to a
/// larger (or unknown) size.
bool isPureCast(llvm::ArrayRef<int64_t> from, llvm::ArrayRef<int64_t> to);

/// The splat value of a constant tensor, as a double, if `v` is one.
std::optional<double> splatValue(mlir::Value v);

/// Makes `value` have type `type` (same element type): itself, a
/// `tensor.cast` when the shapes are cast-compatible, or a `choir.broadcast`.
/// Each dynamic dimension of `type` takes its size from `sizes` when given
/// (one per dynamic dimension), else from a dynamic dimension of `value`
/// aligned with it. Returns null when no size is available.
mlir::Value reshapeByBroadcast(mlir::OpBuilder &b, mlir::Location loc,
                               mlir::Value value, mlir::RankedTensorType type,
                               mlir::ValueRange sizes = {});

/// Prints an expanded einsum spec with lower-case labels only (labels made by
/// an ellipsis get unused letters), so that EinsumSpec::parse reads it back.
/// Returns std::nullopt when more than 26 labels are needed.
std::optional<std::string> sourceSpec(const choir::EinsumSpec &spec);

/// The size of every label of `spec` over `operands`, preferring a size
/// other than 1 (a size of 1 under a batch label broadcasts). Dynamic sizes
/// are ShapedType::kDynamic.
llvm::DenseMap<char, int64_t> einsumLabelSizes(const choir::EinsumSpec &spec,
                                               mlir::ValueRange operands);

/// True when an operand of the einsum has a static size 1 where the label's
/// size is not 1 (a broadcast that a lower-case spec could not express).
bool einsumBroadcasts(const choir::EinsumSpec &spec, mlir::ValueRange operands);

} // namespace accy::contract

#endif // ACCY_LIB_STAGES_CONTRACT_CONTRACTUTILS_H
