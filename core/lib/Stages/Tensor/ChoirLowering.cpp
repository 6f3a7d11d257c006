//===- ChoirLowering.cpp - The driver of the tensor lowerings -------------===//

#include "ChoirLowering.h"

#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

LogicalResult
accy::tensorstage::lowerOwnedOps(Operation *root, StringRef passName,
                                 RewritePatternSet &&patterns,
                                 function_ref<bool(Operation *)> owns,
                                 function_ref<std::string(Operation *)> why) {
  // Owned ops have no legality of their own: the conversion rewrites what
  // its patterns take and leaves the rest for the diagnostics below, which
  // say more than the conversion's "failed to legalize".
  ConversionTarget target(*root->getContext());
  target.markUnknownOpDynamicallyLegal(
      [&](Operation *op) -> std::optional<bool> {
        if (owns(op))
          return std::nullopt;
        return true;
      });
  if (failed(applyPartialConversion(root, target, std::move(patterns))))
    return failure();

  bool failed = false;
  root->walk([&](Operation *op) {
    if (!owns(op))
      return;
    InFlightDiagnostic diag = op->emitError()
                              << "'" << op->getName()
                              << "' is not yet lowered by " << passName;
    std::string reason = why(op);
    if (!reason.empty())
      diag.attachNote() << reason;
    failed = true;
  });
  return failure(failed);
}
