//===- FileWriting.cpp - Outputs replaced whole or not at all -------------===//

#include "accy/Support/FileWriting.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <cstdlib>

using namespace accy;

static llvm::Error fileError(const llvm::Twine &path, const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 path + ": " + what);
}

/// The fault-injection hook of writeFileIfChanged (ACCY_TEST_KILL_WRITING):
/// writes half of `bytes` and dies as a killed compiler would.
static void killHalfwayIfAsked(llvm::StringRef path, llvm::raw_fd_ostream &os,
                               llvm::StringRef bytes) {
#ifdef SIGKILL
  const char *victim = std::getenv("ACCY_TEST_KILL_WRITING");
  if (!victim || llvm::sys::path::filename(path) != victim)
    return;
  os << bytes.take_front(bytes.size() / 2);
  os.flush();
  std::raise(SIGKILL);
#else
  (void)path, (void)os, (void)bytes;
#endif
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
  // Its name is unique, so two builds writing the same file at once never
  // write into each other's temporary.
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(
          path + ".tmp-%%%%%%%%", fd, temp))
    return fileError(path, "cannot create a temporary file beside it: " +
                               ec.message());
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    killHalfwayIfAsked(path, os, bytes);
    os << bytes;
    os.close();
    if (os.has_error()) {
      std::string why = os.error().message();
      os.clear_error();
      llvm::sys::fs::remove(temp);
      return fileError(path, "cannot write: " + why);
    }
  }
  // A replaced file keeps its mode (accy-format -i rewrites users' sources).
  llvm::sys::fs::file_status target;
  if (!llvm::sys::fs::status(path, target) && llvm::sys::fs::exists(target))
    llvm::sys::fs::setPermissions(temp, target.permissions());
  if (std::error_code ec = llvm::sys::fs::rename(temp, path)) {
    llvm::sys::fs::remove(temp);
    return fileError(path, "cannot replace: " + ec.message());
  }
  return true;
}
