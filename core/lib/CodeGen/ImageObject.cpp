//===- ImageObject.cpp - A file's device images as a host object ----------===//
//
// The images used to be C++ string literals in NAME.accy.cpp, so every edit
// inside a kernel changed the launcher and cost a C++ compile of a file of
// megabytes (0.29 s of a 0.67 s rebuild of a 16-kernel file). Here they
// are written as an ELF object through LLVM's MC layer (sections, labels and
// data): no C++ front end, no code generation, and the launcher's bytes stay
// the same.
//
//===----------------------------------------------------------------------===//

#include "accy/CodeGen/ImageObject.h"

#include "accy/CodeGen/CodeGen.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/MC/MCAsmBackend.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCObjectWriter.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSectionELF.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

using namespace accy::codegen;
using namespace accy;

std::string
accy::codegen::getImageTableSymbol(llvm::StringRef stem,
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
accy::codegen::getDeviceImages(llvm::ArrayRef<Artifact> artifacts) {
  std::vector<const Artifact *> images;
  for (const Artifact &artifact : artifacts)
    if (artifact.kind != ArtifactKind::HostObject)
      images.push_back(&artifact);
  return images;
}

namespace {
/// An ELF object for the host written through LLVM's MC layer: sections,
/// labels and data only, without a target machine or a code generation
/// pipeline (which cost a target step of a 16-kernel file a sixth of its
/// time, with a copy of every image in an LLVM constant).
struct ObjectWriter {
  std::unique_ptr<llvm::MCRegisterInfo> registers;
  std::unique_ptr<llvm::MCAsmInfo> asmInfo;
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget;
  std::unique_ptr<llvm::MCInstrInfo> instructions;
  std::unique_ptr<llvm::MCContext> context;
  std::unique_ptr<llvm::MCObjectFileInfo> fileInfo;
  std::unique_ptr<llvm::MCStreamer> streamer;
};
} // namespace

static llvm::Expected<ObjectWriter>
createObjectWriter(const TargetProfile &host, llvm::raw_pwrite_stream &os) {
  llvm::Expected<const llvm::Target &> target = getBackend(host);
  if (!target)
    return target.takeError();
  llvm::Triple triple(host.triple);
  llvm::MCTargetOptions options;
  ObjectWriter w;
  w.registers.reset(target->createMCRegInfo(host.triple));
  if (w.registers)
    w.asmInfo.reset(
        target->createMCAsmInfo(*w.registers, host.triple, options));
  w.subtarget.reset(target->createMCSubtargetInfo(host.triple, "", ""));
  w.instructions.reset(target->createMCInstrInfo());
  if (!w.registers || !w.asmInfo || !w.subtarget || !w.instructions)
    return llvm::createStringError("the host backend cannot write objects");
  w.context = std::make_unique<llvm::MCContext>(
      triple, w.asmInfo.get(), w.registers.get(), w.subtarget.get());
  w.fileInfo.reset(target->createMCObjectFileInfo(*w.context, /*PIC=*/true));
  w.context->setObjectFileInfo(w.fileInfo.get());
  std::unique_ptr<llvm::MCAsmBackend> backend(
      target->createMCAsmBackend(*w.subtarget, *w.registers, options));
  std::unique_ptr<llvm::MCCodeEmitter> emitter(
      target->createMCCodeEmitter(*w.instructions, *w.context));
  if (!backend || !emitter)
    return llvm::createStringError("the host backend cannot write objects");
  std::unique_ptr<llvm::MCObjectWriter> writer =
      backend->createObjectWriter(os);
  w.streamer.reset(target->createMCObjectStreamer(
      triple, *w.context, std::move(backend), std::move(writer),
      std::move(emitter), *w.subtarget));
  w.streamer->initSections(/*NoExecStack=*/false, *w.subtarget);
  return w;
}

/// `bytes` and a terminating 0 under a new local label, aligned to `align`.
static llvm::MCSymbol *emitBytes(ObjectWriter &w, llvm::StringRef bytes,
                                 unsigned align) {
  w.streamer->emitValueToAlignment(llvm::Align(align));
  llvm::MCSymbol *label = w.context->createTempSymbol();
  w.streamer->emitLabel(label);
  w.streamer->emitBytes(bytes);
  w.streamer->emitIntValue(0, 1);
  return label;
}

llvm::Expected<std::string>
accy::codegen::emitImageObject(llvm::ArrayRef<Artifact> artifacts,
                               llvm::StringRef symbol, llvm::StringRef stem) {
  auto host = lookupTargetProfile("host");
  if (!host)
    return host.takeError();
  llvm::SmallString<0> bytes;
  llvm::raw_svector_ostream os(bytes);
  llvm::Expected<ObjectWriter> writer = createObjectWriter(*host, os);
  if (!writer)
    return writer.takeError();
  ObjectWriter &w = *writer;
  llvm::MCStreamer &out = *w.streamer;
  out.emitFileDirective(stem);

  // The targets' names and the images, read-only.
  std::vector<const Artifact *> images = getDeviceImages(artifacts);
  std::vector<std::pair<llvm::MCSymbol *, llvm::MCSymbol *>> labels;
  out.switchSection(w.fileInfo->getReadOnlySection());
  for (const Artifact *image : images) {
    llvm::MCSymbol *target = emitBytes(w, image->target, 1);
    labels.emplace_back(target, emitBytes(w, image->bytes, 16));
  }

  // accy::detail::Image: {const char *target; ImageFormat format (uint8_t);
  // const unsigned char *bytes; size_t size}, 32 bytes, whose layout
  // Kernel.h asserts. Pointers, so relocated: read-only after relocation.
  constexpr unsigned kImageSize = 32;
  out.switchSection(
      w.context->getELFSection(".data.rel.ro", llvm::ELF::SHT_PROGBITS,
                               llvm::ELF::SHF_ALLOC | llvm::ELF::SHF_WRITE));
  out.emitValueToAlignment(llvm::Align(8));
  llvm::MCSymbol *table = w.context->getOrCreateSymbol(symbol);
  out.emitSymbolAttribute(table, llvm::MCSA_Global);
  // The launcher that refers to it is linked into the same binary; hidden,
  // a shared library's table is never taken for another's.
  out.emitSymbolAttribute(table, llvm::MCSA_Hidden);
  out.emitSymbolAttribute(table, llvm::MCSA_ELF_TypeObject);
  out.emitLabel(table);
  for (auto [image, label] : llvm::zip(images, labels)) {
    out.emitValue(llvm::MCSymbolRefExpr::create(label.first, *w.context), 8);
    // ImageFormat::Ptx is 0, ImageFormat::Hsaco 1.
    out.emitIntValue(image->kind == ArtifactKind::PTX ? 0 : 1, 1);
    out.emitZeros(7);
    out.emitValue(llvm::MCSymbolRefExpr::create(label.second, *w.context), 8);
    out.emitIntValue(image->bytes.size(), 8);
  }
  out.emitELFSize(table, llvm::MCConstantExpr::create(
                             kImageSize * images.size(), *w.context));
  // No executable stack for the binary that links it.
  if (llvm::MCSection *noExecStack =
          w.asmInfo->getNonexecutableStackSection(*w.context))
    out.switchSection(noExecStack);
  out.finish();
  return std::string(bytes.str());
}
