//===- SelectTargets.cpp - Keep the requested targets' code ---------------===//

#include "accy/Stages/Dispatch/Plan.h"
#include "accy/Stages/Target/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/StringSet.h"

namespace accy::target {
#define GEN_PASS_DEF_SELECTTARGETS
#include "accy/Stages/Target/Passes.h.inc"
} // namespace accy::target

using namespace mlir;
using namespace accy;

namespace {

struct SelectTargetsPass
    : public accy::target::impl::SelectTargetsBase<SelectTargetsPass> {
  using Base::Base;

  LogicalResult select(ModuleOp kernel,
                       ArrayRef<const TargetProfile *> profiles) {
    auto requested = [&](StringRef name) {
      return llvm::any_of(
          profiles, [&](const TargetProfile *p) { return p->name == name; });
    };
    llvm::StringSet<> available;
    for (auto module : llvm::make_early_inc_range(
             kernel.getOps<gpu::GPUModuleOp>())) {
      available.insert(module.getName());
      if (!requested(module.getName()))
        module.erase();
    }
    for (auto func : llvm::make_early_inc_range(kernel.getOps<func::FuncOp>()))
      if (auto target = func->getAttrOfType<StringAttr>(kLaunchTargetAttr))
        if (!requested(target.getValue()))
          func.erase();
    for (auto host : llvm::make_early_inc_range(kernel.getOps<ModuleOp>()))
      if (host.getSymName() == kHostModuleName) {
        available.insert("host");
        if (!requested("host"))
          host.erase();
      }
    for (const TargetProfile *profile : profiles)
      if (!available.contains(profile->name))
        return kernel.emitError()
               << "kernel '" << getKernelName(kernel)
               << "' has no code for target '" << profile->name
               << "'; plan it in the dispatch stage (targets=...)";
    if (auto summary = kernel->getAttrOfType<choir::KernelSummaryAttr>(
            choir::kKernelSummaryAttrName)) {
      SmallVector<NamedAttribute> kept;
      for (NamedAttribute target : summary.getTargets())
        if (requested(target.getName()))
          kept.push_back(target);
      kernel->setAttr(choir::kKernelSummaryAttrName,
                      choir::KernelSummaryAttr::get(
                          &getContext(), summary.getSymbols(),
                          DictionaryAttr::get(&getContext(), kept)));
    }
    return success();
  }

  void runOnOperation() override {
    if (StringRef(targets).trim().empty())
      return;
    llvm::Expected<SmallVector<const TargetProfile *>> profiles =
        parseTargetList(targets);
    if (!profiles) {
      getOperation().emitError()
          << "accy-choir-target: " << llvm::toString(profiles.takeError());
      return signalPassFailure();
    }
    ModuleOp kernel = getOperation();
    if (failed(verifyKernelModuleAnchor(kernel, getArgument())) ||
        failed(select(kernel, *profiles)))
      signalPassFailure();
  }
};

} // namespace
