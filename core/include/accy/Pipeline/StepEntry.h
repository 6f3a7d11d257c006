//===- StepEntry.h - A stage step's files, kept whole -----------*- C++ -*-===//
//
// ccache's direct mode for the stage steps Ninja runs (docs/cache.md, "Step
// entries"). A step is a pure function of its input file's bytes, its
// stage, the NAME its outputs are named after, the options its stage reads
// and the compiler build; a step entry, stored under the key of those,
// holds every file the step wrote. A step whose entry is in the local store
// writes those files and ends before the compiler starts
// (driver/StepFastPath.cpp): about 1 ms where a process that links LLVM and
// MLIR costs 5 to 11 ms even when every kernel comes from the store.
//
// Nothing here needs LLVM's or MLIR's static initializers: the fast path
// runs before them.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_PIPELINE_STEPENTRY_H
#define ACCY_PIPELINE_STEPENTRY_H

#include "accy/Pipeline/Stage.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace accy {

/// One file a step wrote: its name is NAME followed by `suffix`
/// (".contract.mlirbc", ".sm_90.ptx", ".accy.h").
struct StepFile {
  std::string suffix;
  std::string bytes;
};

/// Everything a successful step of a stage after `semantic` wrote; the
/// stage file comes last, as the step writes it last.
struct StepEntry {
  uint64_t kernels = 0; // for the step's record: every one from the store
  std::vector<StepFile> files;
};

/// What a step's output depends on.
struct StepKeyInputs {
  StageId stage;
  llvm::StringRef buildId;
  llvm::StringRef name; // NAME of NAME.STAGE.mlirbc
  /// `--target` (the dispatch and target stages) as a set, and
  /// `--namespace` (the target stage); the others read neither.
  llvm::ArrayRef<std::string> targets;
  llvm::StringRef cppNamespace;
  llvm::StringRef input; // the input file's bytes
};

/// Whether steps of `stage` keep step entries: all after `semantic`, whose
/// output also depends on the imported files (not on its input alone).
bool hasStepEntries(StageId stage);

std::string computeStepKey(const StepKeyInputs &inputs);

/// An entry's bytes: a header line naming the key and the content hash of
/// what follows, then each file as `SUFFIX SIZE\n` and its bytes.
std::string encodeStepEntry(llvm::StringRef key, const StepEntry &entry);
/// The entry `data` holds when it is one under `key` whose content checks;
/// none for anything else (truncated, altered, another key's).
std::optional<StepEntry> decodeStepEntry(llvm::StringRef data,
                                         llvm::StringRef key);

/// The entry in the file `path` when it is one under `key` that checks
/// (decodeStepEntry); none without one.
std::optional<StepEntry> readStepEntry(const std::string &path,
                                       llvm::StringRef key);

/// Where a store directory keeps the step entry under `key`
/// (DIR/v1/steps/KK/KEY), and the file whose size counts the steps the fast
/// path served (one byte each, appended: no lock, no read).
std::string stepEntryPath(llvm::StringRef storeDirectory, llvm::StringRef key);
std::string stepHitsPath(llvm::StringRef storeDirectory);

} // namespace accy

#endif // ACCY_PIPELINE_STEPENTRY_H
