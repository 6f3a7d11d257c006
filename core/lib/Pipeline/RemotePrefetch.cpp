//===- RemotePrefetch.cpp - A kernel's next stages from a remote ---------===//

#include "RemotePrefetch.h"

#include "accy/Pipeline/Hashing.h"
#include "accy/Pipeline/KernelStore.h"
#include "accy/Pipeline/StageRunner.h"
#include "accy/ProductAttributes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"

using namespace accy;

/// The targets the dispatch stage planned for `kernel`, as the later
/// stages' `--target` names them; `fallback` where it planned none.
static std::vector<std::string>
plannedTargets(mlir::ModuleOp kernel,
               const std::vector<std::string> &fallback) {
  auto names = kernel->getAttrOfType<mlir::ArrayAttr>(kTargetsAttr);
  if (!names)
    return fallback;
  std::vector<std::string> targets;
  for (auto name : names.getAsValueRange<mlir::StringAttr>())
    targets.push_back(name.str());
  return targets;
}

void accy::prefetchFollowing(KernelStore &store, StageId stage,
                             const KernelProduct &kernel,
                             const StageOptions &options,
                             mlir::MLIRContext &context) {
  StageOptions following = options;
  following.targets = plannedTargets(kernel.module.get(), options.targets);
  std::string inputHash = kernel.contentHash;
  for (std::optional<StageId> next = nextStage(stage);
       next && isStoredStage(*next); next = nextStage(*next)) {
    std::string key = computeProductKey(
        {*next, options.buildId, following.canonicalText(*next), inputHash});
    if (std::optional<std::string> local =
            store.recordedContentHash(*next, key)) {
      inputHash = *local;
      continue;
    }
    std::optional<KernelStore::Loaded> fetched =
        store.fetchRemote(*next, key, context);
    if (!fetched)
      return;
    inputHash = fetched->kernel->contentHash;
  }
}
