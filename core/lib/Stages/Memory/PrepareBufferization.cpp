//===- ProtectInputs.cpp - Inputs are read-only for bufferization ---------===//

#include "accy/Stages/Dispatch/Plan.h"
#include "accy/Stages/Memory/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace accy::memory {
#define GEN_PASS_DEF_PROTECTINPUTS
#include "accy/Stages/Memory/Passes.h.inc"
} // namespace accy::memory

using namespace mlir;
using namespace accy;

namespace {

struct ProtectInputsPass
    : public accy::memory::impl::ProtectInputsBase<ProtectInputsPass> {
  void runOnOperation() override {
    Builder b(&getContext());
    if (failed(forEachKernelModule(getOperation(), [&](ModuleOp kernel) {
          func::FuncOp entry = getKernelEntry(kernel);
          if (!entry)
            return failure();
          for (unsigned i = 0; i < entry.getNumArguments(); ++i) {
            if (!isa<TensorType>(entry.getArgumentTypes()[i]) ||
                entry.getArgAttr(i, kResultAttr))
              continue;
            entry.setArgAttr(
                i, bufferization::BufferizationDialect::kWritableAttrName,
                b.getBoolAttr(false));
          }
          return success();
        })))
      signalPassFailure();
  }
};

} // namespace
