//===- ImageObject.cpp - A file's device images as a host object ----------===//
//
// The images used to be C++ string literals in NAME.accy.cpp, so every edit
// inside a kernel changed the launcher and cost a C++ compile of a file of
// megabytes (0.29 s of a 0.67 s rebuild of a 16-kernel file). Here they
// become an LLVM module of constant globals that the host's target machine
// writes as an object (CodeGen.h's emitArtifact, as for the host object): no
// optimization, no C++ front end, and the launcher's bytes stay the same.
//
//===----------------------------------------------------------------------===//

#include "accy/Target/ImageObject.h"

#include "accy/Target/CodeGen.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SHA256.h"

using namespace accy::target;

std::string
accy::target::getImageTableSymbol(llvm::StringRef stem,
                                  llvm::StringRef cppNamespace,
                                  llvm::ArrayRef<std::string> functions) {
  llvm::SHA256 hasher;
  auto field = [&](llvm::StringRef text) {
    // Length-prefixed, so that no two lists of names hash alike.
    hasher.update(std::to_string(text.size()) + ":");
    hasher.update(text);
  };
  field(stem);
  field(cppNamespace);
  for (const std::string &function : functions)
    field(function);
  std::array<uint8_t, 32> digest = hasher.final();
  // The stem, for whoever reads `nm`; the hash makes the name unique.
  std::string symbol = "accy_images_";
  for (char c : stem)
    symbol += llvm::isAlnum(c) ? c : '_';
  return symbol + "_" +
         llvm::toHex(llvm::ArrayRef(digest).take_front(8), /*LowerCase=*/true);
}

std::vector<const Artifact *>
accy::target::getDeviceImages(llvm::ArrayRef<Artifact> artifacts) {
  std::vector<const Artifact *> images;
  for (const Artifact &artifact : artifacts)
    if (artifact.kind != ArtifactKind::HostObject)
      images.push_back(&artifact);
  return images;
}

/// A private constant holding `bytes` and a terminating 0.
static llvm::Constant *addBytes(llvm::Module &module, llvm::StringRef name,
                                llvm::StringRef bytes, unsigned align) {
  llvm::Constant *data = llvm::ConstantDataArray::getString(
      module.getContext(), bytes, /*AddNull=*/true);
  auto *global = new llvm::GlobalVariable(
      module, data->getType(), /*isConstant=*/true,
      llvm::GlobalValue::PrivateLinkage, data, name);
  global->setAlignment(llvm::Align(align));
  return global;
}

llvm::Expected<std::string>
accy::target::emitImageObject(llvm::ArrayRef<Artifact> artifacts,
                              llvm::StringRef symbol, llvm::StringRef stem) {
  auto host = lookupTargetProfile("host");
  if (!host)
    return host.takeError();
  llvm::LLVMContext context;
  llvm::Module module(stem, context);
  module.setTargetTriple(host->triple);

  // accy::detail::Image: {const char *target; ImageFormat format (uint8_t);
  // const unsigned char *bytes; size_t size}, whose layout Kernel.h
  // asserts.
  auto *ptr = llvm::PointerType::getUnqual(context);
  auto *i8 = llvm::Type::getInt8Ty(context);
  auto *i64 = llvm::Type::getInt64Ty(context);
  auto *imageType = llvm::StructType::get(context, {ptr, i8, ptr, i64});
  std::vector<llvm::Constant *> entries;
  for (const Artifact *image : getDeviceImages(artifacts)) {
    // ImageFormat::Ptx is 0, ImageFormat::Hsaco 1.
    uint8_t format = image->kind == ArtifactKind::PTX ? 0 : 1;
    entries.push_back(llvm::ConstantStruct::get(
        imageType,
        {addBytes(module, "target." + image->target, image->target, 1),
         llvm::ConstantInt::get(i8, format),
         addBytes(module, "image." + image->target, image->bytes, 16),
         llvm::ConstantInt::get(i64, image->bytes.size())}));
  }
  auto *tableType = llvm::ArrayType::get(imageType, entries.size());
  auto *table = new llvm::GlobalVariable(
      module, tableType, /*isConstant=*/true,
      llvm::GlobalValue::ExternalLinkage,
      llvm::ConstantArray::get(tableType, entries), symbol);
  // The launcher that refers to it is linked into the same binary; hidden,
  // a shared library's table is never taken for another's.
  table->setVisibility(llvm::GlobalValue::HiddenVisibility);
  table->setAlignment(llvm::Align(8));
  return emitArtifact(module, *host);
}
