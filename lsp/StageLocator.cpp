//===- StageLocator.cpp - Where an expression lands in later stages -------===//

#include "StageLocator.h"

#include "accy/CodeGen/Artifacts.h"
#include "accy/Pipeline/Product.h"
#include "accy/Stages/Dispatch/Plan.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"

#include <set>

using namespace accy;
using namespace accy::lsp;

/// The node ordinals of `kernel` whose source span is exactly [begin, end).
static std::set<unsigned> ordinalsOf(const CompileResult &result,
                                     llvm::StringRef kernel, uint32_t begin,
                                     uint32_t end) {
  std::set<unsigned> ordinals;
  const SourceMap &map = result.compilation().sourceMap();
  for (unsigned n = 0;; ++n) {
    std::optional<SourceSpan> span = map.lookup(kernel, n);
    if (!span)
      break;
    if (span->file == result.document().path && span->offset == begin &&
        span->endOffset == end)
      ordinals.insert(n);
  }
  return ordinals;
}

static bool namesOrdinal(mlir::Location loc, llvm::StringRef kernel,
                         const std::set<unsigned> &ordinals) {
  bool found = false;
  loc->walk([&](mlir::Location inner) {
    if (auto name = llvm::dyn_cast<mlir::NameLoc>(inner))
      if (auto node = SourceMap::parseNodeName(name.getName().getValue()))
        if (node->first == kernel && ordinals.count(node->second)) {
          found = true;
          return mlir::WalkResult::interrupt();
        }
    return mlir::WalkResult::advance();
  });
  return found;
}

/// The root of the dispatch that the first op of the expression belongs to
/// in the dispatch stage, or null.
static mlir::Operation *dispatchRootOf(mlir::ModuleOp module,
                                       llvm::StringRef kernel,
                                       const std::set<unsigned> &ordinals) {
  mlir::Operation *root = nullptr;
  module.walk([&](mlir::Operation *op) {
    if (!namesOrdinal(op->getLoc(), kernel, ordinals))
      return mlir::WalkResult::advance();
    for (mlir::Operation *at = op; at && at != module.getOperation();
         at = at->getParentOp())
      if (getDispatchId(at) >= 0) {
        // An init or epilogue lands where its root does.
        root = getDispatchRoot(at);
        if (!root)
          root = at;
        return mlir::WalkResult::interrupt();
      }
    return mlir::WalkResult::advance();
  });
  return root;
}

/// The GPU kernels (target, entry name) that dispatch `dispatch` became,
/// from the kernel summary of the kernel stage's product.
static std::vector<std::pair<std::string, std::string>>
gpuKernelsOf(mlir::ModuleOp module, int64_t dispatch) {
  std::vector<std::pair<std::string, std::string>> out;
  llvm::Expected<codegen::KernelSummary> summary =
      codegen::readKernelSummary(module);
  if (!summary) {
    llvm::consumeError(summary.takeError());
    return out;
  }
  for (const auto &[target, launches] : summary->targets)
    for (const codegen::KernelLaunch &launch : launches)
      if (launch.dispatch == dispatch)
        out.push_back({target, launch.name});
  return out;
}

/// "AxBxC": the sizes of `sizes`.
static std::string joinSizes(llvm::ArrayRef<int64_t> sizes) {
  std::string out;
  for (int64_t size : sizes)
    out += (out.empty() ? "" : "x") + std::to_string(size);
  return out;
}

/// How `plan`, a tiled contraction's, tiles it on each GPU target.
static std::map<std::string, std::string> describeTiling(choir::PlanAttr plan) {
  std::map<std::string, std::string> out;
  if (!plan || plan.getSchedule() != Schedule::TiledContraction)
    return out;
  for (mlir::NamedAttribute target : plan.getTargets()) {
    auto launch = llvm::dyn_cast<choir::LaunchAttr>(target.getValue());
    if (!launch)
      continue;
    std::string text = joinSizes(launch.getTile().asArrayRef()) + " tiles";
    if (mlir::DenseI64ArrayAttr mma = launch.getMma())
      text += " on tensor cores, mma " + joinSizes(mma.asArrayRef()) + ", " +
              std::to_string(launch.getStages()) + " stages";
    out[target.getName().str()] = text;
  }
  return out;
}

ExpressionLanding accy::lsp::locateExpression(const CompileResult &result,
                                              llvm::StringRef kernel,
                                              uint32_t begin, uint32_t end) {
  ExpressionLanding landing;
  mlir::ModuleOp dispatchModule = result.kernel(StageId::Dispatch, kernel);
  if (!dispatchModule)
    return landing;
  std::set<unsigned> ordinals = ordinalsOf(result, kernel, begin, end);
  mlir::Operation *root = dispatchRootOf(dispatchModule, kernel, ordinals);
  if (!root)
    return landing;
  landing.dispatch = getDispatchId(root);
  if (std::optional<Schedule> schedule = getPlannedSchedule(root))
    landing.schedule = stringifySchedule(*schedule).str();
  landing.tiling = describeTiling(getPlan(root));
  if (mlir::ModuleOp kernelModule = result.kernel(StageId::Kernel, kernel))
    landing.gpuKernels = gpuKernelsOf(kernelModule, *landing.dispatch);
  return landing;
}
