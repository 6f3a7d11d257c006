//===- StageCommand.cpp - accyc stage -------------------------------------===//
//
// One stage as one build step: exactly one input (the source, or the
// previous stage's file) and one output file, written only when it changed.
// On failure the output is removed, so no build system sees it up to date.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "Outputs.h"
#include "Report.h"
#include "StepEntries.h"

#include "accy/Pipeline/KernelStore.h"
#include "accy/Pipeline/StageFile.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace accy;
using namespace accy::driver;

static Compilation compileOneStage(mlir::MLIRContext &context,
                                   const Options &options, StageId stage,
                                   std::string &readError) {
  CompileOptions co = compileOptionsFor(options);
  co.stopAfter = stage;
  // The next stages run in processes of their own (one Ninja step each):
  // what a remote serves for this one, it serves for them now, and they
  // need not load libcurl.
  co.stages.prefetchFollowingStages = true;
  Compiler compiler(context, co);
  const std::string &input = options.inputs.front();
  if (stage == StageId::Semantic)
    return compiler.compileFile(input);

  auto c = compileFromStageFile(compiler, context, input,
                                *previousStage(stage));
  if (!c) {
    llvm::handleAllErrors(
        c.takeError(),
        [&](const CorruptStageFileError &corrupt) {
          // The step that made the input would not run again (its own
          // inputs did not change), and every build would stop here: remove
          // the file, so the next build makes it again.
          removeStale(input);
          readError = corrupt.message() +
                      "; removed it, the next build makes it again";
        },
        [&](const llvm::ErrorInfoBase &other) {
          readError = other.message();
        });
    return Compilation();
  }
  return std::move(*c);
}

int accy::driver::runStageCommand(mlir::MLIRContext &context,
                                  const Options &options) {
  StageId stage = *options.stage;
  const std::string &output = options.output;
  std::string readError;
  Compilation c = compileOneStage(context, options, stage, readError);
  if (!readError.empty()) {
    removeStale(output);
    llvm::errs() << "accyc: " << readError << "\n";
    return ExitDiagnostics;
  }
  printDiagnostics(c, options);
  mlir::ModuleOp product = c.product(stage);
  if (!c.succeeded() || !product) {
    removeStale(output);
    return c.succeeded() ? ExitInternal : exitCodeFor(c);
  }

  auto fail = [&](llvm::Error err) {
    removeStale(output);
    llvm::errs() << "accyc: " << llvm::toString(std::move(err)) << "\n";
    return ExitInternal;
  };
  // The stage file is written last: a step killed or failing part way
  // leaves it as the previous run left it (or removed), older than its
  // input, so the step runs again. Make, which keeps no log, takes a step
  // with several outputs as done when its first output is new (CMake
  // touches the others): the target step's artifacts must not be older.
  llvm::StringRef dir = llvm::sys::path::parent_path(output);
  if (stage == StageId::Semantic) {
    if (auto written =
            writeFileIfChanged(sourceMapPath(output), c.sourceMap().toJson());
        !written)
      return fail(written.takeError());
    if (!options.depfile.empty()) {
      std::vector<std::string> deps = {options.inputs.front()};
      deps.insert(deps.end(), c.dependencies().begin(),
                  c.dependencies().end());
      llvm::StringRef target =
          options.depfileTarget.empty() ? output : options.depfileTarget;
      if (llvm::Error err = writeDepfile(options.depfile, target, deps))
        return fail(std::move(err));
    }
  }
  // The store keeps the step whole (StepEntries.h): each file it writes,
  // named after NAME. The semantic step keeps none; it brings its file's
  // later steps from the remote caches.
  std::string name = outputName(output);
  KernelStore *store = stepOutputName(options) ? options.store : nullptr;
  std::optional<std::string> key;
  if (store)
    if (auto input = llvm::MemoryBuffer::getFile(options.inputs.front()))
      key = stepKey(options, stage, name, (*input)->getBuffer());
  StepEntry entry;
  entry.kernels = c.record(stage).kernels.size();
  auto keep = [&](llvm::StringRef path, llvm::StringRef bytes) {
    llvm::StringRef file = llvm::sys::path::filename(path);
    entry.files.push_back({file.drop_front(name.size()).str(), bytes.str()});
  };
  if (stage == StageId::Target) {
    EmbeddingRequest embedding{c.kernels(StageId::Kernel),
                               options.cppNamespace};
    if (llvm::Error err = writeTargetArtifacts(
            c.kernels(StageId::Target), dir.empty() ? "." : dir, name,
            key ? OnWritten(keep) : OnWritten(), &embedding))
      return fail(std::move(err));
  }
  std::string stageFile = stageFileBytes(product);
  if (auto written = writeFileIfChanged(output, stageFile); !written)
    return fail(written.takeError());
  if (key) {
    keep(output, stageFile);
    store->saveStep(*key, encodeStepEntry(*key, entry));
  } else if (store && stage == StageId::Semantic && store->hasRemotes()) {
    prefetchStepEntries(*store, options, stageFile);
  }
  // The record is for people (scripts/stage-table.py): one that cannot be
  // written fails nothing.
  if (!options.recordFile.empty())
    if (auto written = writeFileIfChanged(options.recordFile,
                                          stageRecordJson(c.record(stage)));
        !written)
      llvm::errs() << "accyc: warning: " << llvm::toString(written.takeError())
                   << "\n";
  printReports(llvm::outs(), c.records(), options);
  keepUntilExit(std::move(c));
  return ExitOk;
}
