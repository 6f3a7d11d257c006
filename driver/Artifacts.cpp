//===- Artifacts.cpp - Target artifacts as files --------------------------===//

#include "Outputs.h"

#include "accy/Target/Artifacts.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

using namespace accy;
using namespace accy::driver;

llvm::Error accy::driver::writeTargetArtifacts(
    mlir::ModuleOp targetProduct, llvm::StringRef dir, llvm::StringRef name,
    llvm::function_ref<void(llvm::StringRef, llvm::StringRef)> onWritten) {
  std::vector<mlir::ModuleOp> kernels = target::getKernelModules(targetProduct);
  if (kernels.empty())
    return llvm::Error::success();
  auto artifacts = target::linkFileArtifacts(kernels, name);
  if (!artifacts)
    return artifacts.takeError();
  if (llvm::Error err = target::writeArtifacts(*artifacts, dir, name))
    return err;
  if (onWritten)
    for (const target::Artifact &artifact : *artifacts) {
      llvm::SmallString<256> path(dir);
      llvm::sys::path::append(path, artifact.fileName(name));
      onWritten(path, artifact.bytes);
    }
  return llvm::Error::success();
}

void accy::driver::removeTargetArtifacts(llvm::StringRef dir,
                                         llvm::StringRef name,
                                         llvm::ArrayRef<std::string> targets) {
  for (const std::string &t : targets) {
    auto profile = target::lookupTargetProfile(t);
    if (!profile) {
      llvm::consumeError(profile.takeError());
      continue;
    }
    target::Artifact artifact{t, profile->artifactKind(), ""};
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, artifact.fileName(name));
    removeStale(path);
  }
}
