//===- Diagnostic.cpp - Diagnostic catalog and engine ---------------------===//

#include "accy/Frontend/Diagnostic.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cstdio>

using namespace accy;

std::string accy::diagCodeString(DiagCode code) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "E%04u", static_cast<unsigned>(code));
  return buf;
}

llvm::StringRef accy::diagCodeSummary(DiagCode code) {
  switch (code) {
#define ACCY_DIAG(Name, Number, Summary)                                       \
  case DiagCode::Name:                                                         \
    return Summary;
#include "accy/Frontend/DiagnosticCodes.def"
  }
  return "unknown error";
}

llvm::ArrayRef<DiagCode> accy::allDiagCodes() {
  static const DiagCode codes[] = {
#define ACCY_DIAG(Name, Number, Summary) DiagCode::Name,
#include "accy/Frontend/DiagnosticCodes.def"
  };
  return codes;
}

llvm::StringRef accy::severityName(Severity severity) {
  switch (severity) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Note:
    return "note";
  }
  return "error";
}

DiagnosticEngine::DiagnosticEngine(const SourceManager &sm,
                                   unsigned errorLimit)
    : sm(sm), errorLimit(errorLimit) {}

DiagnosticEngine::Builder
DiagnosticEngine::report(Severity severity, DiagCode code, SourceRange range,
                         std::string message) {
  if (limitHit)
    return Builder(this, nullptr);
  if (severity == Severity::Error) {
    if (errorLimit != 0 && numErrors >= errorLimit) {
      limitHit = true;
      Diagnostic stop;
      stop.code = DiagCode::TooManyErrors;
      stop.range = range;
      stop.begin = sm.getLineCol(range.file, range.begin);
      stop.end = sm.getLineCol(range.file, range.end);
      stop.message = "too many errors (" + std::to_string(errorLimit) +
                     "); stopping here";
      diags.push_back(std::move(stop));
      ++numErrors;
      return Builder(this, nullptr);
    }
    ++numErrors;
  }
  Diagnostic diag;
  diag.code = code;
  diag.severity = severity;
  diag.range = range;
  diag.begin = sm.getLineCol(range.file, range.begin);
  diag.end = sm.getLineCol(range.file, range.end);
  diag.message = std::move(message);
  diags.push_back(std::move(diag));
  return Builder(this, &diags.back());
}

DiagnosticEngine::Builder DiagnosticEngine::error(DiagCode code,
                                                  SourceRange range,
                                                  std::string message) {
  return report(Severity::Error, code, range, std::move(message));
}

DiagnosticEngine::Builder DiagnosticEngine::warning(DiagCode code,
                                                    SourceRange range,
                                                    std::string message) {
  return report(Severity::Warning, code, range, std::move(message));
}

DiagnosticEngine::Builder &
DiagnosticEngine::Builder::note(SourceRange range, std::string message) {
  if (!diag)
    return *this;
  DiagnosticNote note;
  note.range = range;
  note.begin = engine->sm.getLineCol(range.file, range.begin);
  note.end = engine->sm.getLineCol(range.file, range.end);
  note.message = std::move(message);
  diag->notes.push_back(std::move(note));
  return *this;
}

DiagnosticEngine::Builder &
DiagnosticEngine::Builder::fixIt(std::string title,
                                 std::vector<FixItEdit> edits) {
  if (diag && !edits.empty())
    diag->fixIts.push_back({std::move(title), std::move(edits)});
  return *this;
}

std::vector<Diagnostic> DiagnosticEngine::takeDiagnostics() {
  std::vector<Diagnostic> out = std::move(diags);
  diags.clear();
  return out;
}

std::string accy::closestName(llvm::StringRef name,
                              llvm::ArrayRef<std::string> candidates) {
  // Allow about one edit per three characters, at least one; names of one
  // or two characters are too short for a meaningful guess. Ties go to the
  // earlier candidate, so callers control the order.
  if (name.size() < 3)
    return "";
  unsigned limit = std::max<size_t>(1, name.size() / 3);
  unsigned best = limit + 1;
  std::string result;
  for (const std::string &candidate : candidates) {
    if (candidate == name)
      continue;
    unsigned distance = name.edit_distance(candidate, /*AllowReplacements=*/true,
                                           /*MaxEditDistance=*/limit + 1);
    if (distance < best) {
      best = distance;
      result = candidate;
    }
  }
  return best <= limit ? result : std::string();
}
