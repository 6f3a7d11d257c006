//===- Artifacts.cpp - Target artifacts as files --------------------------===//

#include "Outputs.h"

#include "accy/CodeGen/Artifacts.h"
#include "accy/CodeGen/Embedding.h"
#include "accy/KernelModule/KernelModule.h"
#include "accy/Pipeline/StageFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

using namespace accy;
using namespace accy::driver;

static llvm::Error writeEmbedding(const EmbeddingRequest &request,
                                  llvm::ArrayRef<codegen::Artifact> artifacts,
                                  llvm::StringRef dir, llvm::StringRef name,
                                  OnWritten onWritten) {
  std::vector<codegen::KernelInterface> interfaces;
  for (mlir::ModuleOp kernel : request.kernels) {
    auto interface = codegen::readKernelInterface(kernel);
    if (!interface)
      return interface.takeError();
    interfaces.push_back(std::move(*interface));
  }
  auto sources = codegen::generateEmbedding(interfaces, artifacts,
                                            {name.str(), request.cppNamespace});
  if (!sources)
    return sources.takeError();
  for (auto [suffix, text] : {std::pair{".accy.h", &sources->header},
                              std::pair{".accy.cpp", &sources->source},
                              std::pair{".images.o", &sources->imageObject}}) {
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, name + suffix);
    // A file with no GPU target has no images: no object, and none left
    // from a build for other targets.
    if (text->empty() && llvm::StringRef(suffix) == ".images.o") {
      removeStale(path);
      continue;
    }
    if (auto written = writeFileIfChanged(path, *text); !written)
      return written.takeError();
    if (onWritten)
      onWritten(path, *text);
  }
  return llvm::Error::success();
}

llvm::Error
accy::driver::writeTargetArtifacts(llvm::ArrayRef<mlir::ModuleOp> kernels,
                                   llvm::StringRef dir, llvm::StringRef name,
                                   OnWritten onWritten,
                                   const EmbeddingRequest *embedding) {
  if (kernels.empty()) {
    if (!embedding)
      return llvm::Error::success();
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        name + ".accy has no kernel to embed (a file that only holds fns "
               "and consts is imported, not compiled on its own)");
  }
  auto artifacts = codegen::linkFileArtifacts(kernels, name);
  if (!artifacts)
    return artifacts.takeError();
  // Through writeFileIfChanged, like every other output: a temporary file
  // of a unique name (two builds of one tree at once write the same
  // artifact), write errors checked and reported, an atomic rename.
  for (const codegen::Artifact &artifact : *artifacts) {
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, artifact.fileName(name));
    if (auto written = writeFileIfChanged(path, artifact.bytes); !written)
      return written.takeError();
    if (onWritten)
      onWritten(path, artifact.bytes);
  }
  if (embedding)
    return writeEmbedding(*embedding, *artifacts, dir, name, onWritten);
  return llvm::Error::success();
}

void accy::driver::removeTargetArtifacts(llvm::StringRef dir,
                                         llvm::StringRef name,
                                         llvm::ArrayRef<std::string> targets) {
  for (const std::string &t : targets) {
    auto profile = lookupTargetProfile(t);
    if (!profile) {
      llvm::consumeError(profile.takeError());
      continue;
    }
    codegen::Artifact artifact{t, profile->artifactKind(), ""};
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, artifact.fileName(name));
    removeStale(path);
  }
  for (llvm::StringRef suffix : {".accy.h", ".accy.cpp", ".images.o"}) {
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, name + suffix);
    removeStale(path);
  }
}
