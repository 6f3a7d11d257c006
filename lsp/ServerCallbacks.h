//===- ServerCallbacks.h - What the server tells its embedder ---*- C++ -*-===//
//
// The document workers call these from their own threads, never while
// holding a lock of the server's, so the embedder (the protocol layer) may
// send messages or take locks of its own.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LSP_SERVERCALLBACKS_H
#define ACCY_LSP_SERVERCALLBACKS_H

#include "Protocol.h"

#include "accy/Pipeline/Stage.h"

#include <cstdint>
#include <string>
#include <vector>

namespace accy::lsp {

class ServerCallbacks {
public:
  virtual ~ServerCallbacks();
  /// The diagnostics of `version`, sent only while it is the document's
  /// current version.
  virtual void publishDiagnostics(const std::string &uri, int64_t version,
                                  std::vector<Diagnostic> diagnostics) = 0;
  /// A compile of the document starts, reaches a stage, and ends; `compile`
  /// tells it from the others, since one version's code generation may
  /// still run when the next version's check starts.
  virtual void compileStarted(const std::string &uri, int64_t version,
                              uint64_t compile) {}
  virtual void stageStarted(uint64_t compile, StageId stage) {}
  virtual void compileEnded(uint64_t compile, bool cancelled) {}
  /// The background index of the workspace's files starts its first scan,
  /// and has indexed every file found.
  virtual void workspaceScanStarted(size_t files) {}
  virtual void workspaceScanEnded(size_t files, double seconds) {}
};

/// Counters of a document's compiles, for accy/stats.
struct CompileCounters {
  uint64_t started = 0, cancelled = 0, finished = 0;
  /// Kernel products held for reuse after the last compile.
  size_t cachedProducts = 0;
  /// Background units of code generation: run (a kernel compiled at some
  /// stage), kept when an edit left the kernel's input unchanged, dropped
  /// when an edit changed it (or the products were released).
  uint64_t unitsRun = 0, unitsKept = 0, unitsDropped = 0;
};

} // namespace accy::lsp

#endif // ACCY_LSP_SERVERCALLBACKS_H
