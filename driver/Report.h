//===- Report.h - What accyc prints ------------------------------*- C++ -*-===//
#ifndef ACCY_DRIVER_REPORT_H
#define ACCY_DRIVER_REPORT_H

#include "Options.h"

#include "accy/Pipeline/Compiler.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace accy::driver {

/// Prints the frontend diagnostics and every stage failure of a compile, in
/// the requested format (text on stderr, JSON on stdout); returns the number
/// of errors.
unsigned printDiagnostics(const Compilation &c, const Options &options);

/// The per-stage table of `--timing`, the statistics of `--stats` and the
/// per-kernel table of `--fingerprints`, as the options ask.
void printReports(llvm::raw_ostream &os,
                  const std::array<StageRecord, kNumStages> &records,
                  const Options &options);

/// How a stage's kernels were made.
struct KernelCounts {
  unsigned compiled = 0;
  unsigned stored = 0; // from the kernel store on disk
  unsigned reused = 0; // from this process's cache
  unsigned failed = 0;
};
KernelCounts countKernels(const StageRecord &record);

/// `accyc stage --record`: the stage's status, time and kernel counts as
/// JSON, for scripts/stage-table.py.
std::string stageRecordJson(const StageRecord &record);

/// `--list-passes`: every stage with the passes of its pipeline.
void printStagePasses(llvm::raw_ostream &os, const StageOptions &options);

} // namespace accy::driver

#endif // ACCY_DRIVER_REPORT_H
