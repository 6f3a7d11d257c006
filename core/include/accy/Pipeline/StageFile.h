//===- StageFile.h - Stage files on disk ------------------------*- C++ -*-===//
#ifndef ACCY_PIPELINE_STAGEFILE_H
#define ACCY_PIPELINE_STAGEFILE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

namespace accy {

/// Writes `bytes` to `path` only when the file's bytes differ: a temporary
/// file in the same directory, compared, then renamed over the target. An
/// unchanged file keeps its timestamp (so Ninja's restat stops there).
/// Returns true when the file was written.
llvm::Expected<bool> writeFileIfChanged(llvm::StringRef path,
                                        llvm::StringRef bytes);

/// Reads a stage file (MLIR bytecode or text) into a module. Corrupt or
/// truncated files give an error naming the file, never a crash.
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
readProductFile(mlir::MLIRContext &context, llvm::StringRef path);

/// The file name of a stage file: `DIR/NAME.STAGE.mlirbc`.
std::string stageFilePath(llvm::StringRef dir, llvm::StringRef name,
                          llvm::StringRef stage);

} // namespace accy

#endif // ACCY_PIPELINE_STAGEFILE_H
