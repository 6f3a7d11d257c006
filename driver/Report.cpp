//===- Report.cpp - What accyc prints -------------------------------------===//

#include "Report.h"

#include "accy/Pipeline/Hashing.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace accy;
using namespace accy::driver;
namespace json = llvm::json;

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

static json::Object position(unsigned line, unsigned column, unsigned offset) {
  return json::Object{{"line", line}, {"column", column}, {"offset", offset}};
}

static json::Object range(const SourceManager &sm, SourceRange r) {
  LineCol begin = sm.getLineCol(r.file, r.begin);
  LineCol end = sm.getLineCol(r.file, r.end);
  return json::Object{{"file", sm.getPath(r.file)},
                      {"start", position(begin.line, begin.col, r.begin)},
                      {"end", position(end.line, end.col, r.end)}};
}

static json::Value fixItJson(const SourceManager &sm, const FixIt &fix) {
  json::Array edits;
  for (const FixItEdit &edit : fix.edits) {
    json::Object o = range(sm, edit.range);
    o["text"] = edit.text;
    edits.push_back(std::move(o));
  }
  return json::Object{{"title", fix.title}, {"edits", std::move(edits)}};
}

static json::Value frontendJson(const SourceManager &sm, const Diagnostic &d) {
  json::Array fixIts;
  for (const FixIt &fix : d.fixIts)
    fixIts.push_back(fixItJson(sm, fix));
  json::Array notes;
  for (const DiagnosticNote &n : d.notes)
    notes.push_back(json::Object{
        {"file", sm.getPath(n.range.file)},
        {"start", position(n.begin.line, n.begin.col, n.range.begin)},
        {"end", position(n.end.line, n.end.col, n.range.end)},
        {"message", n.message}});
  return json::Object{
      {"file", sm.getPath(d.range.file)},
      {"start", position(d.begin.line, d.begin.col, d.range.begin)},
      {"end", position(d.end.line, d.end.col, d.range.end)},
      {"severity", severityName(d.severity)},
      {"code", diagCodeString(d.code)},
      {"stage", "semantic"},
      {"message", d.message},
      {"notes", std::move(notes)},
      {"fixits", std::move(fixIts)}};
}

static json::Value failureJson(const FailureRecord &r) {
  json::Object o{{"severity", "error"},
                 {"code", r.pass.empty() ? r.pipeline : r.pass},
                 {"stage", r.pipeline},
                 {"pipeline", r.pipeline},
                 {"pass", r.pass},
                 {"kind", failureKindName(r.kind)},
                 {"op", r.op},
                 {"kernel", r.symbol},
                 {"message", r.message}};
  if (r.range) {
    o["file"] = r.range->file;
    o["start"] = position(r.range->line, r.range->column, r.range->offset);
    o["end"] = position(r.range->endLine, r.range->endColumn,
                        r.range->endOffset);
  }
  json::Array notes;
  for (const std::string &n : r.notes)
    notes.push_back(json::Object{{"message", n}});
  o["notes"] = std::move(notes);
  return o;
}

/// `file:L:C-L:C: error[pass]: message`, then where it happened.
static void printFailureText(llvm::raw_ostream &os, const FailureRecord &r) {
  if (r.range)
    os << r.range->file << ":" << r.range->line << ":" << r.range->column
       << "-" << r.range->endLine << ":" << r.range->endColumn << ": ";
  os << "error[" << (r.pass.empty() ? r.pipeline : r.pass) << "]: ";
  if (!r.op.empty())
    os << "'" << r.op << "' ";
  os << r.message << "\n";
  os << "  note: " << failureKindName(r.kind) << " failure in pipeline "
     << r.pipeline;
  if (!r.symbol.empty())
    os << ", kernel '" << r.symbol << "'";
  os << "\n";
  for (const std::string &n : r.notes)
    os << "  note: " << n << "\n";
}

static void printJson(llvm::raw_ostream &os, json::Array diagnostics) {
  os << llvm::formatv("{0:2}", json::Value(json::Object{
                                   {"diagnostics", std::move(diagnostics)}}))
     << "\n";
}

unsigned accy::driver::printDiagnostics(const Compilation &c,
                                        const Options &options) {
  std::vector<FailureRecord> failures = c.failures();
  unsigned errors = failures.size();
  for (const Diagnostic &d : c.diagnostics())
    errors += d.severity == Severity::Error;
  if (options.format == DiagnosticsFormat::Json) {
    json::Array all;
    for (const Diagnostic &d : c.diagnostics())
      all.push_back(frontendJson(c.sources(), d));
    for (const FailureRecord &r : failures)
      all.push_back(failureJson(r));
    printJson(llvm::outs(), std::move(all));
    return errors;
  }
  llvm::raw_ostream &os = llvm::errs();
  DiagPrintOptions print;
  print.showSnippet = options.snippets;
  print.showFixIts = true;
  accy::printDiagnostics(os, c.sources(), c.diagnostics(), print);
  for (const FailureRecord &r : failures)
    printFailureText(os, r);
  return errors;
}

//===----------------------------------------------------------------------===//
// Tables
//===----------------------------------------------------------------------===//

using Records = std::array<StageRecord, kNumStages>;

static std::string shortKey(llvm::StringRef key) {
  return key.empty() ? "-" : key.str();
}

KernelCounts accy::driver::countKernels(const StageRecord &r) {
  KernelCounts counts;
  for (const KernelStageRecord &k : r.kernels) {
    if (k.status == StageStatus::Compiled)
      ++counts.compiled;
    else if (k.status == StageStatus::Reused)
      ++(k.fromStore ? counts.stored : counts.reused);
    else if (k.status == StageStatus::Failed)
      ++counts.failed;
  }
  return counts;
}

