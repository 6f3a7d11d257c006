//===- TargetUnits.cpp - Code generation one kernel, one target -----------===//

#include "accy/Pipeline/TargetUnits.h"

#include "accy/Pipeline/Hashing.h"
#include "accy/Pipeline/KernelStore.h"
#include "accy/Pipeline/Product.h"
#include "accy/ProductAttributes.h"
#include "accy/Stages/Target/JoinTargets.h"
#include "accy/Support/CrashContainment.h"

#include "mlir/IR/Builders.h"

using namespace accy;

StageOptions accy::targetUnitOptions(const StageOptions &options,
                                     llvm::StringRef target) {
  StageOptions unit = options;
  unit.targets = {target.str()};
  return unit;
}

std::string accy::targetStageKey(const StageOptions &options,
                                 const KernelProduct &input) {
  return computeProductKey({StageId::Target, options.buildId,
                            options.canonicalText(StageId::Target),
                            input.contentHash});
}

size_t accy::joinTargetUnits(mlir::MLIRContext &context,
                             llvm::ArrayRef<SharedKernel> inputs,
                             const StageOptions &options, ProductCache &cache) {
  // One target: the unit is the stage run itself.
  if (options.targets.size() < 2)
    return 0;
  std::vector<llvm::StringRef> targets(options.targets.begin(),
                                       options.targets.end());
  size_t joined = 0;
  for (const SharedKernel &input : inputs) {
    std::string key = targetStageKey(options, *input);
    if (cache.lookup(key))
      continue;
    std::vector<SharedKernel> units;
    for (llvm::StringRef target : targets)
      if (SharedKernel unit = cache.lookup(
              targetStageKey(targetUnitOptions(options, target), *input)))
        units.push_back(std::move(unit));
    if (units.size() != targets.size())
      continue;
    llvm::SmallVector<mlir::ModuleOp> parts;
    for (const SharedKernel &unit : units)
      parts.push_back(unit->module.get());
    auto product =
        target::joinTargetProducts(input->module.get(), parts, targets);
    if (!product) {
      // The stage run compiles this kernel whole instead.
      llvm::consumeError(product.takeError());
      continue;
    }
    mlir::Builder b(&context);
    (**product)->setAttr(kKeyAttr, b.getStringAttr(key));
    (**product)->setAttr(kInputKeyAttr,
                         b.getStringAttr(kernelKey(input->module.get())));
    SharedKernel kernel = shareKernel(std::move(*product));
    uint64_t fingerprint =
        kernelFingerprint(StageId::Target, kernel->module.get());
    // Stored as a stage run would store it, so that accyc finds what the
    // editor's units made (not what a fault injected for a test made).
    if (options.store && !injectedFault())
      options.store->save(StageId::Target, key, *kernel, fingerprint);
    cache.store(key, std::move(kernel), fingerprint);
    ++joined;
  }
  return joined;
}
