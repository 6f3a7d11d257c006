//===- JoinTargets.cpp - One kernel's target products joined --------------===//

#include "accy/Stages/Target/JoinTargets.h"

#include "accy/Dialect/Choir/IR/ChoirAttrs.h"
#include "accy/ProductAttributes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace accy;

/// The target an op of a kernel module belongs to ("" for none): the
/// gpu.module or gpu.binary of the target, its launch functions, its host
/// module.
static StringRef targetOf(Operation &op) {
  if (auto module = dyn_cast<gpu::GPUModuleOp>(op))
    return module.getName();
  if (auto binary = dyn_cast<gpu::BinaryOp>(op))
    return binary.getName();
  if (auto func = dyn_cast<func::FuncOp>(op))
    if (auto target = func->getAttrOfType<StringAttr>(kLaunchTargetAttr))
      return target.getValue();
  if (auto module = dyn_cast<ModuleOp>(op))
    if (module.getSymName() == kHostModuleName)
      return kHostModuleName;
  return "";
}

static llvm::Error joinError(const Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "cannot join target products: " + why);
}

/// The generated-kernel summaries of every part, one entry per target.
static FailureOr<choir::KernelSummaryAttr>
joinKernelSummaries(ArrayRef<ModuleOp> parts) {
  SmallVector<NamedAttribute> targets;
  ArrayAttr symbols;
  for (ModuleOp part : parts) {
    auto summary = part->getAttrOfType<choir::KernelSummaryAttr>(
        choir::kKernelSummaryAttrName);
    // The symbols are the signature's: the same in every part.
    if (!summary || (symbols && summary.getSymbols() != symbols))
      return failure();
    symbols = summary.getSymbols();
    llvm::append_range(targets, summary.getTargets().getValue());
  }
  MLIRContext *context = symbols.getContext();
  return choir::KernelSummaryAttr::get(context, symbols,
                                       DictionaryAttr::get(context, targets));
}

llvm::Expected<OwningOpRef<ModuleOp>>
accy::target::joinTargetProducts(ModuleOp input, ArrayRef<ModuleOp> parts,
                                 ArrayRef<StringRef> targets) {
  if (parts.empty() || parts.size() != targets.size())
    return joinError("one part per target is needed");
  llvm::StringMap<size_t> partOf;
  for (auto [index, target] : llvm::enumerate(targets))
    if (!partOf.try_emplace(target, index).second)
      return joinError("target '" + target + "' twice");

  // Each part's ops of its own target, in order, and the ops of none.
  std::vector<std::vector<Operation *>> own(parts.size()), shared(parts.size());
  for (size_t index = 0; index < parts.size(); ++index)
    for (Operation &op : ModuleOp(parts[index]).getBody()->getOperations()) {
      StringRef target = targetOf(op);
      if (target.empty())
        shared[index].push_back(&op);
      else if (target == targets[index])
        own[index].push_back(&op);
      else
        return joinError("the part for '" + targets[index] +
                         "' has code for '" + target + "'");
    }

  // The ops in the order the input has them: the stage rewrites each in
  // place (a gpu.module into its gpu.binary) or removes it (the host
  // module, which becomes an attribute).
  MLIRContext *context = input.getContext();
  OpBuilder builder(context);
  OwningOpRef<ModuleOp> joined =
      ModuleOp::create(input.getLoc(), input.getSymName());
  builder.setInsertionPointToEnd(joined->getBody());
  std::vector<size_t> nextOwn(parts.size(), 0);
  size_t nextShared = 0;
  for (Operation &op : input.getBody()->getOperations()) {
    StringRef target = targetOf(op);
    if (target == kHostModuleName)
      continue;
    if (target.empty()) {
      // Each part has its own copy; the first part's is taken.
      if (llvm::any_of(shared, [&](const std::vector<Operation *> &ops) {
            return nextShared >= ops.size();
          }))
        return joinError("a part lacks an op every target keeps");
      builder.clone(*shared.front()[nextShared++]);
      continue;
    }
    auto found = partOf.find(target);
    if (found == partOf.end())
      return joinError("no part for target '" + target + "'");
    size_t index = found->second;
    if (nextOwn[index] >= own[index].size())
      return joinError("the part for '" + target + "' lacks an op");
    builder.clone(*own[index][nextOwn[index]++]);
  }
  for (size_t index = 0; index < parts.size(); ++index)
    if (nextOwn[index] != own[index].size() ||
        nextShared != shared[index].size())
      return joinError("the part for '" + targets[index] +
                       "' has ops the input does not");

  // The attributes: those every part has alike, the summaries of every
  // target, and the host object of the host's part.
  NamedAttrList attrs;
  for (size_t index = 0; index < parts.size(); ++index)
    for (NamedAttribute attr : ModuleOp(parts[index])->getDiscardableAttrs()) {
      StringRef name = attr.getName().getValue();
      if (name == kKeyAttr || name == kInputKeyAttr ||
          name == choir::kKernelSummaryAttrName)
        continue;
      if (name == kHostObjectAttr) {
        if (targets[index] != kHostModuleName)
          return joinError("a host object in the part for '" + targets[index] +
                           "'");
        attrs.set(attr.getName(), attr.getValue());
        continue;
      }
      if (Attribute seen = attrs.get(attr.getName())) {
        if (seen != attr.getValue())
          return joinError("the parts differ in '" + name + "'");
        continue;
      }
      if (index != 0)
        return joinError("only the part for '" + targets[index] + "' has '" +
                         name + "'");
      attrs.set(attr.getName(), attr.getValue());
    }
  FailureOr<choir::KernelSummaryAttr> summaries = joinKernelSummaries(parts);
  if (failed(summaries))
    return joinError("the parts' kernel summaries do not agree");
  attrs.set(choir::kKernelSummaryAttrName, *summaries);
  (*joined)->setDiscardableAttrs(attrs.getDictionary(context));
  return joined;
}
