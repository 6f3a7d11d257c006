//===- StageRecord.cpp - What every stage run records ---------------------===//

#include "accy/Pipeline/StageRecord.h"

#include "llvm/ADT/STLExtras.h"

using namespace accy;

PassStatistics &PassStatistics::operator+=(const PassStatistics &other) {
  passRuns += other.passRuns;
  passFailures += other.passFailures;
  passesModified += other.passesModified;
  analysisMisses += other.analysisMisses;
  analysisInvalidations += other.analysisInvalidations;
  return *this;
}

void StageRecord::failInternally(std::string message) {
  FailureRecord r;
  r.pipeline = stagePipelineName(stage).str();
  r.kind = FailureKind::Internal;
  r.message = std::move(message);
  failures.push_back(std::move(r));
  status = StageStatus::Failed;
}

void StageRecord::addPassTimings(llvm::ArrayRef<PassTiming> timings) {
  for (const PassTiming &t : timings) {
    auto same = llvm::find_if(
        passTimings, [&](const PassTiming &sum) { return sum.pass == t.pass; });
    if (same == passTimings.end()) {
      passTimings.push_back(t);
      continue;
    }
    same->seconds += t.seconds;
    same->runs += t.runs;
    same->opsBefore += t.opsBefore;
    same->opsAfter += t.opsAfter;
    same->heapGrowthBytes += t.heapGrowthBytes;
    same->analysisSeconds += t.analysisSeconds;
    same->analysisCount += t.analysisCount;
  }
}

llvm::StringRef accy::failureKindName(FailureKind kind) {
  switch (kind) {
  case FailureKind::Verifier:
    return "verifier";
  case FailureKind::Pass:
    return "pass";
  case FailureKind::Legalization:
    return "legalization";
  case FailureKind::Internal:
    return "internal";
  }
  return "internal";
}

llvm::StringRef accy::stageStatusName(StageStatus status) {
  switch (status) {
  case StageStatus::Compiled:
    return "compiled";
  case StageStatus::Reused:
    return "reused";
  case StageStatus::Failed:
    return "failed";
  case StageStatus::NotRun:
    return "not run";
  }
  return "not run";
}

llvm::StringRef KernelStageRecord::statusName() const {
  return fromStore ? "stored" : stageStatusName(status);
}
