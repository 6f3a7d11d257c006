//===- GroupKernels.cpp - One gpu.module per target, and the summary ------===//
//
// The kernel summary is what a runtime needs to launch the kernels without
// running compiled host code: for each target, in launch order, the kernel
// name, its block size, its grid size and every argument as an expression
// over the entry's argument dimensions, and, for a launch the launch
// function makes under a condition on the sizes, that condition (see
// docs/abi.md).
//
//===----------------------------------------------------------------------===//

#include "LaunchCondition.h"

#include "accy/KernelModule/KernelModule.h"
#include "accy/ProductAttributes.h"
#include "accy/Stages/Kernel/Passes.h"
#include "accy/Stages/Memory/SymbolicSizes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"

namespace accy::kernel {
#define GEN_PASS_DEF_GROUPKERNELS
#include "accy/Stages/Kernel/Passes.h.inc"
} // namespace accy::kernel

using namespace mlir;
using namespace accy;

namespace {

int64_t workgroupBytes(gpu::GPUFuncOp func) {
  int64_t bytes = 0;
  for (BlockArgument buffer : func.getWorkgroupAttributions()) {
    auto type = cast<MemRefType>(buffer.getType());
    int64_t bits = type.getElementTypeBitWidth();
    bytes += type.getNumElements() * ((bits + 7) / 8);
  }
  return bytes;
}

struct GroupKernelsPass
    : public accy::kernel::impl::GroupKernelsBase<GroupKernelsPass> {

  /// What one kernel argument is, for the runtime.
  FailureOr<Attribute> describeArgument(Value value, const ArgumentDims &dims,
                                        Operation *launch) {
    Builder b(&getContext());
    auto entry = [&](StringRef kind, NamedAttribute detail) -> Attribute {
      return b.getDictionaryAttr(
          {b.getNamedAttr("kind", b.getStringAttr(kind)), detail});
    };
    if (isa<MemRefType>(value.getType())) {
      if (auto arg = dyn_cast<BlockArgument>(value))
        return entry("argument", b.getNamedAttr("index", b.getI64IntegerAttr(
                                                             arg.getArgNumber())));
      if (Operation *def = value.getDefiningOp())
        if (auto id = def->getAttrOfType<IntegerAttr>(kBufferAttr))
          return entry("buffer", b.getNamedAttr("id", id));
      return launch->emitError()
             << "kernel argument " << value
             << " is neither an entry argument nor a planned buffer";
    }
    if (value.getType().isIndex() || value.getType().isSignlessInteger()) {
      FailureOr<AffineExpr> expr = dims.trace(value);
      if (failed(expr))
        return launch->emitError()
               << "kernel argument " << value
               << " is not an affine function of the argument dimensions";
      return entry("index",
                   b.getNamedAttr("value", AffineMapAttr::get(
                                               dims.makeMap(*expr))));
    }
    Attribute constant;
    if (matchPattern(value, m_Constant(&constant)))
      return entry("scalar", b.getNamedAttr("value", constant));
    return launch->emitError() << "kernel argument " << value
                               << " has no description for the runtime";
  }

  LogicalResult group(ModuleOp kernel) {
    Builder b(&getContext());
    SymbolTable symbols(kernel);
    StringRef kernelName = getKernelName(kernel);
    SmallVector<NamedAttribute> perTarget;
    std::optional<ArrayAttr> symbolsAttr;

    SmallVector<func::FuncOp> launchFuncs;
    for (auto func : kernel.getOps<func::FuncOp>())
      if (func->hasAttr(kLaunchTargetAttr))
        launchFuncs.push_back(func);
    for (func::FuncOp func : launchFuncs) {
      StringRef target =
          func->getAttrOfType<StringAttr>(kLaunchTargetAttr).getValue();
      ArgumentDims dims(func);
      if (!symbolsAttr)
        symbolsAttr = dims.getSymbolsAttr(b);
      OpBuilder builder(kernel.getBodyRegion());
      builder.setInsertionPointToEnd(kernel.getBody());
      auto module = builder.create<gpu::GPUModuleOp>(func.getLoc(), target);
      module->setAttr(kGPUModuleTargetAttr, b.getStringAttr(target));
      symbols.insert(module);
      if (module.getName() != target)
        return func.emitError() << "kernel module already has a symbol '"
                                << target << "'";

      SmallVector<gpu::LaunchFuncOp> launches;
      func.walk([&](gpu::LaunchFuncOp op) { launches.push_back(op); });
      auto plans = func->getAttrOfType<ArrayAttr>(kLaunchesAttr);
      if (!plans || plans.size() != launches.size())
        return func.emitError()
               << "launch function has " << launches.size()
               << " launches but records "
               << (plans ? plans.size() : 0) << " (run accy-choir-map-to-gpu "
               << "before outlining)";

      SmallVector<Attribute> summary;
      for (auto [index, launch, planAttr] :
           llvm::enumerate(launches, plans.getValue())) {
        auto plan = cast<DictionaryAttr>(planAttr);
        auto source = symbols.lookup<gpu::GPUModuleOp>(
            launch.getKernelModuleName());
        auto kernelFunc =
            source ? source.lookupSymbol<gpu::GPUFuncOp>(launch.getKernelName())
                   : nullptr;
        if (!kernelFunc)
          return launch.emitError("launch of an unknown kernel");
        std::string name = (kernelName + "_k" + Twine(index)).str();
        kernelFunc.setName(name);
        kernelFunc->moveBefore(module.getBody()->getTerminator());
        if (source.getBody()->without_terminator().empty())
          source.erase();
        launch->setAttr(
            launch.getKernelAttrName(),
            SymbolRefAttr::get(b.getStringAttr(target),
                               {FlatSymbolRefAttr::get(&getContext(), name)}));

        SmallVector<int64_t> block;
        for (Value size : {launch.getBlockSizeX(), launch.getBlockSizeY(),
                           launch.getBlockSizeZ()}) {
          std::optional<int64_t> constant = getConstantIntValue(size);
          if (!constant)
            return launch.emitError("kernel block size is not a constant");
          block.push_back(*constant);
        }
        SmallVector<AffineExpr> grid;
        for (Value size : {launch.getGridSizeX(), launch.getGridSizeY(),
                           launch.getGridSizeZ()}) {
          FailureOr<AffineExpr> expr = dims.trace(size);
          if (failed(expr))
            return launch.emitError("kernel grid size is not an affine "
                                    "function of the argument dimensions");
          grid.push_back(*expr);
        }
        SmallVector<Attribute> arguments;
        for (Value operand : launch.getKernelOperands()) {
          FailureOr<Attribute> description =
              describeArgument(operand, dims, launch);
          if (failed(description))
            return failure();
          arguments.push_back(*description);
        }
        FailureOr<ArrayAttr> when = kernel::traceLaunchCondition(launch, dims);
        if (failed(when))
          return failure();
        SmallVector<NamedAttribute> entry = {
            b.getNamedAttr("arguments", b.getArrayAttr(arguments)),
            b.getNamedAttr("block", b.getDenseI64ArrayAttr(block)),
            b.getNamedAttr("dispatch", plan.get("dispatch")),
            b.getNamedAttr("grid", AffineMapAttr::get(dims.makeMap(grid))),
            b.getNamedAttr("name", b.getStringAttr(name)),
            b.getNamedAttr("schedule", plan.get("schedule")),
            b.getNamedAttr("shared_memory",
                           b.getI64IntegerAttr(workgroupBytes(kernelFunc))),
        };
        if (*when)
          entry.push_back(b.getNamedAttr("when", *when));
        summary.push_back(b.getDictionaryAttr(entry));
      }
      func->removeAttr(kLaunchesAttr);
      perTarget.push_back(b.getNamedAttr(target, b.getArrayAttr(summary)));
    }
    if (launchFuncs.empty())
      return success();
    kernel->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    b.getUnitAttr());
    kernel->setAttr(kKernelsAttr,
                    b.getDictionaryAttr(
                        {b.getNamedAttr("symbols", *symbolsAttr),
                         b.getNamedAttr("targets",
                                        b.getDictionaryAttr(perTarget))}));
    return success();
  }

  void runOnOperation() override {
    ModuleOp kernel = getOperation();
    if (failed(verifyKernelModuleAnchor(kernel, getArgument())) ||
        failed(group(kernel)))
      signalPassFailure();
  }
};

} // namespace
