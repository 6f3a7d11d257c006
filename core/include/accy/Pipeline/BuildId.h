//===- BuildId.h - The identity of this build of the compiler ---*- C++ -*-===//
#ifndef ACCY_PIPELINE_BUILDID_H
#define ACCY_PIPELINE_BUILDID_H

#include <string>

namespace accy {

/// Identifies the compiler that is running: its version, the LLVM/MLIR it
/// links, and the linker's build id of the running executable (a hash of its
/// bytes; where there is none, a hash computed here), so any rebuilt compiler
/// (even one configured from the same revision) has a new id and never
/// reuses an older compiler's products. Computed once per process.
const std::string &compilerBuildId();

} // namespace accy

#endif // ACCY_PIPELINE_BUILDID_H
