//===- BuildState.h - What an earlier accyc build left behind ---*- C++ -*-===//
//
// `NAME.stamps.json` records, for the files of one build, the content hash of
// every stage file and the per-stage records (times, keys, fingerprints).
// A later build trusts a stage file only when its bytes still hash to the
// recorded value, and then reuses its kernel products by their keys.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_DRIVER_BUILDSTATE_H
#define ACCY_DRIVER_BUILDSTATE_H

#include "accy/Pipeline/Compiler.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

namespace accy::driver {

class BuildState {
public:
  /// Reads `path`; a missing or malformed file is an empty state.
  static BuildState load(llvm::StringRef path);

  /// Puts into `cache` the kernels of every stage file in `dir` whose
  /// content hash matches this state. Returns how many kernels were seeded.
  unsigned seedCache(mlir::MLIRContext &context, ProductCache &cache,
                     llvm::StringRef dir, llvm::StringRef name) const;

  /// Records the hash of an output file.
  void recordFile(llvm::StringRef file, llvm::StringRef bytes);
  void forgetFile(llvm::StringRef file) { fileHashes.erase(file); }

  /// Writes the state with the stage records of `c`.
  llvm::Error save(llvm::StringRef path, const Compilation &c) const;

private:
  llvm::StringMap<std::string> fileHashes; // file name -> content hash
};

} // namespace accy::driver

#endif // ACCY_DRIVER_BUILDSTATE_H
