//===- LegalizeMathToF32.cpp - Narrow float math in f32, where any --------===//
//
// Upstream's math-legalize-to-f32 patterns and conversion target, applied
// only to an operation that has a math op on a float type narrower than
// f32. The conversion walks every op it is given, and most kernels have no
// such op: they paid for a walk that changed nothing.
//
//===----------------------------------------------------------------------===//

#include "accy/Stages/Target/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/DialectConversion.h"

namespace accy::target {
#define GEN_PASS_DEF_LEGALIZEMATHTOF32
#include "accy/Stages/Target/Passes.h.inc"
} // namespace accy::target

using namespace mlir;

/// Whether `type`, or its element type, is a float narrower than f32.
static bool isNarrowFloat(Type type) {
  auto element = dyn_cast<FloatType>(getElementTypeOrSelf(type));
  return element && element.getWidth() < 32;
}

/// Whether `root` holds a math op that upstream's legalization rewrites:
/// one with a narrow float operand or result.
static bool hasNarrowFloatMath(Operation *root) {
  return root
      ->walk([](Operation *op) {
        if (!isa<math::MathDialect>(op->getDialect()))
          return WalkResult::advance();
        if (llvm::any_of(op->getOperandTypes(), isNarrowFloat) ||
            llvm::any_of(op->getResultTypes(), isNarrowFloat))
          return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

namespace {
struct LegalizeMathToF32Pass
    : public accy::target::impl::LegalizeMathToF32Base<LegalizeMathToF32Pass> {
  void runOnOperation() override {
    Operation *root = getOperation();
    if (!hasNarrowFloatMath(root))
      return markAllAnalysesPreserved();
    TypeConverter converter;
    math::populateLegalizeToF32TypeConverter(converter);
    ConversionTarget target(getContext());
    math::populateLegalizeToF32ConversionTarget(target, converter);
    RewritePatternSet patterns(&getContext());
    math::populateLegalizeToF32Patterns(patterns, converter);
    if (failed(applyPartialConversion(root, target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
