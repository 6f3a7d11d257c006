//===- BuildId.cpp - The identity of this build of the compiler -----------===//

#include "accy/Pipeline/BuildId.h"

#include "accy/Config.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#if defined(__linux__)
#include <elf.h>
#include <link.h>
#endif

static int anchor;

#if defined(__linux__)
/// The linker's NT_GNU_BUILD_ID note of the main executable: a hash of its
/// contents that the linker already computed, so reading it costs nothing
/// (hashing a statically linked compiler's ~100 MB would cost more than a
/// warm build).
static std::string linkerBuildId() {
  std::string id;
  dl_iterate_phdr(
      [](dl_phdr_info *info, size_t, void *data) -> int {
        auto &id = *static_cast<std::string *>(data);
        // The first object is the main executable.
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr) &phdr = info->dlpi_phdr[i];
          if (phdr.p_type != PT_NOTE)
            continue;
          const char *pos =
              reinterpret_cast<const char *>(info->dlpi_addr + phdr.p_vaddr);
          const char *end = pos + phdr.p_memsz;
          while (pos + sizeof(ElfW(Nhdr)) <= end) {
            auto *note = reinterpret_cast<const ElfW(Nhdr) *>(pos);
            const char *name = pos + sizeof(ElfW(Nhdr));
            const char *desc = name + ((note->n_namesz + 3) & ~3u);
            if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 &&
                llvm::StringRef(name, 3) == "GNU") {
              for (unsigned b = 0; b < note->n_descsz; ++b)
                id += llvm::utohexstr(static_cast<uint8_t>(desc[b]), true, 2);
              return 1;
            }
            pos = desc + ((note->n_descsz + 3) & ~3u);
          }
        }
        return 1;
      },
      &id);
  return id;
}
#else
static std::string linkerBuildId() { return {}; }
#endif

/// Without a linker build id, a hash of the executable's own bytes.
static std::string executableHash() {
  std::string exe = llvm::sys::fs::getMainExecutable(nullptr, &anchor);
  auto bytes = llvm::MemoryBuffer::getFile(exe, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
  if (!bytes)
    return {};
  return llvm::utohexstr(llvm::xxh3_64bits((*bytes)->getBuffer()),
                         /*LowerCase=*/true, 16);
}

const std::string &accy::compilerBuildId() {
  static const std::string id = [] {
    std::string result;
    llvm::raw_string_ostream os(result);
    os << "accy-" << ACCY_VERSION << "-llvm-" << LLVM_VERSION_STRING << "-";
    std::string build = linkerBuildId();
    if (build.empty())
      build = executableHash();
    // Without its own bytes either (a deleted executable), the revision it
    // was configured from is the best identity left.
    os << (build.empty() ? std::string(ACCY_REVISION) : build);
    return result;
  }();
  return id;
}
