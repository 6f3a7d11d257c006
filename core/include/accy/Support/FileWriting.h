//===- FileWriting.h - Outputs replaced whole or not at all -----*- C++ -*-===//
#ifndef ACCY_SUPPORT_FILEWRITING_H
#define ACCY_SUPPORT_FILEWRITING_H

#include "llvm/Support/Error.h"

namespace accy {

/// Writes `bytes` to `path` only when the file's bytes differ: a temporary
/// file of a unique name in the same directory, compared, then renamed over
/// the target. An unchanged file keeps its timestamp (so Ninja's restat
/// stops there). A write that fails (a full disk, a file size limit, a
/// read-only directory) is an error naming the file and leaves the target
/// as it was and no temporary file. Returns true when the file was written.
///
/// Test hook: with ACCY_TEST_KILL_WRITING=NAME in the environment, the
/// process kills itself with SIGKILL halfway through writing the temporary
/// file of an output whose file name is NAME (docs/cmake.md, "Faults").
llvm::Expected<bool> writeFileIfChanged(llvm::StringRef path,
                                        llvm::StringRef bytes);

} // namespace accy

#endif // ACCY_SUPPORT_FILEWRITING_H
