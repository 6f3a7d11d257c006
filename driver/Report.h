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

/// `--list-passes`: every stage with the passes of its pipeline.
void printStagePasses(llvm::raw_ostream &os, const StageOptions &options);

} // namespace accy::driver

#endif // ACCY_DRIVER_REPORT_H
