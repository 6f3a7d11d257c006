//===- BuildId.h - The identity of this build of the compiler ---*- C++ -*-===//
#ifndef ACCY_PIPELINE_BUILDID_H
#define ACCY_PIPELINE_BUILDID_H

#include <string>

namespace accy {

/// Identifies the compiler that is running: its version, the LLVM/MLIR it
/// links, and a hash of the core libraries that make products, taken when
/// they were built (core/lib/BuildId). Every tool built from the same core
/// (accyc, accy-lsp) has the same id, so they share the kernel store; any
/// change to the core is a new id, which never reuses an older compiler's
/// products.
const std::string &compilerBuildId();

} // namespace accy

#endif // ACCY_PIPELINE_BUILDID_H
