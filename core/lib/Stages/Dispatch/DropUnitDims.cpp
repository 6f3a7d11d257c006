//===- DropUnitDims.cpp - Generic ops without unit-extent loops -----------===//
//
// Reductions with `keepdims=true` give `N x 1` results, and the language's
// broadcasts give size-1 axes; the tensor stage lowers them as written, with
// `tensor.expand_shape`/`collapse_shape` between the ops. A reshape is not an
// elementwise op, so it would stop fusion: the layer-norm pattern
// (`mean(..., keepdims=true)`, then `rsqrt(var + EPS)` over `N x 1`) would
// leave its epilogue in dispatches of their own. As IREE does before forming
// dispatch regions, named ops are generalized and every generic loses its
// unit-extent loops, so that the reshapes meet and cancel.
//
//===----------------------------------------------------------------------===//

#include "accy/Stages/Dispatch/Passes.h"
#include "accy/Stages/Dispatch/Plan.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace accy::dispatch {
#define GEN_PASS_DEF_DROPUNITDIMS
#include "accy/Stages/Dispatch/Passes.h.inc"
} // namespace accy::dispatch

using namespace mlir;
using namespace accy;

namespace {

void generalizeNamedOps(func::FuncOp func) {
  SmallVector<linalg::LinalgOp> named;
  func.walk([&](linalg::LinalgOp op) {
    if (!isa<linalg::GenericOp, linalg::FillOp>(op))
      named.push_back(op);
  });
  IRRewriter rewriter(func.getContext());
  for (linalg::LinalgOp op : named) {
    rewriter.setInsertionPoint(op);
    // Ops that do not generalize stay named; they are dispatch roots.
    (void)linalg::generalizeNamedOp(rewriter, op);
  }
}

struct DropUnitDimsPass
    : public accy::dispatch::impl::DropUnitDimsBase<DropUnitDimsPass> {
  using Base::Base;

  LogicalResult dropUnitDims(ModuleOp kernel) {
    func::FuncOp entry = getKernelEntry(kernel);
    if (!entry)
      return failure();
    generalizeNamedOps(entry);

    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    linalg::ControlDropUnitDims options;
    // A scan keeps its loops: its tag (`choir.scan`) names the axis loop's
    // role, and the rewritten generic would not carry it.
    options.controlFn = [](Operation *op) -> SmallVector<unsigned> {
      if (op->hasAttr(kScanAttrName))
        return {};
      return linalg::ControlDropUnitDims().controlFn(op);
    };
    linalg::populateFoldUnitExtentDimsPatterns(patterns, options);
    tensor::populateFoldTensorEmptyPatterns(patterns);
    // Sizes read from the reshapes become sizes of their sources, so that
    // nothing keeps a reshape of a `tensor.empty` alive.
    memref::populateResolveRankedShapedTypeResultDimsPatterns(patterns);
    if (failed(applyPatternsAndFoldGreedily(entry, std::move(patterns))))
      return entry.emitError("dropping unit-extent loops did not converge");
    return success();
  }

  void runOnOperation() override {
    ModuleOp kernel = getOperation();
    if (failed(verifyKernelModuleAnchor(kernel, getArgument())) ||
        failed(dropUnitDims(kernel)))
      signalPassFailure();
  }
};

} // namespace
