//===- Outputs.h - Files accyc reads and writes ---------------------------*- C++ -*-===//
//
// Every output is written only when its bytes change (temporary file and
// atomic rename), and a failed stage removes its own output and every later
// one, so a build system never takes a stale file as up to date.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_DRIVER_OUTPUTS_H
#define ACCY_DRIVER_OUTPUTS_H

#include "accy/Pipeline/Compiler.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <string>

namespace accy::driver {

/// NAME for FILE.accy or NAME.STAGE.mlirbc.
std::string outputName(llvm::StringRef input);

/// The source map beside a semantic stage file (`NAME.srcmap.json`).
std::string sourceMapPath(llvm::StringRef stageFile);

/// Reads a stage file of `stage` and compiles on from it; the source map
/// beside it, when there is one, maps failures back to the source.
llvm::Expected<Compilation> compileFromStageFile(Compiler &compiler,
                                                 mlir::MLIRContext &context,
                                                 llvm::StringRef path,
                                                 StageId stage);

/// What the target step needs to also write NAME.accy.h, NAME.accy.cpp and,
/// for a file with a GPU target, NAME.images.o (accy/CodeGen/Embedding.h):
/// the kernel product's kernels, whose entries carry their signatures, and
/// the namespace of the launch functions.
struct EmbeddingRequest {
  llvm::SmallVector<mlir::ModuleOp> kernels;
  std::string cppNamespace;
};

/// Writes the target artifacts (NAME.sm_90.ptx, NAME.gfx942.hsaco,
/// NAME.host.o: one per target, holding every kernel of the file) of the
/// kernels of a target product into `dir`, and with `embedding`
/// NAME.accy.h/.cpp and NAME.images.o, each only when its bytes changed.
/// Calls `onWritten` with each artifact's path and bytes. The kernels are
/// read where they are (Compilation::kernels), not copied into a whole
/// product.
using OnWritten = llvm::function_ref<void(llvm::StringRef, llvm::StringRef)>;
llvm::Error writeTargetArtifacts(llvm::ArrayRef<mlir::ModuleOp> kernels,
                                 llvm::StringRef dir, llvm::StringRef name,
                                 OnWritten onWritten = {},
                                 const EmbeddingRequest *embedding = nullptr);

/// Removes the artifacts of `targets` and the generated launch functions
/// from `dir` (after a failed build).
void removeTargetArtifacts(llvm::StringRef dir, llvm::StringRef name,
                           llvm::ArrayRef<std::string> targets);

/// Writes a build system depfile: `target: dep dep ...`.
llvm::Error writeDepfile(llvm::StringRef path, llvm::StringRef target,
                         llvm::ArrayRef<std::string> deps);

/// Removes `path` if it exists (a stale output).
void removeStale(llvm::StringRef path);

} // namespace accy::driver

#endif // ACCY_DRIVER_OUTPUTS_H
