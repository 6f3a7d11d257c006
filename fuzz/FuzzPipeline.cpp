//===- FuzzPipeline.cpp - libFuzzer target: the whole pipeline ------------===//
//
// Inputs the frontend accepts are compiled through all seven stages for
// every target (host, sm_80, sm_90, gfx90a, gfx942), as `accyc build` does;
// every product is serialized as the stage files would be. A stage may fail
// with a failure record (that is a result); it must not crash, hang or leak.
// Inputs with frontend errors stop after the frontend (the frontend fuzzer
// covers those).
//
//===----------------------------------------------------------------------===//

#include "FuzzContext.h"

#include "accy/Pipeline/BuildId.h"
#include "accy/Pipeline/Compiler.h"
#include "accy/Pipeline/Hashing.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace accy;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // Kernels of a few KiB are plenty; larger inputs only slow the search.
  if (size > 8192)
    return -1;
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  CompileOptions options;
  for (const char *target : fuzz::kAllTargets)
    options.stages.targets.push_back(target);
  options.stages.buildId = compilerBuildId();
  // As the unit tests do: name the pass that broke the IR.
  options.stages.verifyEachPass = true;
  options.stopAfter = StageId::Target;
  // The examples' shared definitions (`import "common.accy";`).
  options.includeDirs.push_back(ACCY_SOURCE_DIR "/examples/kernels");
  // A fresh compiler (and product cache) per input: nothing carries over.
  Compiler compiler(fuzz::context(), options);
  // A path that does not exist: imports cannot find anything on the disk.
  Compilation c = compiler.compileBuffer("/nonexistent/fuzz/input.accy", text);
  for (StageId stage : kAllStages)
    if (mlir::ModuleOp product = c.product(stage))
      (void)productBytes(product);
  std::vector<FailureRecord> failures = c.failures();
  // ACCY_FUZZ_VERBOSE=1 (replaying an input): how far the compile got.
  static const bool verbose = std::getenv("ACCY_FUZZ_VERBOSE");
  if (verbose) {
    for (const StageRecord &r : c.records())
      llvm::errs() << stageName(r.stage) << ": "
                   << stageStatusName(r.status) << "\n";
    for (const FailureRecord &f : failures)
      llvm::errs() << "failure in " << f.pipeline << " (" << f.pass
                   << "): " << f.message << "\n";
    llvm::errs() << c.diagnostics().size() << " frontend diagnostics\n";
  }
  // Inputs the frontend rejects are not interesting to this fuzzer.
  if (!c.product(StageId::Semantic))
    return -1;
  return 0;
}
