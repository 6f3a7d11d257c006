//===- StepEntryTests.cpp - Step entries: keys and their bytes ------------===//

#include <catch2/catch.hpp>

#include "accy/Pipeline/StepEntry.h"

using namespace accy;

namespace {
const std::vector<std::string> kTargets = {"host", "sm_90"};

StepKeyInputs inputsOf(StageId stage) {
  return {stage, "build-1", "mlp", kTargets, "ns", "input bytes"};
}

StepEntry twoFiles() {
  StepEntry entry;
  entry.kernels = 3;
  entry.files = {{".sm_90.ptx", "PTX\nwith lines\n"},
                 {".target.mlirbc", std::string("ML\xefR\0bytes", 10)}};
  return entry;
}
} // namespace

TEST_CASE("a step key names what the step's files depend on", "[steps]") {
  StepKeyInputs base = inputsOf(StageId::Target);
  std::string key = computeStepKey(base);
  CHECK(key.size() == 32);
  CHECK(computeStepKey(base) == key);

  std::vector<std::string> hostOnly = {"host"};
  auto keyWith = [&](auto change) {
    StepKeyInputs changed = base;
    change(changed);
    return computeStepKey(changed);
  };
  CHECK(keyWith([](auto &in) { in.stage = StageId::Kernel; }) != key);
  CHECK(keyWith([](auto &in) { in.buildId = "build-2"; }) != key);
  CHECK(keyWith([](auto &in) { in.name = "softmax"; }) != key);
  CHECK(keyWith([](auto &in) { in.input = "other bytes"; }) != key);
  CHECK(keyWith([](auto &in) { in.cppNamespace = "other"; }) != key);
  CHECK(keyWith([&](auto &in) { in.targets = hostOnly; }) != key);
}

TEST_CASE("a step key leaves out the options its stage does not read",
          "[steps]") {
  std::vector<std::string> reordered = {"sm_90", "host", "sm_90"};
  StepKeyInputs dispatch = inputsOf(StageId::Dispatch);
  StepKeyInputs same = dispatch;
  same.targets = reordered; // a set
  same.cppNamespace = "other"; // only the target stage writes launchers
  CHECK(computeStepKey(same) == computeStepKey(dispatch));

  StepKeyInputs memory = inputsOf(StageId::Memory);
  std::vector<std::string> hostOnly = {"host"};
  StepKeyInputs otherTargets = memory;
  otherTargets.targets = hostOnly; // planned by dispatch, in its output
  CHECK(computeStepKey(otherTargets) == computeStepKey(memory));
}

TEST_CASE("only the steps after semantic keep entries", "[steps]") {
  CHECK_FALSE(hasStepEntries(StageId::Semantic));
  for (StageId stage : kAllStages)
    if (stage != StageId::Semantic)
      CHECK(hasStepEntries(stage));
}

TEST_CASE("a step entry reads back as it was written", "[steps]") {
  std::string data = encodeStepEntry("key-1", twoFiles());
  std::optional<StepEntry> entry = decodeStepEntry(data, "key-1");
  REQUIRE(entry);
  CHECK(entry->kernels == 3);
  REQUIRE(entry->files.size() == 2);
  CHECK(entry->files[0].suffix == ".sm_90.ptx");
  CHECK(entry->files[0].bytes == "PTX\nwith lines\n");
  CHECK(entry->files[1].suffix == ".target.mlirbc");
  CHECK(entry->files[1].bytes == std::string("ML\xefR\0bytes", 10));
}

TEST_CASE("a step entry that does not check is none", "[steps]") {
  std::string data = encodeStepEntry("key-1", twoFiles());
  CHECK_FALSE(decodeStepEntry(data, "key-2")); // another key's
  CHECK_FALSE(decodeStepEntry(data.substr(0, data.size() - 1), "key-1"));
  CHECK_FALSE(decodeStepEntry(data + "x", "key-1"));
  std::string flipped = data;
  flipped.back() ^= 1;
  CHECK_FALSE(decodeStepEntry(flipped, "key-1"));
  CHECK_FALSE(decodeStepEntry("", "key-1"));
  CHECK_FALSE(decodeStepEntry("garbage\n", "key-1"));
  CHECK_FALSE(decodeStepEntry(encodeStepEntry("key-1", StepEntry()), "key-1"));
}

TEST_CASE("a step entry never names a file outside the output's folder",
          "[steps]") {
  for (const char *suffix : {"/../../.bashrc", "/x", "\\x", ".x/..", ""}) {
    StepEntry entry = twoFiles();
    entry.files[0].suffix = suffix;
    CHECK_FALSE(decodeStepEntry(encodeStepEntry("k", entry), "k"));
  }
}
