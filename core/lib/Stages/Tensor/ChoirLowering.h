//===- ChoirLowering.h - The driver of the tensor lowerings -----*- C++ -*-===//
//
// Every lowering pass of the tensor stage owns some choir ops and rewrites
// them with its patterns into linalg, tensor, arith and math. What differs
// between them is which ops, which patterns, and why an op is left (a type
// the patterns do not take); the driver is the same, and lives here.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LIB_STAGES_TENSOR_CHOIRLOWERING_H
#define ACCY_LIB_STAGES_TENSOR_CHOIRLOWERING_H

#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

#include <string>

namespace accy::tensorstage {

/// Applies `patterns` to the ops under `root` that `owns` accepts (and to
/// the owned ops the patterns create) by a partial dialect conversion, then
/// emits `'choir.X' is not yet lowered by <pass>` on every owned op left,
/// with a note from `why` when it says something. Other ops are left as
/// they are.
mlir::LogicalResult
lowerOwnedOps(mlir::Operation *root, llvm::StringRef passName,
              mlir::RewritePatternSet &&patterns,
              llvm::function_ref<bool(mlir::Operation *)> owns,
              llvm::function_ref<std::string(mlir::Operation *)> why);

/// A tensor-stage lowering pass: `PassT`, derived from this on its
/// tablegen'd base `BaseT<PassT>`, adds its patterns in
/// `void populatePatterns(RewritePatternSet &)` (which may read the pass's
/// options); `owns` says which ops it lowers, `whyNotLowered` why the
/// patterns leave an owned op (empty when they take it).
template <typename PassT, template <typename> class BaseT,
          bool (*owns)(mlir::Operation *),
          std::string (*whyNotLowered)(mlir::Operation *)>
class ChoirLoweringPass : public BaseT<PassT> {
public:
  using BaseT<PassT>::BaseT;

  void runOnOperation() override {
    mlir::RewritePatternSet patterns(&this->getContext());
    static_cast<PassT *>(this)->populatePatterns(patterns);
    if (mlir::failed(lowerOwnedOps(this->getOperation(), this->getArgument(),
                                   std::move(patterns), owns, whyNotLowered)))
      this->signalPassFailure();
  }
};

} // namespace accy::tensorstage

#endif // ACCY_LIB_STAGES_TENSOR_CHOIRLOWERING_H
