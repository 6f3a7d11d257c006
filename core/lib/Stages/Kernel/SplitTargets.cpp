//===- SplitTargets.cpp - Launch functions per target and host version ----===//

#include "accy/KernelModule/KernelModule.h"
#include "accy/ProductAttributes.h"
#include "accy/Stages/Dispatch/Plan.h"
#include "accy/Stages/Kernel/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace accy::kernel {
#define GEN_PASS_DEF_SPLITTARGETS
#include "accy/Stages/Kernel/Passes.h.inc"
} // namespace accy::kernel

using namespace mlir;
using namespace accy;

namespace {

/// Intermediate buffers of a launch function live in device memory.
void allocateOnDevice(func::FuncOp launch) {
  IRRewriter rewriter(launch.getContext());
  launch.walk([&](memref::AllocOp alloc) {
    rewriter.setInsertionPoint(alloc);
    auto device = rewriter.create<gpu::AllocOp>(
        alloc.getLoc(), alloc.getType(), /*asyncToken=*/Type(),
        /*asyncDependencies=*/ValueRange{}, alloc.getDynamicSizes(),
        /*symbolOperands=*/ValueRange{}, /*hostShared=*/false);
    if (Attribute id = alloc->getAttr(kBufferAttr))
      device->setAttr(kBufferAttr, id);
    rewriter.replaceOp(alloc, device.getMemref());
  });
  launch.walk([&](memref::DeallocOp dealloc) {
    rewriter.setInsertionPoint(dealloc);
    rewriter.create<gpu::DeallocOp>(dealloc.getLoc(), /*asyncToken=*/Type(),
                                    ValueRange{}, dealloc.getMemref());
    rewriter.eraseOp(dealloc);
  });
}

struct SplitTargetsPass
    : public accy::kernel::impl::SplitTargetsBase<SplitTargetsPass> {
  LogicalResult split(ModuleOp kernel) {
    func::FuncOp entry = getKernelEntry(kernel);
    if (!entry)
      return failure();
    FailureOr<SmallVector<const TargetProfile *>> targets =
        getPlannedTargets(kernel);
    if (failed(targets))
      return failure();
    for (Type type : entry.getArgumentTypes())
      if (!isa<MemRefType>(type))
        return entry.emitError()
               << "kernel '" << getKernelName(kernel)
               << "' is not bufferized; run the memory stage first";

    OpBuilder builder(&getContext());
    bool host = false;
    for (const TargetProfile *profile : *targets) {
      if (!profile->isGPU()) {
        host = true;
        continue;
      }
      builder.setInsertionPoint(entry);
      auto launch = cast<func::FuncOp>(builder.clone(*entry));
      launch.setSymName((getKernelName(kernel) + "__" + profile->name).str());
      launch->removeAttr(kEntryAttr);
      launch->setAttr(kLaunchTargetAttr, builder.getStringAttr(profile->name));
      allocateOnDevice(launch);
    }
    if (!host) {
      entry.erase();
      return success();
    }
    // The host version runs the dispatches in order as loops.
    IRRewriter rewriter(&getContext());
    inlineDispatchRegions(rewriter, entry);
    builder.setInsertionPointToEnd(kernel.getBody());
    auto hostModule =
        builder.create<ModuleOp>(kernel.getLoc(), StringRef(kHostModuleName));
    entry->moveBefore(hostModule.getBody(), hostModule.getBody()->end());
    entry->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                   builder.getUnitAttr());
    return success();
  }

  void runOnOperation() override {
    ModuleOp kernel = getOperation();
    if (failed(verifyKernelModuleAnchor(kernel, getArgument())) ||
        failed(split(kernel)))
      signalPassFailure();
  }
};

} // namespace
