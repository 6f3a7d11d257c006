//===- EngineTests.cpp - The compile engine: runs, events, cancellation ---===//
//
// What accyc and accy-lsp rely on when they drive accy::Compiler: a compile
// stopped after any stage and resumed makes what one compile makes; the
// observer hears every stage and kernel in order; a cancelled compile stops
// before the next kernel compiles and says so; units of one kernel and
// target, credited, read as compiled.

#include <catch2/catch.hpp>

#include "PipelineTestUtil.h"

#include "accy/Pipeline/Hashing.h"
#include "accy/Pipeline/Product.h"

using namespace accy;
using namespace accy::test;

namespace {
const char *kThreeKernels = R"(
kernel scale(x: f32[N, D], s: f32[D]) -> f32[N, D] {
  return x * s + 1.0;
}
kernel rowsum(x: f32[N, D]) -> f32[N] {
  return sum(exp(x), axis=1);
}
kernel shift(x: f32[N]) -> f32[N] {
  return x - 3.0;
}
)";

/// Every event, as text: "start S", "kernel S K status", "end S status".
class EventLog : public CompileObserver {
public:
  void stageStarted(StageId stage) override {
    events.push_back(("start " + stageName(stage)).str());
    if (cancelAt && stage == *cancelAt)
      cancel.store(true);
  }
  void kernelDone(StageId stage, const KernelStageRecord &kernel) override {
    events.push_back(("kernel " + stageName(stage) + " " + kernel.kernel + " " +
                      kernel.statusName())
                         .str());
  }
  void stageDone(const StageRecord &record) override {
    events.push_back(("end " + stageName(record.stage) + " " +
                      stageStatusName(record.status))
                         .str());
  }
  std::vector<std::string> events;
  std::optional<StageId> cancelAt;
  std::atomic<bool> cancel{false};
};

std::string targetBytes(const Compilation &c) {
  std::string bytes;
  for (mlir::ModuleOp kernel : c.kernels(StageId::Target))
    bytes += productBytes(kernel);
  return bytes;
}
} // namespace

TEST_CASE("a compile stopped after any stage and resumed is one compile",
          "[engine]") {
  auto context = makeContext();
  Compiler whole(*context, defaultOptions());
  Compilation once = whole.compileBuffer("/virtual/three.accy", kThreeKernels);
  REQUIRE(once.succeeded());

  for (StageId stop : {StageId::Semantic, StageId::Dispatch, StageId::Kernel}) {
    CAPTURE(stageName(stop));
    Compiler compiler(*context, defaultOptions());
    RunControl control;
    control.stopAfter = stop;
    Compilation c =
        compiler.compileBuffer("/virtual/three.accy", kThreeKernels, control);
    CHECK(c.lastStage() == stop);
    CHECK(!c.hasProduct(StageId::Target));
    compiler.resume(c);
    REQUIRE(c.lastStage() == StageId::Target);
    CHECK(targetBytes(c) == targetBytes(once));
    // The stages that ran before the stop are the same records.
    CHECK(c.record(stop).key == once.record(stop).key);
  }
}

TEST_CASE("the observer hears every stage and kernel in order", "[engine]") {
  auto context = makeContext();
  Compiler compiler(*context, defaultOptions());
  EventLog log;
  RunControl control;
  control.observer = &log;
  Compilation c =
      compiler.compileBuffer("/virtual/three.accy", kThreeKernels, control);
  REQUIRE(c.succeeded());
  std::vector<std::string> expected = {"start semantic", "end semantic compiled"};
  for (StageId stage : kAllStages) {
    if (stage == StageId::Semantic)
      continue;
    std::string name = stageName(stage).str();
    expected.push_back("start " + name);
    for (const char *kernel : {"scale", "rowsum", "shift"})
      expected.push_back("kernel " + name + " " + kernel + " compiled");
    expected.push_back("end " + name + " compiled");
  }
  CHECK(log.events == expected);

  // Again: every kernel is reused, and the events say so.
  EventLog again;
  control.observer = &again;
  compiler.compileBuffer("/virtual/three.accy", kThreeKernels, control);
  CHECK(again.events[3] == "kernel contract scale reused");
  CHECK(again.events.back() == "end target reused");
}

TEST_CASE("a cancelled compile stops before the next kernel and says so",
          "[engine]") {
  auto context = makeContext();
  Compiler compiler(*context, defaultOptions());
  EventLog log;
  log.cancelAt = StageId::Memory; // set while the memory stage starts
  RunControl control;
  control.observer = &log;
  control.cancelled = &log.cancel;
  Compilation c =
      compiler.compileBuffer("/virtual/three.accy", kThreeKernels, control);
  CHECK(c.cancelled());
  CHECK(c.lastStage() == StageId::Dispatch);
  CHECK(!c.hasProduct(StageId::Memory));
  const StageRecord &memory = c.record(StageId::Memory);
  CHECK(memory.status == StageStatus::NotRun);
  REQUIRE(memory.kernels.size() == 3);
  for (const KernelStageRecord &kernel : memory.kernels)
    CHECK(kernel.status == StageStatus::NotRun);
  CHECK(c.record(StageId::Kernel).status == StageStatus::NotRun);
  CHECK(log.events.back() == "end memory not run");

  // Resumed without the flag, it completes and reuses what was made.
  log.cancel.store(false);
  log.cancelAt.reset();
  c = compiler.compileBuffer("/virtual/three.accy", kThreeKernels, control);
  CHECK(!c.cancelled());
  CHECK(c.lastStage() == StageId::Target);
  CHECK(c.record(StageId::Dispatch).status == StageStatus::Reused);
}

TEST_CASE("units of one kernel and target, credited, read as compiled",
          "[engine]") {
  auto context = makeContext();
  Compiler compiler(*context, defaultOptions());
  RunControl control;
  control.stopAfter = StageId::Kernel;
  Compilation checked =
      compiler.compileBuffer("/virtual/three.accy", kThreeKernels, control);
  REQUIRE(checked.lastStage() == StageId::Kernel);

  std::vector<KernelUnit> units;
  for (size_t index = 0; index < 3; ++index)
    for (const std::string &target : compiler.getOptions().stages.targets) {
      units.push_back(compiler.compileKernel(checked, index, target));
      CHECK(units.back().compiledAny);
      CHECK(!units.back().failed);
    }
  Compilation complete = checked;
  compiler.resume(complete);
  REQUIRE(complete.lastStage() == StageId::Target);
  // Every kernel came from the units, joined.
  CHECK(complete.record(StageId::Target).status == StageStatus::Reused);
  Compiler::creditUnits(complete, units);
  CHECK(complete.record(StageId::Target).status == StageStatus::Compiled);
  for (const KernelStageRecord &kernel :
       complete.record(StageId::Target).kernels)
    CHECK(kernel.status == StageStatus::Compiled);

  Compiler fresh(*context, defaultOptions());
  CHECK(targetBytes(complete) ==
        targetBytes(fresh.compileBuffer("/virtual/three.accy", kThreeKernels)));
}
