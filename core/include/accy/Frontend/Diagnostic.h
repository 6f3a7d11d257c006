//===- Diagnostic.h - Frontend diagnostics ----------------------*- C++ -*-===//
//
// Errors are values: every stage of the frontend reports into a
// DiagnosticEngine and keeps going. A Diagnostic has a stable code (the
// catalog is DiagnosticCodes.def, documented in docs/diagnostics.md), a
// severity, a source range (byte offsets plus resolved 1-based line/columns),
// a message naming the values involved, and optional notes.
//
// Text format (printDiagnostics):
//   path/file.accy:3:5-3:12: error[E0012]: message
//     3 | <the source line>
//       |     ^~~~~~~
//   path/file.accy:1:9-1:10: note: previous definition is here
//   path/file.accy:3:5-3:12: fix-it: replace 'sofmax' with 'softmax'
// (fix-it lines only with DiagPrintOptions::showFixIts).
// Columns are 1-based byte columns; the end position is one past the last
// character of the range (so a 7-byte token at column 5 prints 3:5-3:12).
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_FRONTEND_DIAGNOSTIC_H
#define ACCY_FRONTEND_DIAGNOSTIC_H

#include "accy/Frontend/Source.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace accy {

enum class DiagCode : uint16_t {
#define ACCY_DIAG(Name, Number, Summary) Name = Number,
#include "accy/Frontend/DiagnosticCodes.def"
};

/// "E0012" for DiagCode::ChainedComparison.
std::string diagCodeString(DiagCode code);
/// One-line summary of the error kind from the catalog.
llvm::StringRef diagCodeSummary(DiagCode code);
/// Every code of the catalog, in numeric order.
llvm::ArrayRef<DiagCode> allDiagCodes();

enum class Severity : uint8_t { Error, Warning, Note };
llvm::StringRef severityName(Severity severity);

struct DiagnosticNote {
  SourceRange range;
  LineCol begin, end; ///< Resolved from `range`; end is exclusive.
  std::string message;
};

/// One replacement of a fix-it: the bytes of `range` (empty to insert)
/// become `text`.
struct FixItEdit {
  SourceRange range;
  std::string text;
};

/// A change that resolves a diagnostic, like clang's FixItHint: its edits,
/// applied together, remove that error. The checker computes it where it
/// knows the names, types and shapes involved; `title` says what it does
/// ("replace 'sofmax' with 'softmax'"). Edits do not overlap.
struct FixIt {
  std::string title;
  std::vector<FixItEdit> edits;
};

struct Diagnostic {
  DiagCode code = DiagCode::ExpectedToken;
  Severity severity = Severity::Error;
  SourceRange range;
  LineCol begin, end; ///< Resolved from `range`; end is exclusive.
  std::string message;
  std::vector<DiagnosticNote> notes;
  std::vector<FixIt> fixIts;
};

/// Collects diagnostics. After `errorLimit` errors one TooManyErrors error is
/// added and later reports are dropped; `limitReached()` lets long loops stop.
class DiagnosticEngine {
public:
  /// Lets the caller attach notes to the diagnostic just reported. Notes on
  /// a dropped diagnostic are dropped too.
  class Builder {
  public:
    Builder &note(SourceRange range, std::string message);
    /// Attaches a fix-it; one without edits is dropped.
    Builder &fixIt(std::string title, std::vector<FixItEdit> edits);

  private:
    friend class DiagnosticEngine;
    Builder(DiagnosticEngine *engine, Diagnostic *diag)
        : engine(engine), diag(diag) {}
    DiagnosticEngine *engine;
    Diagnostic *diag;
  };

  explicit DiagnosticEngine(const SourceManager &sm, unsigned errorLimit = 100);

  Builder error(DiagCode code, SourceRange range, std::string message);
  Builder warning(DiagCode code, SourceRange range, std::string message);

  unsigned getNumErrors() const { return numErrors; }
  bool hasErrors() const { return numErrors != 0; }
  bool limitReached() const { return limitHit; }
  const std::vector<Diagnostic> &getDiagnostics() const { return diags; }
  std::vector<Diagnostic> takeDiagnostics();
  const SourceManager &getSourceManager() const { return sm; }

private:
  Builder report(Severity severity, DiagCode code, SourceRange range,
                 std::string message);
  const SourceManager &sm;
  unsigned errorLimit;
  unsigned numErrors = 0;
  bool limitHit = false;
  std::vector<Diagnostic> diags;
};

struct DiagPrintOptions {
  /// Print the source line and a caret underline after each diagnostic.
  bool showSnippet = true;
  /// Also print a snippet under each note.
  bool showNoteSnippets = false;
  /// Print a "fix-it:" line for each fix-it, after the notes.
  bool showFixIts = false;
};

/// Prints diagnostics in the text format above.
void printDiagnostics(llvm::raw_ostream &os, const SourceManager &sm,
                      llvm::ArrayRef<Diagnostic> diags,
                      const DiagPrintOptions &options = {});
/// The same text for one diagnostic, as a string.
std::string formatDiagnostic(const SourceManager &sm, const Diagnostic &diag,
                             const DiagPrintOptions &options = {});

/// The closest candidate to `name` by edit distance, or "" when none is
/// close enough to suggest ("did you mean ...?").
std::string closestName(llvm::StringRef name,
                        llvm::ArrayRef<std::string> candidates);

} // namespace accy

#endif // ACCY_FRONTEND_DIAGNOSTIC_H
