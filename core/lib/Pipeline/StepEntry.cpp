//===- StepEntry.cpp - A stage step's files, kept whole -------------------===//

#include "accy/Pipeline/StepEntry.h"

#include "accy/Pipeline/Hashing.h"
#include "accy/Pipeline/KernelStore.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace accy;

static constexpr llvm::StringLiteral kMagic = "accy-step";
static constexpr unsigned kVersion = 1;

bool accy::hasStepEntries(StageId stage) { return stage != StageId::Semantic; }

std::string accy::computeStepKey(const StepKeyInputs &inputs) {
  // A product key whose options name the step: no product key's options
  // start with "step", so the two kinds of keys never meet.
  std::string options = "step;name=" + inputs.name.str() + ";" +
                        canonicalTargetSet(inputs.stage, inputs.targets);
  if (inputs.stage == StageId::Target)
    options += ";namespace=" + inputs.cppNamespace.str();
  return computeProductKey({inputs.stage, inputs.buildId, options,
                            contentHash(inputs.input)});
}

std::string accy::encodeStepEntry(llvm::StringRef key,
                                  const StepEntry &entry) {
  std::string payload;
  for (const StepFile &file : entry.files)
    payload += file.suffix + " " + std::to_string(file.bytes.size()) + "\n" +
               file.bytes;
  return (kMagic + " " + std::to_string(kVersion) + " " + key + " " +
          contentHash(payload) + " " + std::to_string(entry.kernels) + " " +
          std::to_string(entry.files.size()) + "\n")
             .str() +
         payload;
}

std::optional<StepEntry> accy::decodeStepEntry(llvm::StringRef data,
                                               llvm::StringRef key) {
  auto [header, payload] = data.split('\n');
  llvm::SmallVector<llvm::StringRef, 6> fields;
  header.split(fields, ' ');
  StepEntry entry;
  unsigned version;
  size_t count;
  if (fields.size() != 6 || fields[0] != kMagic ||
      fields[1].getAsInteger(10, version) || version != kVersion ||
      fields[2] != key || fields[3] != contentHash(payload) ||
      fields[4].getAsInteger(10, entry.kernels) ||
      fields[5].getAsInteger(10, count) || count == 0)
    return std::nullopt;
  for (size_t i = 0; i < count; ++i) {
    auto [line, rest] = payload.split('\n');
    auto [suffix, sizeText] = line.rsplit(' ');
    size_t size;
    // A suffix names a file beside the output: never a path elsewhere.
    if (suffix.empty() || suffix.contains('/') || suffix.contains('\\') ||
        suffix.contains("..") || sizeText.getAsInteger(10, size) ||
        size > rest.size())
      return std::nullopt;
    entry.files.push_back({suffix.str(), rest.take_front(size).str()});
    payload = rest.drop_front(size);
  }
  if (!payload.empty())
    return std::nullopt;
  return entry;
}

std::optional<StepEntry> accy::readStepEntry(const std::string &path,
                                             llvm::StringRef key) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return std::nullopt;
  return decodeStepEntry((*buffer)->getBuffer(), key);
}

std::string accy::stepEntryPath(llvm::StringRef storeDirectory,
                                llvm::StringRef key) {
  llvm::SmallString<256> p(storeDirectory);
  llvm::sys::path::append(p, kKernelStoreSchema, "steps", key.take_front(2),
                          key);
  return std::string(p);
}

std::string accy::stepHitsPath(llvm::StringRef storeDirectory) {
  llvm::SmallString<256> p(storeDirectory);
  llvm::sys::path::append(p, kKernelStoreSchema, "step-hits");
  return std::string(p);
}
