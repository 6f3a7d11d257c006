//===- ExpandStridedMetadata.cpp - Upstream's expansion, on its roots -----===//
//
// memref ops that change a view (subview, reinterpret_cast, expand and
// collapse shape, ...) become memref.extract_strided_metadata and affine
// arithmetic on sizes and strides, which the LLVM lowering then needs no
// descriptor juggling for. Upstream's expand-strided-metadata pass applies
// these patterns with a greedy run over the whole module; this pass applies
// the same patterns to the ops they rewrite only, with the same result.
//
//===----------------------------------------------------------------------===//

#include "PatternRoots.h"
#include "accy/Stages/Target/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace accy::target {
#define GEN_PASS_DEF_EXPANDSTRIDEDMETADATA
#include "accy/Stages/Target/Passes.h.inc"
} // namespace accy::target

using namespace mlir;

namespace {
struct ExpandStridedMetadataPass
    : public accy::target::impl::ExpandStridedMetadataBase<
          ExpandStridedMetadataPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    memref::populateExpandStridedMetadataPatterns(patterns);
    if (failed(accy::target::applyPatternsToRoots(getOperation(),
                                                  std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
