//===- BuildId.cpp - The identity of this build of the compiler -----------===//

#include "accy/Pipeline/BuildId.h"

#include "accy/Config.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

static int anchor;

const std::string &accy::compilerBuildId() {
  static const std::string id = [] {
    std::string result;
    llvm::raw_string_ostream os(result);
    os << "accy-" << ACCY_VERSION << "-llvm-" << LLVM_VERSION_STRING;
    std::string exe = llvm::sys::fs::getMainExecutable(nullptr, &anchor);
    auto bytes = llvm::MemoryBuffer::getFile(exe, /*IsText=*/false,
                                             /*RequiresNullTerminator=*/false);
    // Without its own bytes (a deleted executable), the revision it was
    // configured from is the best identity left.
    if (bytes)
      os << "-" << llvm::format_hex_no_prefix(
                       llvm::xxh3_64bits((*bytes)->getBuffer()), 16);
    else
      os << "-" << ACCY_REVISION;
    return result;
  }();
  return id;
}
