//===- Product.cpp - The shape of a stage product -------------------------===//

#include "accy/Pipeline/Product.h"

#include "mlir/IR/Builders.h"

using namespace accy;
using namespace mlir;

static llvm::Error productError(const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), what);
}

OwningOpRef<ModuleOp> accy::createProduct(MLIRContext &context,
                                          StageId stage) {
  OpBuilder builder(&context);
  OwningOpRef<ModuleOp> product = ModuleOp::create(builder.getUnknownLoc());
  (*product)->setAttr(kStageAttr, builder.getStringAttr(stageName(stage)));
  (*product)->setAttr(kSchemaAttr,
                      builder.getI64IntegerAttr(stageSchemaVersion(stage)));
  return product;
}

SmallVector<ModuleOp> accy::kernelModules(ModuleOp product) {
  SmallVector<ModuleOp> kernels;
  for (auto module : product.getBody()->getOps<ModuleOp>())
    if (module->hasAttr(kKernelAttr))
      kernels.push_back(module);
  return kernels;
}

llvm::StringRef accy::kernelName(ModuleOp kernelModule) {
  if (auto name = kernelModule->getAttrOfType<StringAttr>(kKernelAttr))
    return name.getValue();
  return {};
}

llvm::StringRef accy::kernelKey(ModuleOp kernelModule) {
  if (auto key = kernelModule->getAttrOfType<StringAttr>(kKeyAttr))
    return key.getValue();
  return {};
}

llvm::Error accy::verifyProduct(ModuleOp product, StageId stage) {
  auto tag = product->getAttrOfType<StringAttr>(kStageAttr);
  if (!tag)
    return productError("not an Accy stage product (no '" + kStageAttr +
                        "' attribute)");
  if (tag.getValue() != stageName(stage))
    return productError("a product of stage '" + tag.getValue() +
                        "' where stage '" + stageName(stage) +
                        "' was expected");
  auto schema = product->getAttrOfType<IntegerAttr>(kSchemaAttr);
  if (!schema || schema.getInt() != stageSchemaVersion(stage))
    return productError("the " + stageName(stage) +
                        " product has a different schema version; rebuild it");
  for (ModuleOp kernel : kernelModules(product))
    if (kernelKey(kernel).empty())
      return productError("kernel '" + kernelName(kernel) +
                          "' has no product key");
  return llvm::Error::success();
}

llvm::Error accy::verifyChain(ModuleOp predecessor, ModuleOp product) {
  return verifyChain(kernelModules(predecessor), kernelModules(product));
}

llvm::Error accy::verifyChain(llvm::ArrayRef<ModuleOp> predecessor,
                              llvm::ArrayRef<ModuleOp> made) {
  llvm::StringMap<llvm::StringRef> keys;
  for (ModuleOp kernel : predecessor)
    keys[kernelName(kernel)] = kernelKey(kernel);
  for (ModuleOp kernel : made) {
    auto input = kernel->getAttrOfType<StringAttr>(kInputKeyAttr);
    auto it = keys.find(kernelName(kernel));
    if (!input || it == keys.end() || it->second != input.getValue())
      return productError("kernel '" + kernelName(kernel) +
                          "' was not made from the given predecessor product");
  }
  return llvm::Error::success();
}
