//===- StageFile.h - Stage files on disk ------------------------*- C++ -*-===//
#ifndef ACCY_PIPELINE_STAGEFILE_H
#define ACCY_PIPELINE_STAGEFILE_H

#include "accy/Support/FileWriting.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

namespace accy {

/// The bytes of a stage file holding `product`: its MLIR bytecode (as
/// productBytes writes it) whose header's producer string carries a
/// checksum, `accy xxh3:<32 hex digits>`, the content hash of every other
/// byte of the file. Any MLIR tool reads it; readProductFile checks it.
/// Equal products give equal bytes.
std::string stageFileBytes(mlir::Operation *product);

/// A stage file that is not what accyc wrote: its checksum does not match
/// its bytes (changed or damaged on disk after it was written), or it is
/// empty. Nothing built from it can be trusted; the file must be made again.
class CorruptStageFileError : public llvm::ErrorInfo<CorruptStageFileError> {
public:
  static char ID;
  CorruptStageFileError(std::string path, std::string why)
      : path(std::move(path)), why(std::move(why)) {}
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  std::string path;
  std::string why;
};

/// Reads a stage file (MLIR bytecode or text) into a module. A file with a
/// checksum (stageFileBytes) is checked first: a mismatch is a
/// CorruptStageFileError. Other bad files (truncated, not MLIR) give an
/// error naming the file, never a crash. Bytecode without a checksum (older
/// accyc, other MLIR tools) and MLIR text are refused: MLIR's readers crash
/// on some damaged input, so they only see bytes accyc wrote. The product
/// is not verified: accyc verified it when it made it, and the engine
/// verifies a kernel again before a pass works on it.
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
readProductFile(mlir::MLIRContext &context, llvm::StringRef path);

/// The file name of a stage file: `DIR/NAME.STAGE.mlirbc`.
std::string stageFilePath(llvm::StringRef dir, llvm::StringRef name,
                          llvm::StringRef stage);

} // namespace accy

#endif // ACCY_PIPELINE_STAGEFILE_H
