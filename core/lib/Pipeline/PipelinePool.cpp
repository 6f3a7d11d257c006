//===- PipelinePool.cpp - Stage pipelines for the kernel threads ----------===//

#include "PipelinePool.h"

#include "FailureCapture.h"
#include "StageInstrumentation.h"

#include "accy/Pipeline/Product.h"
#include "accy/Pipeline/Stage.h"
#include "accy/Support/CrashContainment.h"
#include "accy/Support/TimeTrace.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/TimeProfiler.h"

using namespace accy;
using namespace mlir;

namespace {
/// A span of the time trace (TimeTrace.h) per pass, on the thread that
/// runs it; nothing on a thread that does not trace.
class PassTraceInstrumentation : public PassInstrumentation {
  void runBeforePass(Pass *pass, Operation *) override {
    if (!pass->getArgument().empty()) // not a nested pass manager
      llvm::timeTraceProfilerBegin(pass->getArgument(), "");
  }
  void runAfterPass(Pass *pass, Operation *) override { end(pass); }
  void runAfterPassFailed(Pass *pass, Operation *) override { end(pass); }
  static void end(Pass *pass) {
    if (!pass->getArgument().empty())
      llvm::timeTraceProfilerEnd();
  }
};
} // namespace

PipelineRun::PipelineRun(MLIRContext *context, StageId stage,
                         const StageOptions &options)
    : stage(stage), pm(context, ModuleOp::getOperationName()),
      instrumentation(new StageInstrumentation(options.countModifyingPasses,
                                               options.collectPassTimings)),
      verifyEachPass(options.verifyEachPass) {
  pm.addInstrumentation(std::unique_ptr<PassInstrumentation>(instrumentation));
  if (isTimeTracing())
    pm.addInstrumentation(std::make_unique<PassTraceInstrumentation>());
  pm.enableVerifier(verifyEachPass);
  buildStagePipeline(stage, pm, options);
}

LogicalResult PipelineRun::run(ModuleOp kernel, bool inputVerified,
                               const SourceMap *sourceMap,
                               std::vector<FailureRecord> &failures,
                               RunningKernels &running) {
  llvm::StringRef pipeline = stagePipelineName(stage);
  std::string name = kernelName(kernel).str();
  FailureCapture capture(kernel.getContext());
  // Stage files and store entries are read without verification (their
  // producer verified them, and a checksum vouches for their bytes): a
  // kernel is verified here, before a pass works on it, and only kernels
  // that are compiled pay for it. One that the previous stage made in
  // this process was verified as that stage's product.
  if (!inputVerified && failed(mlir::verify(kernel))) {
    for (FailureRecord &r :
         capture.records(pipeline, "", name, kernel, sourceMap))
      failures.push_back(std::move(r));
    return failure();
  }
  LogicalResult result = failure();
  NestedCrash nested;
  running.add(kernel, &nested);
  // A crash inside a pass becomes an internal failure of this kernel, not
  // of the process that runs the compiler (the language server).
  llvm::CrashRecoveryContext crashContext;
  bool returned = crashContext.RunSafely([&] { result = pm.run(kernel); });
  running.remove(kernel);
  if (!returned || nested.crashed.load()) {
    crashed_ = true;
    std::string pass, crash;
    if (nested.crashed.load()) {
      std::lock_guard<std::mutex> lock(nested.mutex);
      pass = nested.pass;
      crash = nested.description;
    } else {
      pass = instrumentation->runningPass().str();
      crash = crashDescription(crashContext.RetCode);
    }
    for (FailureRecord &r :
         capture.records(pipeline, pass, name, ModuleOp(), sourceMap, crash))
      failures.push_back(std::move(r));
    return failure();
  }
  // Without verification after each pass, the stage's product is
  // verified once; a failure then names no single pass.
  bool verified =
      verifyEachPass || failed(result) || succeeded(mlir::verify(kernel));
  if (succeeded(result) && verified && !capture.hasErrors())
    return success();
  llvm::StringRef pass =
      !verified ? llvm::StringRef() : instrumentation->failedPass();
  for (FailureRecord &r :
       capture.records(pipeline, pass, name, kernel, sourceMap))
    failures.push_back(std::move(r));
  return failure();
}

void PipelineRun::loadDependentDialects(MLIRContext *context) {
  DialectRegistry registry;
  pm.getDependentDialects(registry);
  context->appendDialectRegistry(registry);
  for (llvm::StringRef name : registry.getDialectNames())
    context->getOrLoadDialect(name);
}

PipelinePool::~PipelinePool() {
  for (auto &run : all)
    if (run->crashed())
      (void)run.release();
}

PipelineRun *PipelinePool::acquire() {
  std::lock_guard<std::mutex> lock(mutex);
  if (idle.empty()) {
    all.push_back(std::make_unique<PipelineRun>(context, stage, options));
    return all.back().get();
  }
  PipelineRun *run = idle.back();
  idle.pop_back();
  return run;
}

void PipelinePool::release(PipelineRun *run) {
  std::lock_guard<std::mutex> lock(mutex);
  // A run that crashed is not used again (its pass manager may hold a
  // lock or half-updated state the crash skipped over).
  if (!run->crashed())
    idle.push_back(run);
}

void PipelinePool::collect(StageRecord &record) const {
  for (const auto &run : all) {
    record.stats += run->stats().statistics();
    record.addPassTimings(run->stats().timings());
  }
}
