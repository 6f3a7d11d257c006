//===- CodeObjects.cpp - AMDGPU code objects from kernels' objects --------===//
//
// A file's AMDGPU code object is its kernels' relocatable objects, each made
// once by the target stage, linked by ld.lld: generating the code of the
// linked kernels a second time cost a third of a gfx942 build. Each object
// holds an NT_AMDGPU_METADATA note (a msgpack map: amdhsa.version,
// amdhsa.target, amdhsa.kernels), and lld would keep every one where a
// loader reads one note per code object. So before the link the first
// object's note is replaced by one listing every kernel, and the others'
// notes are removed.
//
//===----------------------------------------------------------------------===//

#include "accy/CodeGen/CodeGen.h"

#include "Linker.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/ObjCopy/CommonConfig.h"
#include "llvm/ObjCopy/ELF/ELFConfig.h"
#include "llvm/ObjCopy/ELF/ELFObjcopy.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace {

constexpr StringLiteral kNoteSection = ".note";
constexpr StringLiteral kNoteOwner = "AMDGPU";
constexpr StringLiteral kKernelsKey = "amdhsa.kernels";
/// The note section's alignment, which its notes' fields are padded to.
constexpr unsigned kNoteAlign = 4;

/// The metadata note's descriptor (the msgpack blob) of a kernel's object.
/// It points into `object`.
Expected<StringRef> readMetadata(StringRef object) {
  auto file = object::ELF64LEObjectFile::create(
      MemoryBufferRef(object, "kernel object"));
  if (!file)
    return file.takeError();
  const object::ELF64LEFile &elf = file->getELFFile();
  auto sections = elf.sections();
  if (!sections)
    return sections.takeError();
  std::optional<StringRef> found;
  for (const object::ELF64LE::Shdr &section : *sections) {
    if (section.sh_type != ELF::SHT_NOTE)
      continue;
    auto name = elf.getSectionName(section);
    if (!name)
      return name.takeError();
    Error error = Error::success();
    for (const object::ELF64LE::Note &note : elf.notes(section, error)) {
      // Another note would be lost when the section is replaced.
      if (*name != kNoteSection || note.getName() != kNoteOwner ||
          note.getType() != ELF::NT_AMDGPU_METADATA || found)
        return createStringError(
            "an AMDGPU kernel object has a note other than one "
            "NT_AMDGPU_METADATA in " +
            kNoteSection);
      found = note.getDescAsStringRef(kNoteAlign);
    }
    if (error)
      return std::move(error);
  }
  if (!found)
    return createStringError(
        "an AMDGPU kernel object has no NT_AMDGPU_METADATA note");
  return *found;
}

/// The kernel lists appended, every other entry required to agree.
int mergeMetadata(msgpack::DocNode *dest, msgpack::DocNode src,
                  msgpack::DocNode key) {
  if (dest->isMap() && src.isMap())
    return 0;
  if (dest->isArray() && src.isArray())
    return key.isString() && key.getString() == kKernelsKey
               ? static_cast<int>(dest->getArray().size())
               : 0; // amdhsa.version: element by element
  return dest->isScalar() && *dest == src ? 0 : -1;
}

/// The metadata notes of `objects` as one, in the form of a note section.
Expected<std::string> mergedNoteSection(ArrayRef<StringRef> objects) {
  msgpack::Document document;
  for (StringRef object : objects) {
    Expected<StringRef> blob = readMetadata(object);
    if (!blob)
      return blob.takeError();
    if (!document.readFromBlob(*blob, /*Multi=*/false, mergeMetadata))
      return createStringError(
          "the AMDGPU kernels' metadata notes disagree (target "
          "or code object version)");
  }
  std::string descriptor;
  document.writeToBlob(descriptor);

  std::string section;
  auto append32 = [&](uint32_t value) {
    char bytes[4];
    support::endian::write32le(bytes, value);
    section.append(bytes, 4);
  };
  auto pad = [&] { section.resize(alignTo(section.size(), kNoteAlign), '\0'); };
  append32(kNoteOwner.size() + 1);
  append32(descriptor.size());
  append32(ELF::NT_AMDGPU_METADATA);
  section += kNoteOwner;
  section += '\0';
  pad();
  section += descriptor;
  pad();
  return section;
}

/// `object` with its note section replaced by `note`, or removed when
/// `note` is null.
Expected<std::string> rewriteNote(StringRef object, const std::string *note) {
  auto file = object::ELF64LEObjectFile::create(
      MemoryBufferRef(object, "kernel object"));
  if (!file)
    return file.takeError();
  objcopy::CommonConfig config;
  objcopy::ELFConfig elfConfig;
  if (note)
    config.UpdateSection.emplace_back(
        kNoteSection, MemoryBuffer::getMemBufferCopy(*note, kNoteSection));
  else if (Error error =
               config.ToRemove.addMatcher(objcopy::NameOrPattern::create(
                   kNoteSection, objcopy::MatchStyle::Literal,
                   [](Error error) { return error; })))
    return std::move(error);
  std::string bytes;
  raw_string_ostream os(bytes);
  if (Error error =
          objcopy::elf::executeObjcopyOnBinary(config, elfConfig, *file, os))
    return std::move(error);
  os.flush();
  return bytes;
}

} // namespace

Expected<std::string>
accy::codegen::linkCodeObjects(ArrayRef<StringRef> objects) {
  const StringRef flags[] = {"-shared", "--no-undefined", "--build-id=none"};
  if (objects.size() == 1)
    return runLinker(flags, objects);
  Expected<std::string> note = mergedNoteSection(objects);
  if (!note)
    return note.takeError();
  std::vector<std::string> rewritten;
  for (auto [index, object] : enumerate(objects)) {
    Expected<std::string> bytes = rewriteNote(object, index ? nullptr : &*note);
    if (!bytes)
      return bytes.takeError();
    rewritten.push_back(std::move(*bytes));
  }
  std::vector<StringRef> inputs(rewritten.begin(), rewritten.end());
  return runLinker(flags, inputs);
}
