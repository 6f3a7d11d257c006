//===- StageRunner.cpp - Runs one stage over a product --------------------===//

#include "accy/Pipeline/StageRunner.h"

#include "FailureCapture.h"
#include "StageInstrumentation.h"

#include "accy/Pipeline/Hashing.h"
#include "accy/Pipeline/Product.h"
#include "accy/Pipeline/ProductCache.h"
#include "accy/Pipeline/SourceMap.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CrashRecoveryContext.h"

#include <chrono>

using namespace accy;
using namespace mlir;

std::string StageOptions::canonicalText(StageId stage) const {
  if (!stageTakesTargets(stage))
    return "";
  return "targets=" + llvm::join(targets, ",");
}


/// The plan a dispatch, memory or kernel product's fingerprint summarises:
/// the kernel module's attribute holding that stage's plan (the names of
/// accy/Stages/Dispatch/Plan.h, which the pipeline cannot include beside
/// Product.h).
static llvm::StringRef planAttrName(StageId stage) {
  switch (stage) {
  case StageId::Dispatch:
    return "accy.dispatches";
  case StageId::Memory:
    return "accy.memory";
  case StageId::Kernel:
    return "accy.kernels";
  default:
    return {};
  }
}

/// The text a kernel product's fingerprint summarises: the stage's plan
/// where it has one, else the product itself. Keys are left out: a
/// fingerprint describes what was made, not how it is named.
static std::string fingerprintText(StageId stage, ModuleOp kernel) {
  if (llvm::StringRef name = planAttrName(stage); !name.empty())
    if (Attribute plan = kernel->getAttr(name)) {
      std::string text;
      llvm::raw_string_ostream(text) << plan;
      return text;
    }
  OwningOpRef<ModuleOp> copy = kernel.clone();
  (*copy)->removeAttr(kKeyAttr);
  (*copy)->removeAttr(kInputKeyAttr);
  return productBytes(*copy);
}

namespace {
/// Runs a stage pipeline on standalone kernel modules, collecting the
/// statistics and failures of every run.
class PipelineRun {
public:
  PipelineRun(MLIRContext *context, StageId stage, const StageOptions &options)
      : stage(stage), pm(context, ModuleOp::getOperationName()),
        instrumentation(new StageInstrumentation(options.collectPassTimings)),
        verifyEachPass(options.verifyEachPass) {
    pm.addInstrumentation(std::unique_ptr<PassInstrumentation>(instrumentation));
    pm.enableVerifier(verifyEachPass);
    buildStagePipeline(stage, pm, options);
  }

  /// Runs the pipeline on `kernel`; failures are appended to `failures`.
  LogicalResult run(ModuleOp kernel, const SourceMap *sourceMap,
                    std::vector<FailureRecord> &failures) {
    llvm::StringRef pipeline = stagePipelineName(stage);
    FailureCapture capture(kernel.getContext());
    LogicalResult result = failure();
    // A crash inside a pass becomes an internal failure of this kernel, not
    // of the process that runs the compiler (the language server).
    llvm::CrashRecoveryContext crashContext;
    bool returned = crashContext.RunSafely([&] { result = pm.run(kernel); });
    // Without verification after each pass, the stage's product is
    // verified once; a failure then names no single pass.
    bool verified = verifyEachPass || !returned || failed(result) ||
                    succeeded(mlir::verify(kernel));
    if (returned && succeeded(result) && verified && !capture.hasErrors())
      return success();
    llvm::StringRef pass = !returned ? instrumentation->runningPass()
                           : !verified ? llvm::StringRef()
                                       : instrumentation->failedPass();
    for (FailureRecord &r :
         capture.records(pipeline, pass, returned ? kernel : ModuleOp(),
                         sourceMap, !returned))
      failures.push_back(std::move(r));
    return failure();
  }

  const StageInstrumentation &stats() const { return *instrumentation; }

private:
  StageId stage;
  PassManager pm;
  StageInstrumentation *instrumentation; // owned by pm
  bool verifyEachPass;
};
} // namespace

StageOutput accy::runStage(StageId stage, ModuleOp input,
                           const StageOptions &options,
                           const SourceMap *sourceMap, ProductCache *cache) {
  auto start = std::chrono::steady_clock::now();
  MLIRContext *context = input.getContext();
  StageOutput out;
  StageRecord &record = out.record;
  record.stage = stage;

  if (llvm::Error err = verifyProduct(input, *previousStage(stage))) {
    FailureRecord r;
    r.pipeline = stagePipelineName(stage).str();
    r.kind = FailureKind::Internal;
    r.message = llvm::toString(std::move(err));
    record.failures.push_back(std::move(r));
    record.status = StageStatus::Failed;
    return out;
  }

  OwningOpRef<ModuleOp> product = createProduct(*context, stage);
  std::optional<PipelineRun> run;
  std::string options_ = options.canonicalText(stage);
  std::string stageKeyText, stageFingerprintText;
  bool anyCompiled = false;

  for (ModuleOp kernel : kernelModules(input)) {
    std::string inputHash = contentHash(productBytes(kernel));
    std::string key =
        computeProductKey({stage, options.buildId, options_, inputHash});
    KernelStageRecord kr;
    kr.kernel = kernelName(kernel).str();
    kr.key = key;
    kr.inputHash = inputHash;

    OwningOpRef<ModuleOp> made = cache ? cache->lookup(key) : nullptr;
    if (made) {
      kr.status = StageStatus::Reused;
    } else {
      if (!run)
        run.emplace(context, stage, options);
      made = kernel.clone();
      if (failed(run->run(*made, sourceMap, record.failures))) {
        kr.status = StageStatus::Failed;
        record.kernels.push_back(std::move(kr));
        continue;
      }
      Builder b(context);
      (*made)->setAttr(kKeyAttr, b.getStringAttr(key));
      (*made)->setAttr(kInputKeyAttr, b.getStringAttr(kernelKey(kernel)));
      if (cache)
        cache->store(key, *made);
      kr.status = StageStatus::Compiled;
      anyCompiled = true;
    }
    kr.fingerprint = fingerprintOf(fingerprintText(stage, *made));
    stageKeyText += key;
    stageFingerprintText += kr.kernel + ":" + fingerprintHex(kr.fingerprint) + ";";
    product->getBody()->push_back(made.release());
    record.kernels.push_back(std::move(kr));
  }

  if (run) {
    record.stats = run->stats().statistics();
    record.passTimings = run->stats().timings();
  }
  record.key = contentHash(stageKeyText);
  record.fingerprint = fingerprintOf(stageFingerprintText);
  record.seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  if (!record.failures.empty()) {
    record.status = StageStatus::Failed;
    return out; // no partial product
  }
  record.status = anyCompiled || kernelModules(input).empty()
                      ? StageStatus::Compiled
                      : StageStatus::Reused;
  out.product = std::move(product);
  return out;
}
