//===- Hashing.h - Content hashes, product keys, fingerprints ---*- C++ -*-===//
//
// A product key names everything a stage's output depends on; reuse
// decisions read only keys. A fingerprint is a 64-bit summary of what a stage
// made, for display; nothing decides anything from it.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_PIPELINE_HASHING_H
#define ACCY_PIPELINE_HASHING_H

#include "accy/Pipeline/Stage.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mlir {
class Operation;
} // namespace mlir

namespace accy {

/// XXH3-128 of `bytes`, as 32 lower-case hex digits: the identity of a
/// product's or a file's content. It is hashed often (every kernel's input
/// at every stage, every output file on a no-change build) and over large
/// products (the target product carries PTX and bitcode); XXH3 runs at
/// memory speed where SHA-256 took a tenth of a warm build. Product keys,
/// small inputs that name a compile, stay SHA-256.
std::string contentHash(llvm::StringRef bytes);

/// Deterministic MLIR bytecode of `op` (fixed producer string), the bytes
/// that stage files hold and that content hashes are taken of.
std::string productBytes(mlir::Operation *op);

/// The identity of a stage's output for one kernel.
struct KeyInputs {
  StageId stage;
  llvm::StringRef buildId;   // compiler build id
  llvm::StringRef options;   // canonical text of the stage's options
  llvm::StringRef inputHash; // content hash of the input product
};
std::string computeProductKey(const KeyInputs &inputs);

/// A 64-bit summary of `text`, printed as 16 hex digits.
uint64_t fingerprintOf(llvm::StringRef text);
std::string fingerprintHex(uint64_t fingerprint);

} // namespace accy

#endif // ACCY_PIPELINE_HASHING_H
