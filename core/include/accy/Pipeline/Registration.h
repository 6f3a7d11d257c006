//===- Registration.h - Dialects and passes the core uses -------*- C++ -*-===//
//
// One place that names every dialect, interface model and pass the Accy core
// needs. Binaries register exactly this set and nothing else: start-up time is
// a feature (no InitAllDialects.h).
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_PIPELINE_REGISTRATION_H
#define ACCY_PIPELINE_REGISTRATION_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace accy {

/// Adds the dialects of all seven stages and the external interface models
/// (bufferization, translation to LLVM IR) they rely on.
void registerAccyDialects(mlir::DialectRegistry &registry);

/// Registers every Accy pass and stage pipeline, and the upstream passes the
/// pipelines are made of, with the global pass registry (for accy-opt and
/// textual pipelines). Defined in the AccyPassRegistry library, which only
/// tools that parse textual pipelines link.
void registerAccyPasses();

} // namespace accy

#endif // ACCY_PIPELINE_REGISTRATION_H
