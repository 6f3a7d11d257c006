//===- JoinCode.cpp - One artifact from code generated apart --------------===//
//
// Code is generated in pieces that run on threads of their own: a kernel's
// entries, a file's kernels. Joining them costs far less than generating
// their code again: PTX merges as text, host objects and AMDGPU relocatable
// objects link. Only PTX that does not merge (two pieces declare one
// symbol differently) is generated again, from the pieces' bitcode linked.
//
//===----------------------------------------------------------------------===//

#include "accy/CodeGen/CodeGen.h"

#include "PTXMerge.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

using namespace accy::codegen;
using namespace accy;

llvm::Expected<std::string> accy::codegen::joinCode(
    const TargetProfile &profile, llvm::ArrayRef<llvm::StringRef> linkables,
    llvm::ArrayRef<llvm::StringRef> codes, llvm::StringRef name) {
  // One piece's PTX or host object is the artifact; an AMDGPU object loads
  // only once linked into a code object.
  if (codes.size() == 1 && profile.kind != TargetKind::AMDGPU)
    return codes.front().str();
  switch (profile.kind) {
  case TargetKind::Host:
    return linkHostObjects(codes);
  case TargetKind::AMDGPU:
    return linkCodeObjects(linkables);
  case TargetKind::NVPTX:
    if (std::optional<std::string> merged = mergePTX(codes))
      return std::move(*merged);
    break;
  }
  llvm::LLVMContext context;
  auto module = linkBitcode(context, linkables, name);
  if (!module)
    return module.takeError();
  (*module)->setSourceFileName(name);
  return emitArtifact(**module, profile);
}
