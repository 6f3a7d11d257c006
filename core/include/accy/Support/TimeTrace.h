//===- TimeTrace.h - Where a compile's time goes, as a trace ----*- C++ -*-===//
//
// `accyc build --time-trace FILE` writes what clang's -ftime-trace writes:
// a Chrome trace (chrome://tracing, Perfetto) of LLVM's time-trace
// profiler, with a span per stage, per kernel in each stage, per MLIR
// pass, per piece of code generation and per LLVM pass, on the thread that
// ran it (docs/internals.md, "Time traces"). LLVM's profiler records on
// the threads that started it; a thread that lives on past the trace (the
// MLIR context's pool, the SharedWork helpers) starts it for each job or
// task it runs (TimeTraceThread) and hands its record over when that ends,
// so that the trace holds the spans of every thread.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_SUPPORT_TIMETRACE_H
#define ACCY_SUPPORT_TIMETRACE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace accy {

/// Starts tracing: on the calling thread, and in every TimeTraceThread
/// from now on.
void startTimeTrace();

/// Whether the process traces.
bool isTimeTracing();

/// Writes the trace of every thread that recorded into `path` and stops
/// tracing; call it on the thread that started it, once the other threads'
/// jobs are done.
llvm::Error finishTimeTrace(llvm::StringRef path);

/// While it lives, the calling thread records its spans where the process
/// traces (a no-op where it does not, or where the thread records already).
class TimeTraceThread {
public:
  TimeTraceThread();
  ~TimeTraceThread();
  TimeTraceThread(const TimeTraceThread &) = delete;
  TimeTraceThread &operator=(const TimeTraceThread &) = delete;

private:
  bool started = false;
};

} // namespace accy

#endif // ACCY_SUPPORT_TIMETRACE_H
