//===- TargetUnitsTests.cpp - The target stage one target at a time -------===//
//
// Units of one kernel for one target, joined, must be what one run of the
// target stage for every target makes, byte for byte: accy-lsp serves the
// joined product (hover, stage output) and its keys name the stage run.

#include <catch2/catch.hpp>

#include "PipelineTestUtil.h"

#include "accy/Pipeline/Hashing.h"
#include "accy/Pipeline/Product.h"
#include "accy/Pipeline/TargetUnits.h"

using namespace accy;
using namespace accy::test;

namespace {
/// The kernel-stage products of kKernelShapes, planned for `options`' targets.
std::vector<SharedKernel> kernelStage(mlir::MLIRContext &context,
                                      const StageOptions &options,
                                      Compilation &c) {
  CompileOptions compile = defaultOptions(StageId::Kernel);
  compile.stages = options;
  Compiler compiler(context, compile);
  c = compiler.compileBuffer("/virtual/units.accy", kKernelShapes);
  REQUIRE(c.succeeded());
  std::vector<SharedKernel> kernels;
  for (mlir::ModuleOp kernel : kernelModules(c.product(StageId::Kernel)))
    kernels.push_back(shareKernel(kernel.clone()));
  return kernels;
}

std::vector<std::string> bytesOf(const StageKernels &made) {
  std::vector<std::string> bytes;
  for (const SharedKernel &kernel : made.kernels)
    bytes.push_back(productBytes(kernel->module.get()));
  return bytes;
}
} // namespace

TEST_CASE("target units joined are the stage run for every target",
          "[target-units]") {
  auto context = makeContext();
  Compilation c;
  StageOptions options = defaultOptions().stages;
  options.targets = {"host", "sm_80", "sm_90", "gfx942"};
  std::vector<SharedKernel> inputs = kernelStage(*context, options, c);

  StageKernels whole = runStageOnKernels(StageId::Target, *context, inputs,
                                         options, nullptr, nullptr);
  REQUIRE(whole.record.status == StageStatus::Compiled);

  ProductCache cache;
  for (const std::string &target : options.targets) {
    StageKernels unit =
        runStageOnKernels(StageId::Target, *context, inputs,
                          targetUnitOptions(options, target), nullptr, &cache);
    REQUIRE(unit.record.status == StageStatus::Compiled);
  }
  CHECK(joinTargetUnits(*context, inputs, options, cache) == inputs.size());
  // Joined once: a second call finds the stage's own products.
  CHECK(joinTargetUnits(*context, inputs, options, cache) == 0);

  StageKernels joined = runStageOnKernels(StageId::Target, *context, inputs,
                                          options, nullptr, &cache);
  REQUIRE(joined.record.status == StageStatus::Reused);
  CHECK(bytesOf(joined) == bytesOf(whole));
  for (size_t i = 0; i < inputs.size(); ++i) {
    CHECK(joined.record.kernels[i].key == whole.record.kernels[i].key);
    CHECK(joined.record.kernels[i].fingerprint ==
          whole.record.kernels[i].fingerprint);
  }
}

TEST_CASE("a kernel whose units are not all made is compiled whole",
          "[target-units]") {
  auto context = makeContext();
  Compilation c;
  StageOptions options = defaultOptions().stages; // host, sm_90, gfx942
  std::vector<SharedKernel> inputs = kernelStage(*context, options, c);

  ProductCache cache;
  // Every target of the first kernel; the others lack their gfx942 unit.
  for (const std::string &target : options.targets) {
    llvm::ArrayRef<SharedKernel> some =
        target == "gfx942" ? llvm::ArrayRef(inputs).take_front(1)
                           : llvm::ArrayRef(inputs);
    runStageOnKernels(StageId::Target, *context, some,
                      targetUnitOptions(options, target), nullptr, &cache);
  }
  CHECK(joinTargetUnits(*context, inputs, options, cache) == 1);
  StageKernels made = runStageOnKernels(StageId::Target, *context, inputs,
                                        options, nullptr, &cache);
  REQUIRE(made.record.kernels.size() == inputs.size());
  CHECK(made.record.kernels[0].status == StageStatus::Reused);
  for (size_t i = 1; i < inputs.size(); ++i)
    CHECK(made.record.kernels[i].status == StageStatus::Compiled);
}

TEST_CASE("one target needs no join", "[target-units]") {
  auto context = makeContext();
  Compilation c;
  StageOptions options = defaultOptions().stages;
  options.targets = {"sm_90"};
  std::vector<SharedKernel> inputs = kernelStage(*context, options, c);
  ProductCache cache;
  runStageOnKernels(StageId::Target, *context, inputs, options, nullptr,
                    &cache);
  CHECK(joinTargetUnits(*context, inputs, options, cache) == 0);
}
