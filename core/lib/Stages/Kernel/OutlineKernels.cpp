//===- OutlineKernels.cpp - gpu.launch bodies into gpu.funcs --------------===//
//
// Upstream's gpu-kernel-outlining, less the search for the symbols each
// kernel uses: that search walked every attribute of every op of every
// kernel, more than half of the pass's time (1.4% of the instructions of a
// cold build of softmax.accy, callgrind), for kernels that reference no
// symbol. And the body moves into the kernel where upstream's
// outlineKernelFunc copies it and erases the original (another 1%); the
// kernel it makes is the same.
//
//===----------------------------------------------------------------------===//

#include "accy/Stages/Kernel/Passes.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Utils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"

#include <limits>

namespace accy::kernel {
#define GEN_PASS_DEF_OUTLINEKERNELS
#include "accy/Stages/Kernel/Passes.h.inc"
} // namespace accy::kernel

using namespace mlir;

namespace {

/// `dims` as known sizes of a kernel, when all three are constants that fit
/// in 32 bits.
DenseI32ArrayAttr knownDims(gpu::KernelDim3 dims) {
  SmallVector<int32_t, 3> sizes;
  for (Value dim : {dims.x, dims.y, dims.z}) {
    APInt size;
    if (!matchPattern(dim, m_ConstantInt(&size)) ||
        size.ugt(std::numeric_limits<uint32_t>::max()))
      return {};
    sizes.push_back(static_cast<int32_t>(size.getZExtValue()));
  }
  return DenseI32ArrayAttr::get(dims.x.getContext(), sizes);
}

/// Appends `IndexOp` in the x, y and z dimensions.
template <typename IndexOp>
void appendIndices(OpBuilder &builder, Location loc,
                   SmallVectorImpl<Value> &indices) {
  for (gpu::Dimension dim :
       {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z})
    indices.push_back(builder.create<IndexOp>(loc, dim));
}

/// The kernel upstream's outlineKernelFunc makes of `launch` (its
/// arguments the values the body uses from above, in `operands`; the
/// launch's indices and sizes gpu ops at its start; its attributions the
/// kernel's), with the body moved into it rather than copied.
gpu::GPUFuncOp moveIntoKernel(gpu::LaunchOp launch, StringRef name,
                              SmallVectorImpl<Value> &operands) {
  Region &body = launch.getBody();
  SetVector<Value> usedFromAbove;
  getUsedValuesDefinedAbove(body, usedFromAbove);
  operands.assign(usedFromAbove.begin(), usedFromAbove.end());
  OpBuilder builder(launch.getContext());
  auto kernel = builder.create<gpu::GPUFuncOp>(
      launch.getLoc(), name,
      builder.getFunctionType(ValueRange(operands).getTypes(), {}),
      TypeRange(ValueRange(launch.getWorkgroupAttributions())),
      TypeRange(ValueRange(launch.getPrivateAttributions())));
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                  builder.getUnitAttr());
  if (DenseI32ArrayAttr block = knownDims(launch.getBlockSizeOperandValues()))
    kernel.setKnownBlockSizeAttr(block);
  if (DenseI32ArrayAttr grid = knownDims(launch.getGridSizeOperandValues()))
    kernel.setKnownGridSizeAttr(grid);

  Block &entry = kernel.getBody().front();
  Block &launchEntry = body.front();
  builder.setInsertionPointToStart(&entry);
  SmallVector<Value, 12> indices;
  appendIndices<gpu::BlockIdOp>(builder, launch.getLoc(), indices);
  appendIndices<gpu::ThreadIdOp>(builder, launch.getLoc(), indices);
  appendIndices<gpu::GridDimOp>(builder, launch.getLoc(), indices);
  appendIndices<gpu::BlockDimOp>(builder, launch.getLoc(), indices);
  for (auto [argument, index] : llvm::zip(
           launchEntry.getArguments().take_front(indices.size()), indices))
    argument.replaceAllUsesWith(index);
  for (auto [from, to] : llvm::zip(launch.getWorkgroupAttributions(),
                                   kernel.getWorkgroupAttributions()))
    Value(from).replaceAllUsesWith(to);
  for (auto [from, to] : llvm::zip(launch.getPrivateAttributions(),
                                   kernel.getPrivateAttributions()))
    Value(from).replaceAllUsesWith(to);
  for (auto [value, argument] : llvm::zip(operands, entry.getArguments()))
    replaceAllUsesInRegionWith(value, argument, body);

  entry.getOperations().splice(entry.end(), launchEntry.getOperations());
  kernel.getBody().getBlocks().splice(kernel.getBody().end(), body.getBlocks(),
                                      std::next(body.begin()), body.end());
  for (Block &block : kernel.getBody())
    if (auto terminator = dyn_cast<gpu::TerminatorOp>(block.getTerminator())) {
      builder.setInsertionPoint(terminator);
      builder.create<gpu::ReturnOp>(terminator.getLoc());
      terminator.erase();
    }
  return kernel;
}

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
    // Checked before the body moves: a failure leaves the launch whole.
    WalkResult usesSymbol =
        launch.getBody().walk([](SymbolUserOpInterface user) {
          user->emitOpError("references a symbol from a kernel; kernels are "
                            "outlined without the symbols they use");
          return WalkResult::interrupt();
        });
    if (usesSymbol.wasInterrupted())
      return failure();
    SmallVector<Value> operands;
    std::string name = (function + "_kernel").str();
    // A launch with a cluster size has indices this does not make.
    gpu::GPUFuncOp kernel = launch.hasClusterSize()
                                ? outlineKernelFunc(launch, name, operands)
                                : moveIntoKernel(launch, name, operands);
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
