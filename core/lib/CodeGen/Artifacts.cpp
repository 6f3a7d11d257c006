//===- Artifacts.cpp - What the target product holds, as files ------------===//

#include "accy/CodeGen/Artifacts.h"

#include "accy/CodeGen/CodeGen.h"
#include "accy/Dialect/Choir/IR/ChoirAttrs.h"
#include "accy/KernelModule/KernelModule.h"
#include "accy/ProductAttributes.h"
#include "accy/Support/FileWriting.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Threading.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace accy;
using namespace accy::codegen;

std::string Artifact::fileName(llvm::StringRef stem) const {
  llvm::Expected<const TargetProfile &> profile = lookupTargetProfile(target);
  llvm::StringRef extension = ".bin";
  if (profile)
    extension = profile->artifactExtension();
  else
    llvm::consumeError(profile.takeError());
  return (stem + "." + target + extension).str();
}

llvm::StringRef accy::codegen::getLinkableProperty(TargetKind kind) {
  return kind == TargetKind::AMDGPU ? kRelocatableProperty : kBitcodeProperty;
}

namespace {

/// One target's code in a kernel module: the artifact and what links with
/// other kernels' (the bitcode; for AMDGPU the relocatable object), one
/// piece per part of the kernel compiled apart.
struct Compiled {
  const TargetProfile *profile;
  StringRef bytes;
  SmallVector<StringRef, 1> linkables;
};

llvm::Expected<std::vector<Compiled>> readCompiled(ModuleOp kernel) {
  std::vector<Compiled> result;
  for (auto binary : kernel.getOps<gpu::BinaryOp>()) {
    llvm::Expected<const TargetProfile &> profile =
        lookupTargetProfile(binary.getName());
    if (!profile)
      return profile.takeError();
    if (binary.getObjects().size() != 1)
      return llvm::createStringError("gpu.binary @" + binary.getName() +
                                     " must hold one object");
    auto object = cast<gpu::ObjectAttr>(binary.getObjects()[0]);
    SmallVector<StringRef, 1> linkables;
    if (DictionaryAttr properties = object.getProperties())
      if (auto pieces =
              properties.getAs<ArrayAttr>(getLinkableProperty(profile->kind)))
        for (auto piece : pieces.getAsRange<StringAttr>())
          linkables.push_back(piece.getValue());
    result.push_back({&*profile, object.getObject().getValue(), linkables});
  }
  if (auto host = kernel->getAttrOfType<DictionaryAttr>(kHostObjectAttr)) {
    auto object = host.getAs<StringAttr>("object");
    auto bitcode = host.getAs<StringAttr>("bitcode");
    if (!object || !bitcode)
      return llvm::createStringError("'" + kHostObjectAttr +
                                     "' lacks object or bitcode");
    llvm::Expected<const TargetProfile &> profile = lookupTargetProfile("host");
    if (!profile)
      return profile.takeError();
    result.push_back({&*profile, object.getValue(), {bitcode.getValue()}});
  }
  llvm::sort(result, [](const Compiled &a, const Compiled &b) {
    return a.profile < b.profile; // canonical (table) order
  });
  return result;
}

} // namespace

llvm::Expected<std::vector<Artifact>>
accy::codegen::extractArtifacts(ModuleOp kernel) {
  auto compiled = readCompiled(kernel);
  if (!compiled)
    return compiled.takeError();
  std::vector<Artifact> artifacts;
  for (const Compiled &c : *compiled)
    artifacts.push_back(
        {c.profile->name.str(), c.profile->artifactKind(), c.bytes.str()});
  return artifacts;
}

/// One target's file from its kernels' code. A single kernel's code is the
/// file's; several kernels' join (joinCode).
static llvm::Expected<std::string>
linkFileArtifact(const TargetProfile &profile,
                 llvm::ArrayRef<StringRef> linkables,
                 llvm::ArrayRef<StringRef> compiled, llvm::StringRef stem) {
  if (compiled.size() == 1)
    return compiled[0].str();
  return joinCode(profile, linkables, compiled,
                  (stem + "." + profile.name).str());
}

