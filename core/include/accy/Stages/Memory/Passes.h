//===- Passes.h - Passes and pipeline of the memory stage -------*- C++ -*-===//
//
// One-shot bufferization and the buffer plan.
// The pipeline `accy-choir-memory` is registered for accy-opt; drivers build
// it per kernel module with buildMemoryPipeline.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_STAGES_MEMORY_PASSES_H
#define ACCY_STAGES_MEMORY_PASSES_H

#include "accy/Target/TargetProfile.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

#include <memory>
#include <string>

namespace accy::memory {

#define GEN_PASS_DECL
#include "accy/Stages/Memory/Passes.h.inc"

struct MemoryPipelineOptions
    : public mlir::PassPipelineOptions<MemoryPipelineOptions> {
  Option<unsigned> argumentAlignment{
      *this, "argument-alignment",
      llvm::cl::desc("Alignment in bytes asserted on arguments"),
      llvm::cl::init(16)};
  Option<unsigned> bufferAlignment{
      *this, "buffer-alignment",
      llvm::cl::desc("Alignment in bytes of intermediate buffers"),
      llvm::cl::init(64)};
};

/// Adds the memory stage to `pm`, which must be anchored on one kernel
/// module (a `builtin.module` with `accy.kernel`).
void buildMemoryPipeline(mlir::OpPassManager &pm,
                     const MemoryPipelineOptions &options);

/// Registers `accy-choir-memory`. Given a file's top-level module, the
/// registered pipeline runs the stage on each kernel module nested in it.
void registerMemoryPipeline();

#define GEN_PASS_REGISTRATION
#include "accy/Stages/Memory/Passes.h.inc"

} // namespace accy::memory

#endif // ACCY_STAGES_MEMORY_PASSES_H
