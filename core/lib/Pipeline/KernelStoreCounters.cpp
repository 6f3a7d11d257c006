//===- KernelStoreCounters.cpp - What the kernel store counted ------------===//

#include "KernelStoreCounters.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

using namespace accy;

KernelStoreCounters::PerStage &
KernelStoreCounters::PerStage::operator+=(const PerStage &other) {
  hits += other.hits;
  misses += other.misses;
  writes += other.writes;
  corrupt += other.corrupt;
  return *this;
}

KernelStoreCounters::PerStage KernelStoreCounters::total() const {
  PerStage sum;
  for (const PerStage &s : stages)
    sum += s;
  return sum;
}

KernelStoreCounters &
KernelStoreCounters::operator+=(const KernelStoreCounters &other) {
  for (auto [mine, theirs] : llvm::zip(stages, other.stages))
    mine += theirs;
  bytes += other.bytes;
  remote += other.remote;
  return *this;
}

/// One line per stage: `STAGE HITS MISSES WRITES CORRUPT`, `bytes N`, and
/// `remote HITS MISSES WRITES ERRORS TIMEOUTS CORRUPT READ WRITTEN`.
/// Unknown or malformed lines are skipped: the counters are informational.
KernelStoreCounters accy::parseStoreCounters(llvm::StringRef text) {
  KernelStoreCounters counters;
  llvm::SmallVector<llvm::StringRef> lines, fields;
  text.split(lines, '\n', -1, false);
  for (llvm::StringRef line : lines) {
    fields.clear();
    line.split(fields, ' ', -1, false);
    if (fields.size() == 2 && fields[0] == "bytes") {
      (void)fields[1].getAsInteger(10, counters.bytes);
      continue;
    }
    if (fields.size() == 9 && fields[0] == "remote") {
      RemoteCacheCounters &r = counters.remote;
      uint64_t *values[] = {&r.hits,      &r.misses,      &r.writes,
                            &r.errors,    &r.timeouts,    &r.corrupt,
                            &r.bytesRead, &r.bytesWritten};
      for (auto [value, field] :
           llvm::zip(values, llvm::ArrayRef(fields).drop_front()))
        if (field.getAsInteger(10, *value))
          *value = 0;
      continue;
    }
    std::optional<StageId> stage =
        fields.empty() ? std::nullopt : parseStageName(fields[0]);
    uint64_t values[4];
    if (!stage || fields.size() != 5 ||
        llvm::any_of(llvm::seq<size_t>(0, 4), [&](size_t i) {
          return fields[i + 1].getAsInteger(10, values[i]);
        }))
      continue;
    auto &s = counters.stages[stageIndex(*stage)];
    s = {values[0], values[1], values[2], values[3]};
  }
  return counters;
}

std::string accy::printStoreCounters(const KernelStoreCounters &counters) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (StageId stage : kAllStages) {
    const auto &s = counters.stages[stageIndex(stage)];
    os << stageName(stage) << " " << s.hits << " " << s.misses << " "
       << s.writes << " " << s.corrupt << "\n";
  }
  os << "bytes " << counters.bytes << "\n";
  const RemoteCacheCounters &r = counters.remote;
  os << "remote " << r.hits << " " << r.misses << " " << r.writes << " "
     << r.errors << " " << r.timeouts << " " << r.corrupt << " " << r.bytesRead
     << " " << r.bytesWritten << "\n";
  return text;
}