llvm::Expected<std::vector<Artifact>>
accy::codegen::linkFileArtifacts(llvm::ArrayRef<ModuleOp> kernels,
                                 llvm::StringRef stem) {
  // Per target, in canonical order, what links of every kernel.
  struct Inputs {
    const TargetProfile *profile;
    std::vector<StringRef> linkables;
    std::vector<StringRef> artifacts;
  };
  std::vector<Inputs> inputs;
  if (kernels.empty())
    return std::vector<Artifact>();
  for (auto [index, kernel] : llvm::enumerate(kernels)) {
    auto compiled = readCompiled(kernel);
    if (!compiled)
      return compiled.takeError();
    if (index == 0) {
      for (const Compiled &c : *compiled)
        inputs.push_back({c.profile, {}, {}});
    } else if (compiled->size() != inputs.size()) {
      return llvm::createStringError("kernel '" + getKernelName(kernel) +
                                     "' was compiled for other targets than '" +
                                     getKernelName(kernels.front()) + "'");
    }
    for (auto [slot, c] : llvm::zip(inputs, *compiled)) {
      if (slot.profile != c.profile)
        return llvm::createStringError(
            "kernel '" + getKernelName(kernel) +
            "' was compiled for other targets than '" +
            getKernelName(kernels.front()) + "'");
      if (c.linkables.empty())
        return llvm::createStringError("kernel '" + getKernelName(kernel) +
                                       "' has no " + c.profile->name +
                                       " code to link");
      llvm::append_range(slot.linkables, c.linkables);
      slot.artifacts.push_back(c.bytes);
    }
  }
  // The targets' files are independent: one task each, so that a build for
  // gfx90a and gfx942 generates both code objects at once. On the context's
  // threads: LLVM's own pool would start threads of its own, on the
  // critical path of a build (up to 2.5 ms here), even for one target.
  std::vector<std::string> bytes(inputs.size()), errors(inputs.size());
  mlir::parallelFor(
      kernels.front()->getContext(), 0, inputs.size(), [&](size_t i) {
        llvm::Expected<std::string> file = linkFileArtifact(
            *inputs[i].profile, inputs[i].linkables, inputs[i].artifacts, stem);
        if (file)
          bytes[i] = std::move(*file);
        else
          errors[i] = llvm::toString(file.takeError());
      });
  std::vector<Artifact> artifacts;
  for (auto [input, file, error] : llvm::zip(inputs, bytes, errors)) {
    if (!error.empty())
      return llvm::createStringError(error);
    artifacts.push_back({input.profile->name.str(),
                         input.profile->artifactKind(), std::move(file)});
  }
  return artifacts;
}

