//===- KernelModule.cpp - The kernel modules of a product -----------------===//

#include "accy/KernelModule/KernelModule.h"

#include "accy/ProductAttributes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace accy;

LogicalResult accy::verifyKernelModuleAnchor(ModuleOp module, StringRef pass) {
  if (module->hasAttr(kKernelAttr))
    return success();
  return module.emitError()
         << "'" << pass << "' runs on a kernel module (a builtin.module with "
         << kKernelAttr << "); nest it in the product's module: "
         << "--pass-pipeline='builtin.module(builtin.module(" << pass << "))'";
}

std::vector<ModuleOp> accy::getKernelModules(ModuleOp product) {
  if (product->hasAttr(kKernelAttr))
    return {product};
  std::vector<ModuleOp> kernels;
  for (auto kernel : product.getOps<ModuleOp>())
    if (kernel->hasAttr(kKernelAttr))
      kernels.push_back(kernel);
  return kernels;
}

StringRef accy::getKernelName(ModuleOp kernel) {
  if (auto name = kernel->getAttrOfType<StringAttr>(kKernelAttr))
    return name.getValue();
  return kernel.getSymName().value_or("kernel");
}

func::FuncOp accy::getKernelEntry(ModuleOp kernel) {
  func::FuncOp byName;
  for (auto func : kernel.getOps<func::FuncOp>()) {
    if (func->hasAttr(kEntryAttr))
      return func;
    if (func.getSymName() == getKernelName(kernel))
      byName = func;
  }
  if (!byName)
    kernel.emitError() << "kernel module '" << getKernelName(kernel)
                       << "' has no entry function (a func.func with '"
                       << kEntryAttr << "')";
  return byName;
}

FailureOr<SmallVector<const TargetProfile *>>
accy::getPlannedTargets(ModuleOp kernel) {
  auto names = kernel->getAttrOfType<ArrayAttr>(kTargetsAttr);
  if (!names)
    return kernel.emitError()
           << "kernel module '" << getKernelName(kernel) << "' has no '"
           << kTargetsAttr << "': run the dispatch stage first";
  SmallVector<const TargetProfile *> result;
  for (Attribute name : names) {
    auto str = dyn_cast<StringAttr>(name);
    if (!str)
      return kernel.emitError()
             << "'" << kTargetsAttr << "' must be an array of strings";
    llvm::Expected<const TargetProfile &> profile =
        lookupTargetProfile(str.getValue());
    if (!profile)
      return kernel.emitError() << llvm::toString(profile.takeError());
    result.push_back(&*profile);
  }
  return result;
}
