//===- BuildState.cpp - What an earlier accyc build left behind -----------===//

#include "BuildState.h"

#include "accy/Pipeline/Hashing.h"
#include "accy/Pipeline/Product.h"
#include "accy/Pipeline/StageFile.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace accy;
using namespace accy::driver;
namespace json = llvm::json;

BuildState BuildState::load(llvm::StringRef path) {
  BuildState state;
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return state;
  auto parsed = json::parse((*buffer)->getBuffer());
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return state;
  }
  const json::Object *root = parsed->getAsObject();
  const json::Object *files = root ? root->getObject("files") : nullptr;
  if (!files)
    return state;
  for (const auto &[file, hash] : *files)
    if (auto h = hash.getAsString())
      state.fileHashes[file.str()] = h->str();
  return state;
}

unsigned BuildState::seedCache(mlir::MLIRContext &context, ProductCache &cache,
                               llvm::StringRef dir,
                               llvm::StringRef name) const {
  unsigned seeded = 0;
  for (StageId stage : kAllStages) {
    std::string path = stageFilePath(dir, name, stageName(stage));
    auto expected = fileHashes.find(llvm::sys::path::filename(path));
    if (expected == fileHashes.end())
      continue;
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
    if (!buffer || contentHash((*buffer)->getBuffer()) != expected->second)
      continue; // changed or corrupt on disk: rebuilt, never trusted
    auto product = readProductFile(context, path);
    if (!product) {
      llvm::consumeError(product.takeError());
      continue;
    }
    if (llvm::Error err = verifyProduct(**product, stage)) {
      llvm::consumeError(std::move(err));
      continue;
    }
    for (mlir::ModuleOp kernel : kernelModules(**product)) {
      cache.store(kernelKey(kernel), kernel);
      ++seeded;
    }
  }
  return seeded;
}

void BuildState::recordFile(llvm::StringRef file, llvm::StringRef bytes) {
  fileHashes[llvm::sys::path::filename(file)] = contentHash(bytes);
}

llvm::Error BuildState::save(llvm::StringRef path,
                             const Compilation &c) const {
  json::Object files;
  for (const auto &entry : fileHashes)
    files[entry.getKey()] = entry.getValue();
  json::Array stages;
  for (StageId stage : kAllStages) {
    const StageRecord &r = c.record(stage);
    json::Array kernels;
    for (const KernelStageRecord &k : r.kernels)
      kernels.push_back(json::Object{{"kernel", k.kernel},
                                     {"key", k.key},
                                     {"fingerprint", fingerprintHex(k.fingerprint)},
                                     {"status", stageStatusName(k.status)}});
    stages.push_back(json::Object{
        {"stage", stageName(stage)},
        {"status", stageStatusName(r.status)},
        {"seconds", r.seconds},
        {"pass_runs", r.stats.passRuns},
        {"fingerprint", fingerprintHex(r.fingerprint)},
        {"key", r.key},
        {"kernels", std::move(kernels)}});
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", json::Value(json::Object{
                                   {"version", 1},
                                   {"files", std::move(files)},
                                   {"stages", std::move(stages)}}))
     << "\n";
  return writeFileIfChanged(path, text).takeError();
}
