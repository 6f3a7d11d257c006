//===- BuildState.cpp - What an earlier accyc build left behind -----------===//

#include "BuildState.h"

#include "accy/Pipeline/Hashing.h"
#include "accy/Pipeline/Product.h"
#include "accy/Pipeline/StageFile.h"

#include "llvm/ADT/SmallString.h"
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
  const json::Array *stages = root ? root->getArray("stages") : nullptr;
  if (!files || !stages || stages->size() != kNumStages)
    return state;
  for (const auto &[file, hash] : *files)
    if (auto h = hash.getAsString())
      state.fileHashes[file.str()] = h->str();
  state.complete = true;
  for (auto [index, value] : llvm::enumerate(*stages)) {
    StageRecord &record = state.stages[index];
    record.stage = kAllStages[index];
    const json::Object *stage = value.getAsObject();
    if (!stage) {
      state.complete = false;
      continue;
    }
    record.key = stage->getString("key").value_or("").str();
    record.stats.passRuns = stage->getInteger("pass_runs").value_or(0);
    auto fingerprint = stage->getString("fingerprint").value_or("0");
    fingerprint.getAsInteger(16, record.fingerprint);
    if (stage->getString("status").value_or("") != "compiled" &&
        stage->getString("status").value_or("") != "reused")
      state.complete = false;
    if (const json::Array *kernels = stage->getArray("kernels"))
      for (const json::Value &k : *kernels) {
        const json::Object *o = k.getAsObject();
        if (!o)
          continue;
        KernelStageRecord kr;
        kr.kernel = o->getString("kernel").value_or("").str();
        kr.key = o->getString("key").value_or("").str();
        kr.inputHash = o->getString("input_hash").value_or("").str();
        o->getString("fingerprint").value_or("0").getAsInteger(16, kr.fingerprint);
        kr.status = StageStatus::Reused;
        record.kernels.push_back(std::move(kr));
      }
  }
  return state;
}

bool BuildState::isUpToDate(const Compilation &semantic,
                            const StageOptions &options,
                            llvm::StringRef dir) const {
  mlir::ModuleOp product = semantic.product(StageId::Semantic);
  if (!complete || !product)
    return false;
  // The first link: the semantic products are the contract stage's inputs.
  const std::vector<KernelStageRecord> &contract =
      stages[stageIndex(StageId::Contract)].kernels;
  llvm::SmallVector<mlir::ModuleOp> kernels = kernelModules(product);
  if (kernels.size() != contract.size())
    return false;
  for (auto [kernel, recorded] : llvm::zip(kernels, contract))
    if (kernelName(kernel) != recorded.kernel ||
        contentHash(productBytes(kernel)) != recorded.inputHash)
      return false;
  // Every later key must be the one this compiler and these options make.
  for (StageId stage : kAllStages) {
    if (stage == StageId::Semantic)
      continue;
    std::string stageOptions = options.canonicalText(stage);
    for (const KernelStageRecord &k : stages[stageIndex(stage)].kernels)
      if (computeProductKey({stage, options.buildId, stageOptions,
                             k.inputHash}) != k.key)
        return false;
  }
  // And every file must still hold what the build wrote.
  for (const auto &entry : fileHashes) {
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, entry.getKey());
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
    if (!buffer || contentHash((*buffer)->getBuffer()) != entry.getValue())
      return false;
  }
  return true;
}

std::array<StageRecord, kNumStages> BuildState::reusedRecords() const {
  std::array<StageRecord, kNumStages> records = stages;
  for (StageRecord &r : records) {
    r.status = StageStatus::Reused;
    r.stats = PassStatistics(); // nothing ran
  }
  return records;
}

unsigned BuildState::seedCache(mlir::MLIRContext &context, Compiler &compiler,
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
      kernel->remove(); // the cache owns it from here
      compiler.cache(stage).store(kernelKey(kernel), shareKernel(kernel));
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
                                     {"input_hash", k.inputHash},
                                     {"fingerprint", fingerprintHex(k.fingerprint)},
                                     {"status", k.statusName()}});
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
