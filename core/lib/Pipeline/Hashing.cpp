//===- Hashing.cpp - Content hashes, product keys, fingerprints -----------===//

#include "accy/Pipeline/Hashing.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

using namespace accy;

std::string accy::contentHash(llvm::StringRef bytes) {
  llvm::XXH128_hash_t digest =
      llvm::xxh3_128bits(llvm::ArrayRef(bytes.bytes_begin(), bytes.size()));
  return (llvm::utohexstr(digest.high64, /*LowerCase=*/true, 16) +
          llvm::utohexstr(digest.low64, /*LowerCase=*/true, 16));
}

std::string accy::productBytes(mlir::Operation *op) {
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  // A fixed producer string: the bytes must not depend on how the compiler
  // was built, only on the product.
  mlir::BytecodeWriterConfig config("accy");
  // Bytecode from version 3 on records the order of each value's uses when
  // it differs from the order a reader rebuilds, and cloning or rewriting IR
  // permutes those orders without changing the program. Version 2 records
  // none, so equal programs give equal bytes however they were made
  // (compiled, cloned from a cache, or read from a file).
  config.setDesiredBytecodeVersion(2);
  (void)mlir::writeBytecodeToFile(op, os, config);
  return bytes;
}

std::string accy::computeProductKey(const KeyInputs &inputs) {
  llvm::SHA256 hasher;
  auto field = [&](llvm::StringRef text) {
    // Length-prefixed, so no two field lists hash alike.
    std::string len = std::to_string(text.size()) + ":";
    hasher.update(len);
    hasher.update(text);
  };
  field(stageName(inputs.stage));
  field(std::to_string(stageSchemaVersion(inputs.stage)));
  field(inputs.buildId);
  field(inputs.options);
  field(inputs.inputHash);
  std::array<uint8_t, 32> digest = hasher.final();
  return llvm::toHex(llvm::ArrayRef(digest).take_front(16), /*LowerCase=*/true);
}

uint64_t accy::fingerprintOf(llvm::StringRef text) {
  return llvm::xxh3_64bits(text);
}

std::string accy::fingerprintHex(uint64_t fingerprint) {
  std::string out;
  llvm::raw_string_ostream(out) << llvm::format_hex_no_prefix(fingerprint, 16);
  return out;
}
