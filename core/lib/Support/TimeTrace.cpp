//===- TimeTrace.cpp - Where a compile's time goes, as a trace ------------===//

#include "accy/Support/TimeTrace.h"
#include "accy/Support/FileWriting.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/TimeProfiler.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>

using namespace accy;

/// Spans shorter than this are left out: 10 us keeps every MLIR pass of a
/// kernel's larger stages and every LLVM pass of its code generation.
static constexpr unsigned kGranularityUs = 10;

static std::atomic<bool> tracing{false};

void accy::startTimeTrace() {
  llvm::timeTraceProfilerInitialize(kGranularityUs, "accyc");
  tracing = true;
}

bool accy::isTimeTracing() { return tracing; }

llvm::Error accy::finishTimeTrace(llvm::StringRef path) {
  tracing = false;
  llvm::SmallString<0> json;
  llvm::raw_svector_ostream os(json);
  llvm::timeTraceProfilerWrite(os);
  llvm::timeTraceProfilerCleanup();
  // Like every output: whole, or not at all.
  llvm::Expected<bool> written = writeFileIfChanged(path, json);
  return written ? llvm::Error::success() : written.takeError();
}

TimeTraceThread::TimeTraceThread() {
  if (!tracing || llvm::timeTraceProfilerEnabled())
    return;
  llvm::timeTraceProfilerInitialize(kGranularityUs, "accyc");
  started = true;
}

TimeTraceThread::~TimeTraceThread() {
  if (started)
    llvm::timeTraceProfilerFinishThread();
}
