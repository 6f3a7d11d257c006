//===- BuildId.cpp - The identity of this build of the compiler -----------===//

#include "accy/Pipeline/BuildId.h"

#include "accy/Config.h"

#include "llvm/Config/llvm-config.h"

/// The marker before the hash lets a test make a copy of a tool that says
/// it is another build (tests/lit/driver/Inputs/other-build-id.py).
static const char kCoreBuildId[] = "accy-core-build-id:"
#include "CoreBuildId.inc"
    ;

const std::string &accy::compilerBuildId() {
  static const std::string id =
      std::string("accy-") + ACCY_VERSION + "-llvm-" + LLVM_VERSION_STRING +
      "-" + (kCoreBuildId + sizeof("accy-core-build-id:") - 1);
  return id;
}
