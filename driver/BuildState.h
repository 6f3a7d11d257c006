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

#include <array>
#include "llvm/Support/Error.h"

namespace accy::driver {

class BuildState {
public:
  /// Reads `path`; a missing or malformed file is an empty state.
  static BuildState load(llvm::StringRef path);

  /// Whether the build that wrote the state reached the target stage: only
  /// then can a build be up to date (a first build skips the check).
  bool isComplete() const { return complete; }

  /// True when the stage files, artifacts and stamps in `dir` are exactly
  /// what compiling `semantic` (a compile stopped after the semantic stage)
  /// with `options` would make: every kernel's key chain matches and every
  /// recorded file still has its recorded bytes. Then nothing needs to run.
  bool isUpToDate(const Compilation &semantic, const StageOptions &options,
                  llvm::StringRef dir) const;

  /// The stage records of the build that wrote the state, every kernel
  /// marked reused (what an up-to-date build reports).
  std::array<StageRecord, kNumStages> reusedRecords() const;

  /// Puts into `compiler`'s caches the kernels of every stage file in
  /// `dir` whose content hash matches this state. Returns how many kernels
  /// were seeded.
  unsigned seedCache(mlir::MLIRContext &context, Compiler &compiler,
                     llvm::StringRef dir, llvm::StringRef name) const;

  /// Records the hash of an output file.
  void recordFile(llvm::StringRef file, llvm::StringRef bytes);
  void forgetFile(llvm::StringRef file) { fileHashes.erase(file); }

  /// Writes the state with the stage records of `c`.
  llvm::Error save(llvm::StringRef path, const Compilation &c) const;

private:
  llvm::StringMap<std::string> fileHashes; // file name -> content hash
  std::array<StageRecord, kNumStages> stages;
  bool complete = false; // the build reached the target stage
};

} // namespace accy::driver

#endif // ACCY_DRIVER_BUILDSTATE_H
