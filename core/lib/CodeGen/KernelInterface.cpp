//===- KernelInterface.cpp - A kernel's entry, memory plan and launches ---===//
//
// The kernel and target products describe how to call a kernel in three
// places: the entry function's signature (memref types, `choir.dims` names
// and `accy.result` indices; the host entry `@K` or a launch function
// `K__<target>`, which share it), `choir.memory` (the intermediate buffers)
// and `choir.kernels` (the launches). See docs/abi.md.
//
//===----------------------------------------------------------------------===//

#include "accy/CodeGen/Embedding.h"

#include "accy/Dialect/Choir/IR/ChoirAttrs.h"
#include "accy/ProductAttributes.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace accy;
using namespace accy::codegen;

static llvm::Error interfaceError(llvm::StringRef kernel,
                                  const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "kernel '" + kernel + "': " + message);
}

static std::string elementName(Type type) {
  if (type.isF16())
    return "f16";
  if (type.isBF16())
    return "bf16";
  if (type.isF32())
    return "f32";
  if (type.isF64())
    return "f64";
  if (type.isInteger(1))
    return "bool";
  if (type.isInteger(32))
    return "i32";
  if (type.isInteger(64))
    return "i64";
  return "";
}

/// The entry function: the host entry or any launch function.
static FunctionOpInterface findEntry(ModuleOp kernel) {
  FunctionOpInterface entry;
  kernel.walk([&](FunctionOpInterface fn) {
    if (fn->hasAttr(kEntryAttr) || fn->hasAttr(kLaunchTargetAttr)) {
      entry = fn;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return entry;
}

/// The source has no names for results: `result`, or `result0`,
/// `result1`... when there are several, with a `_` added while an input
/// has that name.
static std::string resultName(int64_t index, unsigned numResults,
                              llvm::ArrayRef<ParameterInterface> inputs) {
  std::string name =
      numResults == 1 ? "result" : "result" + std::to_string(index);
  while (llvm::any_of(inputs, [&](const ParameterInterface &p) {
    return !p.output && p.name == name;
  }))
    name += "_";
  return name;
}

static llvm::Error readParameters(FunctionOpInterface entry,
                                  KernelInterface &result) {
  unsigned numResults = 0;
  for (unsigned i = 0, e = entry.getNumArguments(); i < e; ++i)
    numResults += entry.getArgAttr(i, kResultAttr) != nullptr;
  for (unsigned i = 0, e = entry.getNumArguments(); i < e; ++i) {
    auto type = dyn_cast<MemRefType>(entry.getArgumentTypes()[i]);
    std::string element = type ? elementName(type.getElementType()) : "";
    if (element.empty())
      return interfaceError(result.name, "argument " + llvm::Twine(i) +
                                             " is not a memref of a "
                                             "supported element type");
    ParameterInterface param;
    param.element = element;
    if (auto index = entry.getArgAttrOfType<IntegerAttr>(i, kResultAttr)) {
      param.output = true;
      param.name = resultName(index.getInt(), numResults, result.parameters);
    } else if (auto name =
                   entry.getArgAttrOfType<StringAttr>(i, kParamNameAttr)) {
      param.name = name.str();
    } else {
      return interfaceError(result.name, "input argument " + llvm::Twine(i) +
                                             " has no '" + kParamNameAttr +
                                             "' (the frontend names every "
                                             "parameter)");
    }
    auto dims = entry.getArgAttrOfType<ArrayAttr>(i, "choir.dims");
    for (int64_t d = 0; d < type.getRank(); ++d) {
      int64_t size = type.getDimSize(d);
      auto name = dims && d < static_cast<int64_t>(dims.size())
                      ? dyn_cast<StringAttr>(dims[d])
                      : nullptr;
      param.sizes.push_back(ShapedType::isDynamic(size) ? -1 : size);
      // An unnamed dynamic dimension gets a name of its own, so it is
      // checked against nothing else.
      param.dimNames.push_back(name ? name.str()
                                    : param.name + "." + std::to_string(d));
    }
    result.parameters.push_back(std::move(param));
  }
  return llvm::Error::success();
}

/// The verifier of #choir.memory_plan checked its shape (ids 0..n-1 in
/// order, maps over its symbols).
static llvm::Error readBuffers(ModuleOp kernel, KernelInterface &result) {
  auto memory =
      kernel->getAttrOfType<choir::MemoryPlanAttr>(choir::kMemoryPlanAttrName);
  if (!memory)
    return interfaceError(result.name, "no '" + choir::kMemoryPlanAttrName +
                                           "' #choir.memory_plan");
  for (auto pair : memory.getSymbols().getAsRange<DenseI64ArrayAttr>())
    result.symbols.push_back({pair[0], pair[1]});
  for (choir::BufferAttr buffer : memory.getBufferPlans()) {
    BufferInterface &b = result.buffers.emplace_back();
    b.bytes = buffer.getBytes().getValue().getResult(0);
    llvm::append_range(b.shape, buffer.getShape().getValue().getResults());
  }
  return llvm::Error::success();
}

/// Every buffer a launch takes must be one of the memory plan's. A buffer
/// that no launch of any target takes (the kernel stage kept a fused
/// kernel's temporary in registers) is allocated with no bytes: its ids stay
/// those of the launches' arguments.
static llvm::Error dropUnlaunchedBuffers(KernelInterface &result) {
  std::vector<bool> launched(result.buffers.size());
  for (const auto &[target, launches] : result.summary.targets)
    for (const KernelLaunch &launch : launches)
      for (const KernelArgument &argument : launch.arguments) {
        if (argument.kind != KernelArgument::Kind::Buffer)
          continue;
        if (argument.index < 0 ||
            argument.index >= static_cast<int64_t>(launched.size()))
          return interfaceError(
              result.name, llvm::Twine("launch '") + launch.name +
                               "' takes buffer " + llvm::Twine(argument.index) +
                               ", which the memory plan does not hold");
        launched[argument.index] = true;
      }
  for (auto [buffer, used] : llvm::zip(result.buffers, launched))
    if (!used)
      buffer.bytes = getAffineConstantExpr(0, buffer.bytes.getContext());
  return llvm::Error::success();
}

llvm::Expected<KernelInterface>
accy::codegen::readKernelInterface(ModuleOp kernel) {
  KernelInterface result;
  if (auto name = kernel->getAttrOfType<StringAttr>(kKernelAttr))
    result.name = name.str();
  else
    return interfaceError("?", "the module has no 'accy.kernel' name");
  FunctionOpInterface entry = findEntry(kernel);
  if (!entry)
    return interfaceError(result.name, "no entry function (a kernel or "
                                       "target product was expected)");
  if (llvm::Error err = readParameters(entry, result))
    return std::move(err);
  if (llvm::Error err = readBuffers(kernel, result))
    return std::move(err);
  // Only kernels compiled for a GPU target have launches to summarise.
  if (kernel->hasAttr(choir::kKernelSummaryAttrName)) {
    auto summary = readKernelSummary(kernel);
    if (!summary)
      return summary.takeError();
    result.summary = std::move(*summary);
    if (llvm::Error err = dropUnlaunchedBuffers(result))
      return std::move(err);
  }
  if (!result.summary.targets.empty() &&
      result.summary.symbols != result.symbols)
    return interfaceError(result.name, "the kernel summary and the memory "
                                       "plan number the symbols differently");
  for (auto [param, dim] : result.symbols)
    if (param < 0 || param >= static_cast<int64_t>(result.parameters.size()) ||
        dim < 0 ||
        dim >= static_cast<int64_t>(result.parameters[param].sizes.size()))
      return interfaceError(result.name, "a symbol of the memory plan names "
                                         "no dimension of the entry");
  return result;
}