std::string accy::driver::stageRecordJson(const StageRecord &r) {
  KernelCounts counts = countKernels(r);
  llvm::json::Object kernels{{"compiled", counts.compiled},
                             {"stored", counts.stored},
                             {"reused", counts.reused},
                             {"failed", counts.failed}};
  llvm::json::Object record{{"stage", stageName(r.stage)},
                            {"status", stageStatusName(r.status)},
                            {"seconds", r.seconds},
                            {"kernels", std::move(kernels)}};
  std::string text;
  llvm::raw_string_ostream(text)
      << llvm::formatv("{0:2}", llvm::json::Value(std::move(record))) << "\n";
  return text;
}

/// How a stage's kernels were made: "3 compiled, 13 stored, 2 reused"
/// (stored: from the kernel store on disk; reused: in this process).
static std::string kernelCounts(const StageRecord &r) {
  auto [compiled, stored, reused, failed] = countKernels(r);
  std::string text;
  auto add = [&](unsigned n, llvm::StringRef what) {
    if (n)
      text += (text.empty() ? "" : ", ") + std::to_string(n) + " " + what.str();
  };
  add(compiled, "compiled");
  add(stored, "stored");
  add(reused, "reused");
  return text.empty() ? "-" : text;
}

static void printTimingTable(llvm::raw_ostream &os, const Records &records) {
  os << llvm::formatv("{0,-9} {1,-9} {2,9} {3,9}  {4,-16}  {5,-32}  {6}\n",
                      "stage", "status", "time(ms)", "pass runs",
                      "fingerprint", "product key", "kernels");
  double total = 0;
  for (StageId stage : kAllStages) {
    const StageRecord &r = records[stageIndex(stage)];
    total += r.seconds;
    std::string runs = stage == StageId::Semantic
                           ? std::string("-")
                           : std::to_string(r.stats.passRuns);
    bool made = r.status == StageStatus::Compiled ||
                r.status == StageStatus::Reused;
    os << llvm::formatv("{0,-9} {1,-9} {2,9:F2} {3,9}  {4,-16}  {5,-32}  {6}\n",
                        stageName(stage), stageStatusName(r.status),
                        r.seconds * 1e3, runs,
                        made ? fingerprintHex(r.fingerprint) : "-",
                        made ? shortKey(r.key) : "-", kernelCounts(r));
  }
  os << llvm::formatv("{0,-9} {1,-9} {2,9:F2}\n", "total", "", total * 1e3);
}

static void printStatsTable(llvm::raw_ostream &os, const Records &records,
                            bool perPass) {
  os << llvm::formatv("{0,-9} {1,6} {2,9} {3,9} {4,9} {5,12}\n", "stage",
                      "runs", "failures", "modified", "analyses",
                      "invalidated");
  for (StageId stage : kAllStages) {
    const PassStatistics &s = records[stageIndex(stage)].stats;
    os << llvm::formatv("{0,-9} {1,6} {2,9} {3,9} {4,9} {5,12}\n",
                        stageName(stage), s.passRuns, s.passFailures,
                        s.passesModified, s.analysisMisses,
                        s.analysisInvalidations);
  }
  if (!perPass)
    return;
  os << "\n"
     << llvm::formatv("{0,-9} {1,-44} {2,9} {3,5} {4,9} {5,9} {6,10} {7,12}\n",
                      "stage", "pass", "time(ms)", "runs", "ops in",
                      "ops out", "heap KiB", "analysis ms");
  for (StageId stage : kAllStages)
    for (const PassTiming &t : records[stageIndex(stage)].passTimings)
      os << llvm::formatv(
          "{0,-9} {1,-44} {2,9:F3} {3,5} {4,9} {5,9} {6,10:F1} {7,12:F3}\n",
          stageName(stage), t.pass, t.seconds * 1e3, t.runs, t.opsBefore,
          t.opsAfter, t.heapGrowthBytes / 1024.0, t.analysisSeconds * 1e3);
}

static void printFingerprintTable(llvm::raw_ostream &os,
                                  const Records &records) {
  os << llvm::formatv("{0,-20} {1,-9} {2,-9} {3,-16}  {4}\n", "kernel",
                      "stage", "status", "fingerprint", "product key");
  for (StageId stage : kAllStages)
    for (const KernelStageRecord &k : records[stageIndex(stage)].kernels)
      os << llvm::formatv("{0,-20} {1,-9} {2,-9} {3,-16}  {4}\n", k.kernel,
                          stageName(stage), k.statusName(),
                          fingerprintHex(k.fingerprint), k.key);
}

void accy::driver::printReports(llvm::raw_ostream &os, const Records &records,
                                const Options &options) {
  if (options.timing)
    printTimingTable(os, records);
  if (options.stats)
    printStatsTable(os, records, /*perPass=*/options.timing);
  if (options.fingerprints)
    printFingerprintTable(os, records);
}

void accy::driver::printStagePasses(llvm::raw_ostream &os,
                                    const StageOptions &options) {
  os << "semantic: (frontend) parse, resolve names, infer types and shapes, "
        "emit choir, verify\n";
  for (StageId stage : kAllStages) {
    if (stage == StageId::Semantic)
      continue;
    mlir::OpPassManager pm("builtin.module");
    buildStagePipeline(stage, pm, options);
    os << stageName(stage) << ": " << stagePipelineName(stage) << "\n  ";
    pm.printAsTextualPipeline(os);
    os << "\n";
  }
}
