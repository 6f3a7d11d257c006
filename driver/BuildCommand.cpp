//===- BuildCommand.cpp - accyc build -------------------------------------===//
//
// Runs every stage in one process, reusing kernel products by key from the
// stage files an earlier build left (when their bytes are still what that
// build wrote), and writes each output only when it changed.
//
//===----------------------------------------------------------------------===//

#include "BuildState.h"
#include "Commands.h"
#include "Outputs.h"
#include "Report.h"

#include "accy/CodeGen/CodeGen.h"
#include "accy/Pipeline/BuildId.h"
#include "accy/Pipeline/Hashing.h"
#include "accy/Pipeline/Product.h"
#include "accy/Pipeline/StageFile.h"
#include "accy/Support/CallerAndPool.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TimeProfiler.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <optional>
#include <thread>

using namespace accy;
using namespace accy::driver;

int accy::driver::exitCodeFor(const Compilation &c) {
  if (c.succeeded())
    return ExitOk;
  for (const FailureRecord &r : c.failures())
    if (r.kind == FailureKind::Internal)
      return ExitInternal;
  return ExitDiagnostics;
}

CompileOptions accy::driver::compileOptionsFor(const Options &options) {
  CompileOptions co;
  co.includeDirs = options.includeDirs;
  co.stages.targets = options.targets;
  co.stages.buildId = compilerBuildId();
  co.stages.countModifyingPasses = options.stats;
  co.stages.collectPassTimings = options.timing && options.stats;
  co.stages.verifyEachPass = options.verifyEach;
  co.stages.store = options.store;
  co.stopAfter = options.compileTo.value_or(StageId::Target);
  co.pipelineKernels = true;
  return co;
}

static std::string pathIn(llvm::StringRef dir, const llvm::Twine &file) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, file);
  return std::string(path);
}

/// Writes the products of `c` into `dir` and removes the files of stages
/// that did not produce one. Every output is made and written on the
/// calling thread and the context's threads, the target artifacts (the
/// file's PTX and objects linked, the launch code and embedded images)
/// beside the stage files, each of which copies and serializes its stage's
/// product: one after another they kept one thread busy at the end of a
/// cold build while the others idled (docs/internals.md, "Incremental
/// builds on disk").
static llvm::Error writeOutputs(mlir::MLIRContext &context,
                                const Compilation &c, llvm::StringRef dir,
                                llvm::StringRef name, const Options &options,
                                BuildState &state) {
  // What each task wrote, recorded in the build state after them all.
  struct Written {
    std::vector<std::pair<std::string, std::string>> files; // path, bytes
    std::vector<std::string> removed;
    std::optional<std::string> error;
  };
  std::array<Written, kNumStages + 1> written;
  auto write = [](Written &out, std::string path, std::string bytes) {
    if (auto result = writeFileIfChanged(path, bytes); !result)
      out.error = llvm::toString(result.takeError());
    else
      out.files.emplace_back(std::move(path), std::move(bytes));
  };
  // The artifacts (task 0; with several targets the longest), then the
  // stage files, the largest first.
  auto writeArtifacts = [&](Written &out) {
    write(out, pathIn(dir, name + ".srcmap.json"), c.sourceMap().toJson());
    if (!c.hasProduct(StageId::Target)) {
      removeTargetArtifacts(dir, name, options.targets);
      return;
    }
    // The launch functions and embedded images, for a file with kernels (a
    // file of fns and consts only is compiled to check it, and imported).
    llvm::SmallVector<mlir::ModuleOp> kernels = c.kernels(StageId::Target);
    EmbeddingRequest embedding{c.kernels(StageId::Kernel),
                               options.cppNamespace};
    if (llvm::Error err = writeTargetArtifacts(
            kernels, dir, name,
            [&](llvm::StringRef path, llvm::StringRef bytes) {
              out.files.emplace_back(path.str(), bytes.str());
            },
            kernels.empty() ? nullptr : &embedding))
      out.error = llvm::toString(std::move(err));
  };
  forEachOnCallerAndPool(
      context.getThreadPool(), kNumStages + 1, [&](size_t index) {
        if (index == 0)
          return writeArtifacts(written[0]);
        // The largest first: the kernel stage's file (every kernel's loops and
        // variants) takes longer than the target stage's (mostly code bytes).
        static constexpr std::array<StageId, kNumStages> bySize = {
            StageId::Kernel,   StageId::Target, StageId::Memory,
            StageId::Dispatch, StageId::Tensor, StageId::Contract,
            StageId::Semantic};
        StageId stage = bySize[index - 1];
        std::string path = stageFilePath(dir, name, stageName(stage));
        if (mlir::ModuleOp product = c.product(stage))
          write(written[index], path, stageFileBytes(product));
        else {
          removeStale(path);
          written[index].removed.push_back(path);
        }
      });
  for (Written &out : written) {
    if (out.error)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     *out.error);
    for (const std::string &path : out.removed)
      state.forgetFile(path);
    for (const auto &[path, bytes] : out.files)
      state.recordFile(path, bytes);
  }
  return llvm::Error::success();
}

