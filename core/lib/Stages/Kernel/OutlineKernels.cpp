//===- OutlineKernels.cpp - gpu.launch bodies into gpu.funcs --------------===//
//
// Upstream's gpu-kernel-outlining, less the search for the symbols each
// kernel uses: that search walked every attribute of every op of every
// kernel, more than half of the pass's time (1.4% of the instructions of a
// cold build of softmax.accy, callgrind), for kernels that reference no
// symbol. The outlining itself is upstream's (outlineKernelFunc).
//
//===----------------------------------------------------------------------===//

#include "accy/Stages/Kernel/Passes.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Utils.h"
#include "mlir/IR/SymbolTable.h"

namespace accy::kernel {
#define GEN_PASS_DEF_OUTLINEKERNELS
#include "accy/Stages/Kernel/Passes.h.inc"
} // namespace accy::kernel

using namespace mlir;

namespace {

struct OutlineKernelsPass
    : public accy::kernel::impl::OutlineKernelsBase<OutlineKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    bool outlined = false;
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
      SmallVector<gpu::LaunchOp> launches;
      func.walk([&](gpu::LaunchOp launch) { launches.push_back(launch); });
      // Each kernel's module right after the function, in launch order.
      Block::iterator insertPoint(func->getNextNode());
      for (gpu::LaunchOp launch : launches) {
        if (failed(outline(launch, func.getName(), symbols, insertPoint)))
          return signalPassFailure();
        outlined = true;
      }
    }
    if (outlined)
      module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                      UnitAttr::get(&getContext()));
  }

  /// Replaces `launch` with a launch of a gpu.func `<function>_kernel` in a
  /// gpu.module of that name (renamed on a clash) at `insertPoint`.
  LogicalResult outline(gpu::LaunchOp launch, StringRef function,
                        SymbolTable &symbols, Block::iterator insertPoint) {
    SmallVector<Value> operands;
    std::string name = (function + "_kernel").str();
    gpu::GPUFuncOp kernel = outlineKernelFunc(launch, name, operands);
    WalkResult usesSymbol = kernel.walk([](SymbolUserOpInterface user) {
      user->emitOpError("references a symbol from a kernel; kernels are "
                        "outlined without the symbols they use");
      return WalkResult::interrupt();
    });
    if (usesSymbol.wasInterrupted()) {
      kernel.erase();
      return failure();
    }
    OpBuilder builder(&getContext());
    auto kernelModule =
        builder.create<gpu::GPUModuleOp>(kernel.getLoc(), kernel.getName());
    SymbolTable(kernelModule).insert(kernel);
    symbols.insert(kernelModule, insertPoint);

    builder.setInsertionPoint(launch);
    Value asyncToken = launch.getAsyncToken();
    auto launchFunc = builder.create<gpu::LaunchFuncOp>(
        launch.getLoc(), kernel, launch.getGridSizeOperandValues(),
        launch.getBlockSizeOperandValues(), launch.getDynamicSharedMemorySize(),
        operands, asyncToken ? asyncToken.getType() : nullptr,
        launch.getAsyncDependencies(),
        launch.hasClusterSize()
            ? std::optional(launch.getClusterSizeOperandValues())
            : std::nullopt);
    launch.replaceAllUsesWith(launchFunc);
    launch.erase();
    return success();
  }
};

} // namespace
