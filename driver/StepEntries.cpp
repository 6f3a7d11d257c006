//===- StepEntries.cpp - Stage steps kept whole in the kernel store -------===//

#include "StepEntries.h"

#include "Commands.h"
#include "Outputs.h"
#include "Report.h"

#include "accy/Pipeline/BuildId.h"
#include "accy/Pipeline/KernelStore.h"
#include "accy/Support/CrashContainment.h"
#include "accy/Support/FileWriting.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <chrono>

using namespace accy;
using namespace accy::driver;

std::optional<std::string> accy::driver::stepKey(const Options &options,
                                                 StageId stage,
                                                 llvm::StringRef name,
                                                 llvm::StringRef input) {
  if (!hasStepEntries(stage) || injectedFault())
    return std::nullopt;
  return computeStepKey({stage, compilerBuildId(), name, options.targets,
                         options.cppNamespace, input});
}

std::optional<std::string> accy::driver::stepOutputName(const Options &options) {
  std::string name = outputName(options.output);
  if (!options.stage ||
      llvm::sys::path::filename(options.output) !=
          name + "." + stageName(*options.stage).str() + ".mlirbc")
    return std::nullopt;
  return name;
}

bool accy::driver::runStepFromEntry(const Options &options) {
  auto start = std::chrono::steady_clock::now();
  StageId stage = *options.stage;
  // The configuration main() would use: one it rejects is not served.
  auto config = storeConfigFor(options);
  if (!config) {
    llvm::consumeError(config.takeError());
    return false;
  }
  std::optional<std::string> name = stepOutputName(options);
  auto input = llvm::MemoryBuffer::getFile(options.inputs.front(),
                                           /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
  if (!*config || !name || !input)
    return false;
  std::optional<std::string> key =
      stepKey(options, stage, *name, (*input)->getBuffer());
  if (!key)
    return false;
  std::string entryFile = stepEntryPath((*config)->directory, *key);
  std::optional<StepEntry> entry = readStepEntry(entryFile, *key);
  if (!entry)
    return false;

  llvm::StringRef dir = llvm::sys::path::parent_path(options.output);
  auto pathOf = [&](llvm::StringRef suffix) {
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, *name + suffix);
    return std::string(path);
  };
  bool withImages = false;
  for (const StepFile &file : entry->files) {
    withImages |= file.suffix == ".images.o";
    if (auto written = writeFileIfChanged(pathOf(file.suffix), file.bytes);
        !written) {
      llvm::consumeError(written.takeError());
      return false;
    }
  }
  // As the step itself does: a file without GPU targets has no images,
  // and none is left from a build for other targets.
  if (stage == StageId::Target && !withImages)
    removeStale(pathOf(".images.o"));

  if (!options.recordFile.empty()) {
    StageRecord record;
    record.stage = stage;
    record.status = StageStatus::Reused;
    record.seconds = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - start)
                         .count();
    record.kernels.resize(entry->kernels);
    for (KernelStageRecord &kernel : record.kernels) {
      kernel.status = StageStatus::Reused;
      kernel.fromStore = true;
    }
    if (auto written =
            writeFileIfChanged(options.recordFile, stageRecordJson(record));
        !written)
      llvm::consumeError(written.takeError()); // for people: fails nothing
  }
  KernelStore::markUsed(entryFile);
  KernelStore::countServedStep(**config);
  return true;
}

void accy::driver::prefetchStepEntries(KernelStore &store,
                                       const Options &options,
                                       llvm::StringRef semanticFile) {
  std::string name = outputName(options.output);
  std::string input = semanticFile.str();
  for (std::optional<StageId> stage = nextStage(StageId::Semantic); stage;
       stage = nextStage(*stage)) {
    std::optional<std::string> key = stepKey(options, *stage, name, input);
    if (!key)
      return;
    std::optional<StepEntry> entry = store.loadStep(*key);
    if (!entry)
      return;
    input = std::move(entry->files.back().bytes);
  }
}
