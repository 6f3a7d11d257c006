//===- StageRecord.h - What every stage run records ------------*- C++ -*-===//
#ifndef ACCY_PIPELINE_STAGERECORD_H
#define ACCY_PIPELINE_STAGERECORD_H

#include "accy/Pipeline/SourceMap.h"
#include "accy/Pipeline/Stage.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace accy {

struct PassStatistics {
  unsigned passRuns = 0;
  unsigned passFailures = 0;
  unsigned passesModified = 0;
  /// Analyses computed (each a cache miss), and those recomputed for an op
  /// after an earlier result was invalidated. MLIR does not report cache
  /// hits to instrumentation, so none are counted.
  unsigned analysisMisses = 0;
  unsigned analysisInvalidations = 0;

  PassStatistics &operator+=(const PassStatistics &other);
};

/// Optional per-pass timing (`--timing --stats`).
struct PassTiming {
  std::string pass;
  double seconds = 0;
  unsigned runs = 0;
  uint64_t opsBefore = 0, opsAfter = 0;
  /// Net growth of the heap (bytes in use after the pass minus before).
  int64_t heapGrowthBytes = 0;
  double analysisSeconds = 0;
  unsigned analysisCount = 0;
};

enum class FailureKind { Verifier, Pass, Legalization, Internal };
llvm::StringRef failureKindName(FailureKind kind);

/// Why a stage failed, mapped back to the source.
struct FailureRecord {
  std::string pipeline;
  FailureKind kind = FailureKind::Pass;
  std::string pass;
  std::string op;
  std::string symbol; // the kernel
  std::string message;
  std::optional<SourceSpan> range;
  std::vector<std::string> notes;
};

enum class StageStatus { Compiled, Reused, Failed, NotRun };
llvm::StringRef stageStatusName(StageStatus status);

/// One kernel's product at one stage.
struct KernelStageRecord {
  std::string kernel;
  std::string key;
  /// Content hash of the kernel's input product (empty for semantic).
  std::string inputHash;
  uint64_t fingerprint = 0;
  StageStatus status = StageStatus::NotRun;
  /// Reused from the kernel store on disk (not from this process).
  bool fromStore = false;
  /// "stored" for a kernel from the store, else the status's name.
  llvm::StringRef statusName() const;
};

struct StageRecord {
  StageId stage = StageId::Semantic;
  StageStatus status = StageStatus::NotRun;
  double seconds = 0;
  PassStatistics stats;
  std::vector<PassTiming> passTimings;
  /// Summary of the whole stage product: combined over its kernels.
  uint64_t fingerprint = 0;
  std::string key;
  std::vector<KernelStageRecord> kernels;
  std::vector<FailureRecord> failures;

  /// Marks the stage failed for a reason of the compiler's own (a product
  /// that is not what the stage expects), not of a pass.
  void failInternally(std::string message);
  /// Adds `timings` (other runs of the stage's passes) to passTimings, pass
  /// by pass, in the order the passes first ran.
  void addPassTimings(llvm::ArrayRef<PassTiming> timings);
};

} // namespace accy

#endif // ACCY_PIPELINE_STAGERECORD_H
