//===- FailureCapture.cpp - Diagnostics of a stage into records -----------===//

#include "FailureCapture.h"

#include "accy/Pipeline/Product.h"
#include "accy/Pipeline/SourceMap.h"
#include "accy/Support/CrashContainment.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"

using namespace accy;

FailureCapture::FailureCapture(mlir::MLIRContext *context)
    : owner(std::this_thread::get_id()),
      handler(context, [this](mlir::Diagnostic &diag) {
        // Kernels may compile on several threads at once, each with its own
        // capture: leave other threads' diagnostics to their captures.
        if (std::this_thread::get_id() != owner)
          return mlir::failure();
        if (diag.getSeverity() != mlir::DiagnosticSeverity::Error)
          return mlir::success();
        Captured c{diag.getLocation(), diag.str(), {}};
        for (mlir::Diagnostic &note : diag.getNotes())
          c.notes.push_back(note.str());
        errors.push_back(std::move(c));
        return mlir::success();
      }) {}

/// Op errors read "'dialect.op' op message": split off the op name.
static std::pair<std::string, std::string> splitOpName(llvm::StringRef text) {
  if (text.starts_with("'")) {
    size_t close = text.find("' op ", 1);
    if (close != llvm::StringRef::npos)
      return {text.substr(1, close - 1).str(), text.substr(close + 5).str()};
  }
  return {"", text.str()};
}

/// Whether `module` verifies, without reporting what does not: the pass
/// manager or the stage's own verification has reported it already (into
/// this thread's capture), and a second report would be a second record.
static bool verifiesQuietly(mlir::ModuleOp module) {
  std::thread::id self = std::this_thread::get_id();
  mlir::ScopedDiagnosticHandler quiet(
      module.getContext(), [self](mlir::Diagnostic &) {
        return mlir::success(std::this_thread::get_id() == self);
      });
  return mlir::succeeded(mlir::verify(module));
}

std::vector<FailureRecord>
FailureCapture::records(llvm::StringRef pipeline, llvm::StringRef failedPass,
                        llvm::StringRef kernel, mlir::ModuleOp kernelModule,
                        const SourceMap *sourceMap,
                        llvm::StringRef crash) const {
  bool crashed = !crash.empty();
  // A pass that fails leaves IR that either still verifies (the pass gave
  // up: a pass failure) or does not (a verifier failure after the pass).
  FailureKind kind = FailureKind::Pass;
  if (crashed)
    kind = FailureKind::Internal;
  else if (kernelModule && !verifiesQuietly(kernelModule))
    kind = FailureKind::Verifier;

  std::vector<FailureRecord> out;
  auto fallbackRange = [&]() -> std::optional<SourceSpan> {
    return sourceMap ? sourceMap->kernelSpan(kernel) : std::nullopt;
  };
  if (crashed) {
    // One record for the crash, naming the pass; what the run reported
    // before it crashed becomes its notes (and its first error its range).
    FailureRecord r;
    r.pipeline = pipeline.str();
    r.kind = FailureKind::Internal;
    r.pass = failedPass.str();
    r.symbol = kernel.str();
    r.message = kInternalErrorPrefix.str() + " (" + crash.str() + ") while running " +
                (failedPass.empty() ? std::string("the pipeline")
                                    : "'" + failedPass.str() + "'");
    for (const Captured &c : errors) {
      if (!r.range && sourceMap)
        r.range = sourceMap->resolve(c.loc);
      r.notes.push_back(c.message);
    }
    if (!r.range)
      r.range = fallbackRange();
    out.push_back(std::move(r));
    return out;
  }
  for (const Captured &c : errors) {
    FailureRecord r;
    r.pipeline = pipeline.str();
    r.kind = kind;
    if (kind == FailureKind::Pass &&
        llvm::StringRef(c.message).contains("failed to legalize"))
      r.kind = FailureKind::Legalization;
    r.pass = failedPass.str();
    std::tie(r.op, r.message) = splitOpName(c.message);
    // A crash a pass contained itself (code generation on threads of its
    // own) and reported as its error.
    if (llvm::StringRef(r.message).starts_with(kInternalErrorPrefix))
      r.kind = FailureKind::Internal;
    r.symbol = kernel.str();
    r.range = sourceMap ? sourceMap->resolve(c.loc) : std::nullopt;
    if (!r.range)
      r.range = fallbackRange();
    r.notes = c.notes;
    out.push_back(std::move(r));
  }
  if (out.empty()) {
    // A pass may fail without saying why; the record still names it.
    FailureRecord r;
    r.pipeline = pipeline.str();
    r.kind = kind;
    r.pass = failedPass.str();
    r.symbol = kernel.str();
    r.message = "pass '" + failedPass.str() + "' failed";
    r.range = fallbackRange();
    out.push_back(std::move(r));
  }
  return out;
}
