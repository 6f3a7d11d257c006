//===- StageLocator.cpp - Where an expression lands in later stages -------===//

#include "StageLocator.h"

#include "accy/Pipeline/Product.h"

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

/// The dispatch id of the first op of the expression in the dispatch stage.
static std::optional<int64_t> dispatchOf(mlir::ModuleOp module,
                                         llvm::StringRef kernel,
                                         const std::set<unsigned> &ordinals) {
  std::optional<int64_t> dispatch;
  module.walk([&](mlir::Operation *op) {
    if (!namesOrdinal(op->getLoc(), kernel, ordinals))
      return mlir::WalkResult::advance();
    for (mlir::Operation *at = op; at && at != module.getOperation();
         at = at->getParentOp())
      // accy.dispatch = {id = N, kind = ...} or {id = N, role = "init"}.
      if (auto tag = at->getAttrOfType<mlir::DictionaryAttr>(kDispatchAttr))
        if (auto id = tag.getAs<mlir::IntegerAttr>("id")) {
          dispatch = id.getInt();
          return mlir::WalkResult::interrupt();
        }
    return mlir::WalkResult::advance();
  });
  return dispatch;
}

static std::string scheduleOf(mlir::ModuleOp module, int64_t dispatch) {
  auto plans = module->getAttrOfType<mlir::ArrayAttr>(kDispatchesAttr);
  if (!plans)
    return "";
  for (mlir::Attribute plan : plans) {
    auto dict = llvm::dyn_cast<mlir::DictionaryAttr>(plan);
    auto id = dict ? dict.getAs<mlir::IntegerAttr>("id") : nullptr;
    if (id && id.getInt() == dispatch)
      if (auto schedule = dict.getAs<mlir::StringAttr>("schedule"))
        return schedule.str();
  }
  return "";
}

static std::vector<std::pair<std::string, std::string>>
gpuKernelsOf(mlir::ModuleOp module, int64_t dispatch) {
  std::vector<std::pair<std::string, std::string>> out;
  auto summary = module->getAttrOfType<mlir::DictionaryAttr>(kKernelsAttr);
  auto targets = summary ? summary.getAs<mlir::DictionaryAttr>("targets")
                         : nullptr;
  if (!targets)
    return out;
  for (mlir::NamedAttribute target : targets) {
    auto kernels = llvm::dyn_cast<mlir::ArrayAttr>(target.getValue());
    if (!kernels)
      continue;
    for (mlir::Attribute k : kernels) {
      auto dict = llvm::dyn_cast<mlir::DictionaryAttr>(k);
      auto id = dict ? dict.getAs<mlir::IntegerAttr>("dispatch") : nullptr;
      auto name = dict ? dict.getAs<mlir::StringAttr>("name") : nullptr;
      if (id && name && id.getInt() == dispatch)
        out.push_back({target.getName().str(), name.str()});
    }
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
  landing.dispatch = dispatchOf(dispatchModule, kernel, ordinals);
  if (!landing.dispatch)
    return landing;
  landing.schedule = scheduleOf(dispatchModule, *landing.dispatch);
  if (mlir::ModuleOp kernelModule = result.kernel(StageId::Kernel, kernel))
    landing.gpuKernels = gpuKernelsOf(kernelModule, *landing.dispatch);
  return landing;
}
