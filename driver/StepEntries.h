//===- StepEntries.h - Stage steps kept whole in the kernel store -*- C++ -*-===//
//
// The driver's side of step entries (accy/Pipeline/StepEntry.h): which
// steps keep one and under what key, serving a step from its entry, and
// fetching a file's later entries from a remote cache.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_DRIVER_STEPENTRIES_H
#define ACCY_DRIVER_STEPENTRIES_H

#include "Options.h"

#include "accy/Pipeline/StepEntry.h"

#include <optional>
#include <string>

namespace accy {
class KernelStore;
} // namespace accy

namespace accy::driver {

/// The key of the `stage` step that makes NAME.STAGE.mlirbc (`name`) from
/// the file `input` with `options`; none where steps keep no entry: the
/// semantic stage, and a run under fault injection, whose outputs are not
/// what its key says.
std::optional<std::string> stepKey(const Options &options, StageId stage,
                                   llvm::StringRef name,
                                   llvm::StringRef input);

/// NAME when `accyc stage`'s output is NAME.STAGE.mlirbc of its own stage:
/// an entry's files are named after NAME, so only such steps keep one.
std::optional<std::string> stepOutputName(const Options &options);

/// `accyc stage` from the step's entry in the local store: writes the
/// files it holds (the stage file last, each only when it changed) and the
/// record, which counts every kernel as stored. False where there is no
/// entry that checks, or a file cannot be written: the step then runs.
bool runStepFromEntry(const Options &options);

/// After the semantic step: brings the entries of the file's later steps,
/// as far as a remote cache has them, into the local store, each step's
/// key computed from the previous entry's stage file. Their steps then
/// run from their entries, and a warm build loads libcurl once per file.
void prefetchStepEntries(KernelStore &store, const Options &options,
                         llvm::StringRef semanticFile);

} // namespace accy::driver

#endif // ACCY_DRIVER_STEPENTRIES_H
