//===- StageFile.cpp - Stage files on disk --------------------------------===//

#include "accy/Pipeline/StageFile.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace accy;

static llvm::Error fileError(const llvm::Twine &path, const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 path + ": " + what);
}

llvm::Expected<bool> accy::writeFileIfChanged(llvm::StringRef path,
                                              llvm::StringRef bytes) {
  if (auto existing = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                                  /*RequiresNullTerminator=*/false))
    if ((*existing)->getBuffer() == bytes)
      return false;

  llvm::StringRef dir = llvm::sys::path::parent_path(path);
  if (!dir.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(dir))
      return fileError(dir, "cannot create directory: " + ec.message());

  // The temporary file lives beside the target so the rename is atomic; a
  // process killed before the rename leaves only the temporary behind.
  llvm::SmallString<256> temp;
  int fd;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(
          path + ".tmp-%%%%%%%%", fd, temp))
    return fileError(path, "cannot create a temporary file: " + ec.message());
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << bytes;
    os.close();
    if (os.has_error()) {
      std::string why = os.error().message();
      os.clear_error();
      llvm::sys::fs::remove(temp);
      return fileError(path, "cannot write: " + why);
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(temp, path)) {
    llvm::sys::fs::remove(temp);
    return fileError(path, "cannot replace: " + ec.message());
  }
  return true;
}

llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
accy::readProductFile(mlir::MLIRContext &context, llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buffer)
    return fileError(path, "cannot read: " + buffer.getError().message());
  if ((*buffer)->getBufferSize() == 0)
    return fileError(path, "empty stage file (an interrupted write?)");
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  std::string errors;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &diag) {
    if (diag.getSeverity() == mlir::DiagnosticSeverity::Error)
      errors += (errors.empty() ? "" : "; ") + diag.str();
    return mlir::success();
  });
  mlir::ParserConfig config(&context);
  auto module = mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, config);
  if (!module)
    return fileError(path, "not a valid stage file" +
                               (errors.empty() ? "" : ": " + errors));
  return std::move(module);
}

std::string accy::stageFilePath(llvm::StringRef dir, llvm::StringRef name,
                                llvm::StringRef stage) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, name + "." + stage + ".mlirbc");
  return std::string(path);
}