/// Makes the target machines code generation will lend to its threads,
/// one per thread, on a thread of their own: the frontend and the stages
/// before the target stage leave a core idle most of the time, where code
/// generation would make them on its threads (about half a millisecond
/// each; docs/internals.md, "Target machines").
static void prepareTargetMachines(mlir::MLIRContext &context,
                                  const Options &options) {
  std::vector<const TargetProfile *> profiles;
  for (const std::string &name : options.targets)
    if (auto profile = lookupTargetProfile(name))
      profiles.push_back(&*profile);
    else
      llvm::consumeError(profile.takeError()); // the compile reports it
  unsigned threads = context.isMultithreadingEnabled()
                         ? context.getThreadPool().getMaxConcurrency()
                         : 1;
  std::thread([profiles, threads] {
    codegen::prepareTargetMachines(profiles, threads);
  }).detach();
}

/// Builds `input`. The process ends after its last file (std::_Exit in
/// main), so with `leaveToExit` the file's products are left to the exit,
/// as the context is, instead of freeing thousands of ops one by one
/// (1.4 ms of a cold build of softmax.accy).
static int buildOne(mlir::MLIRContext &context, const Options &options,
                    const std::string &input, bool leaveToExit) {
  std::string dir = options.output.empty() ? "." : options.output;
  std::string name = outputName(input);
  std::string stampsPath = pathIn(dir, name + ".stamps.json");
  CompileOptions compileOptions = compileOptionsFor(options);
  BuildState state = BuildState::load(stampsPath);

  // Nothing to do when the semantic products still lead, key by key, to
  // the files the last build wrote: the common case of a no-change build.
  if (!options.compileFrom && compileOptions.stopAfter == StageId::Target &&
      state.isComplete()) {
    CompileOptions semanticOnly = compileOptions;
    semanticOnly.stopAfter = StageId::Semantic;
    Compiler probe(context, semanticOnly);
    Compilation semantic = probe.compileFile(input);
    if (semantic.succeeded() &&
        state.isUpToDate(semantic, compileOptions.stages, dir)) {
      printDiagnostics(semantic, options); // warnings
      if (auto written = writeFileIfChanged(pathIn(dir, name + ".srcmap.json"),
                                            semantic.sourceMap().toJson());
          !written) {
        llvm::errs() << "accyc: " << llvm::toString(written.takeError()) << "\n";
        return ExitInternal;
      }
      std::array<StageRecord, kNumStages> records = state.reusedRecords();
      records[stageIndex(StageId::Semantic)] =
          semantic.record(StageId::Semantic);
      printReports(llvm::outs(), records, options);
      return ExitOk;
    }
  }

  if (compileOptions.stopAfter == StageId::Target)
    prepareTargetMachines(context, options);
  Compiler compiler(context, compileOptions);
  Compilation c;
  if (options.compileFrom) {
    auto fromFile = compileFromStageFile(compiler, context, input,
                                         *options.compileFrom);
    if (!fromFile) {
      llvm::errs() << "accyc: " << llvm::toString(fromFile.takeError())
                   << "\n";
      return ExitDiagnostics;
    }
    c = std::move(*fromFile);
  } else {
    state.seedCache(context, compiler, dir, name);
    c = compiler.compileFile(input);
  }

  unsigned errors = printDiagnostics(c, options);
  if (!c.lastStage() && options.compileFrom)
    return errors ? ExitDiagnostics : ExitInternal;
  llvm::TimeTraceScope outputsScope("outputs", name);
  if (llvm::Error err = writeOutputs(context, c, dir, name, options, state)) {
    llvm::errs() << "accyc: " << llvm::toString(std::move(err)) << "\n";
    return ExitInternal;
  }
  if (llvm::Error err = state.save(stampsPath, c)) {
    llvm::errs() << "accyc: " << llvm::toString(std::move(err)) << "\n";
    return ExitInternal;
  }
  printReports(llvm::outs(), c.records(), options);
  int exitCode = exitCodeFor(c);
  if (leaveToExit)
    (void)new Compilation(std::move(c));
  return exitCode;
}

int accy::driver::runBuild(mlir::MLIRContext &context, const Options &options) {
  // Each file builds on its own; the worst outcome is the exit code.
  int worst = ExitOk;
  for (const std::string &input : options.inputs)
    worst = std::max(worst, buildOne(context, options, input,
                                     &input == &options.inputs.back()));
  return worst;
}
