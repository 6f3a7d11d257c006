//===- GroupKernels.cpp - One gpu.module per target, and the summary ------===//
//
// The kernel summary is what a runtime needs to launch the kernels without
// running compiled host code: for each target, in launch order, the kernel
// name, its block size, its grid size and every argument as an expression
// over the entry's argument dimensions, and, for a launch the launch
// function makes under a condition on the sizes, that condition (see
// docs/abi.md): `choir.kernels = #choir.kernel_summary<...>`. Each kernel's
// workgroup buffers are declared 16-byte aligned.
//
//===----------------------------------------------------------------------===//

#include "LaunchCondition.h"

#include "accy/Dialect/Choir/IR/ChoirAttrs.h"
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

/// Kernels read and write their workgroup buffers 128 bits at a time (a
/// contraction's operand tiles and staging rows), which the backends'
/// vectorizers do only where the buffer's start is 16-byte aligned; the
/// GPU lowering declares a buffer aligned as its `llvm.align` says, and
/// without it as its element (a byte buffer: 1).
void alignWorkgroupBuffers(gpu::GPUFuncOp func) {
  Builder b(func.getContext());
  for (unsigned i = 0, e = func.getNumWorkgroupAttributions(); i < e; ++i)
    func.setWorkgroupAttributionAttr(i, "llvm.align", b.getI64IntegerAttr(16));
}

struct GroupKernelsPass
    : public accy::kernel::impl::GroupKernelsBase<GroupKernelsPass> {

  /// What one kernel argument is, for the runtime.
  FailureOr<choir::KernelOperandAttr>
  describeArgument(Value value, const ArgumentDims &dims, Operation *launch) {
    MLIRContext *context = &getContext();
    using Kind = choir::KernelOperandKind;
    if (isa<MemRefType>(value.getType())) {
      if (auto arg = dyn_cast<BlockArgument>(value))
        return choir::KernelOperandAttr::get(context, Kind::Argument,
                                             arg.getArgNumber(), {});
      if (Operation *def = value.getDefiningOp())
        if (auto id = def->getAttrOfType<IntegerAttr>(kBufferAttr))
          return choir::KernelOperandAttr::get(context, Kind::Buffer,
                                               id.getInt(), {});
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
      return choir::KernelOperandAttr::get(
          context, Kind::Index, -1, AffineMapAttr::get(dims.makeMap(*expr)));
    }
    Attribute constant;
    if (matchPattern(value, m_Constant(&constant)))
      return choir::KernelOperandAttr::get(context, Kind::Scalar, -1, constant);
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
        // What MapToGPU recorded of the launch's dispatch.
        auto plan = dyn_cast<DictionaryAttr>(planAttr);
        auto dispatch = plan ? plan.getAs<IntegerAttr>("dispatch") : nullptr;
        auto scheduleName = plan ? plan.getAs<StringAttr>("schedule") : nullptr;
        std::optional<choir::Schedule> schedule =
            scheduleName ? choir::symbolizeSchedule(scheduleName.getValue())
                         : std::nullopt;
        if (!dispatch || !schedule)
          return func.emitError()
                 << "launch " << index << " records no dispatch id or schedule";
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
        alignWorkgroupBuffers(kernelFunc);
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
          FailureOr<choir::KernelOperandAttr> description =
              describeArgument(operand, dims, launch);
          if (failed(description))
            return failure();
          arguments.push_back(*description);
        }
        FailureOr<ArrayAttr> when = kernel::traceLaunchCondition(launch, dims);
        if (failed(when))
          return failure();
        // A tensor-core launch's tile, instruction and stages.
        auto planned = plan.getAs<choir::LaunchAttr>("launch");
        bool tensorCores = planned && planned.getMma();
        summary.push_back(choir::KernelLaunchAttr::get(
            &getContext(), b.getStringAttr(name), dispatch.getInt(), *schedule,
            b.getDenseI64ArrayAttr(block),
            AffineMapAttr::get(dims.makeMap(grid)), workgroupBytes(kernelFunc),
            b.getArrayAttr(arguments), *when,
            tensorCores ? planned.getTile() : DenseI64ArrayAttr(),
            tensorCores ? planned.getMma() : DenseI64ArrayAttr(),
            tensorCores ? planned.getStages() : 0));
      }
      func->removeAttr(kLaunchesAttr);
      perTarget.push_back(b.getNamedAttr(target, b.getArrayAttr(summary)));
    }
    if (launchFuncs.empty())
      return success();
    kernel->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    b.getUnitAttr());
    kernel->setAttr(
        choir::kKernelSummaryAttrName,
        choir::KernelSummaryAttr::get(&getContext(), *symbolsAttr,
                                      b.getDictionaryAttr(perTarget)));
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