llvm::Error accy::codegen::writeArtifacts(llvm::ArrayRef<Artifact> artifacts,
                                          llvm::StringRef directory,
                                          llvm::StringRef stem) {
  for (const Artifact &artifact : artifacts) {
    llvm::SmallString<256> path(directory);
    llvm::sys::path::append(path, artifact.fileName(stem));
    if (llvm::Expected<bool> written = writeFileIfChanged(path, artifact.bytes);
        !written)
      return written.takeError();
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Kernel summary
//===----------------------------------------------------------------------===//

static KernelArgument readKernelOperand(choir::KernelOperandAttr operand) {
  using Kind = choir::KernelOperandKind;
  switch (operand.getKind()) {
  case Kind::Argument:
    return {KernelArgument::Kind::Argument, operand.getPosition()};
  case Kind::Buffer:
    return {KernelArgument::Kind::Buffer, operand.getPosition()};
  case Kind::Index:
    return {KernelArgument::Kind::Index, -1,
            cast<AffineMapAttr>(operand.getValue()).getValue().getResult(0)};
  case Kind::Scalar:
    return {KernelArgument::Kind::Scalar, -1, {}, operand.getValue()};
  }
  llvm_unreachable("unknown kernel operand kind");
}

static KernelLaunch readKernelLaunch(choir::KernelLaunchAttr attr) {
  KernelLaunch launch;
  launch.name = attr.getName().str();
  launch.dispatch = attr.getDispatch();
  launch.schedule = choir::stringifySchedule(attr.getSchedule()).str();
  for (unsigned i = 0; i < 3; ++i) {
    launch.block[i] = attr.getBlock()[i];
    launch.grid[i] = attr.getGrid().getValue().getResult(i);
  }
  launch.sharedMemoryBytes = attr.getSharedMemory();
  if (ArrayAttr when = attr.getWhen()) {
    launch.when.emplace();
    for (auto conjunction : when.getAsRange<AffineMapAttr>()) {
      ArrayRef<AffineExpr> exprs = conjunction.getValue().getResults();
      launch.when->emplace_back(exprs.begin(), exprs.end());
    }
  }
  for (choir::KernelOperandAttr operand : attr.getOperands())
    launch.arguments.push_back(readKernelOperand(operand));
  return launch;
}

/// The verifier of #choir.kernel_summary checked its shape.
llvm::Expected<KernelSummary>
accy::codegen::readKernelSummary(ModuleOp kernel) {
  auto summary = kernel->getAttrOfType<choir::KernelSummaryAttr>(
      choir::kKernelSummaryAttrName);
  if (!summary)
    return llvm::createStringError("kernel module has no '" +
                                   choir::kKernelSummaryAttrName +
                                   "' #choir.kernel_summary");
  KernelSummary result;
  for (auto pair : summary.getSymbols().getAsRange<DenseI64ArrayAttr>())
    result.symbols.push_back({pair[0], pair[1]});
  for (NamedAttribute target : summary.getTargets()) {
    std::vector<KernelLaunch> launches;
    for (auto launch : cast<ArrayAttr>(target.getValue())
                           .getAsRange<choir::KernelLaunchAttr>())
      launches.push_back(readKernelLaunch(launch));
    result.targets.push_back({target.getName().str(), std::move(launches)});
  }
  return result;
}

static int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

int64_t accy::codegen::evaluate(AffineExpr expr,
                                llvm::ArrayRef<int64_t> symbols) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return constant.getValue();
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
    return symbols[symbol.getPosition()];
  auto binary = cast<AffineBinaryOpExpr>(expr);
  int64_t lhs = evaluate(binary.getLHS(), symbols);
  int64_t rhs = evaluate(binary.getRHS(), symbols);
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return lhs + rhs;
  case AffineExprKind::Mul:
    return lhs * rhs;
  case AffineExprKind::FloorDiv:
    return floorDiv(lhs, rhs);
  case AffineExprKind::CeilDiv:
    return -floorDiv(-lhs, rhs);
  case AffineExprKind::Mod:
    return lhs - floorDiv(lhs, rhs) * rhs;
  default:
    llvm_unreachable("not a binary affine expression");
  }
}

std::string accy::codegen::toCxxExpression(AffineExpr expr,
                                           llvm::ArrayRef<std::string> names) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return std::to_string(constant.getValue());
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
    return names[symbol.getPosition()];
  auto binary = cast<AffineBinaryOpExpr>(expr);
  std::string lhs = toCxxExpression(binary.getLHS(), names);
  std::string rhs = toCxxExpression(binary.getRHS(), names);
  // Sizes are non-negative, so C++ division is floor division here.
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return "(" + lhs + " + " + rhs + ")";
  case AffineExprKind::Mul:
    return "(" + lhs + " * " + rhs + ")";
  case AffineExprKind::FloorDiv:
    return "(" + lhs + " / " + rhs + ")";
  case AffineExprKind::CeilDiv:
    return "((" + lhs + " + " + rhs + " - 1) / " + rhs + ")";
  case AffineExprKind::Mod:
    return "(" + lhs + " % " + rhs + ")";
  default:
    llvm_unreachable("not a binary affine expression");
  }
}
