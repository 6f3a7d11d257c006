//===- FuzzContext.h - The MLIR context the pipeline fuzzers share -*- C++ -*-===//
#ifndef ACCY_FUZZ_FUZZCONTEXT_H
#define ACCY_FUZZ_FUZZCONTEXT_H

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace accy::fuzz {

/// One context for the whole fuzzing process, with Accy's dialects, no
/// threads (runs are reproducible) and diagnostics that print nothing
/// unless a handler captures them. Types and attributes it uniques stay
/// reachable, so they are not leaks.
mlir::MLIRContext &context();

/// Every target profile the compiler knows.
inline constexpr const char *kAllTargets[] = {"host", "sm_80", "sm_90",
                                              "gfx90a", "gfx942"};

} // namespace accy::fuzz

#endif // ACCY_FUZZ_FUZZCONTEXT_H
