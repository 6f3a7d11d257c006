//===- KeyTests.cpp - Product keys and fingerprints -----------------------===//

#include <catch2/catch.hpp>

#include "accy/Pipeline/Hashing.h"
#include "accy/Pipeline/StageRunner.h"

using namespace accy;

TEST_CASE("a product key names every input that matters", "[keys]") {
  KeyInputs base{StageId::Contract, "build-1", "", "input-hash"};
  std::string key = computeProductKey(base);
  CHECK(key.size() == 32);
  CHECK(computeProductKey(base) == key);

  KeyInputs other = base;
  other.stage = StageId::Tensor;
  CHECK(computeProductKey(other) != key);
  other = base;
  other.buildId = "build-2";
  CHECK(computeProductKey(other) != key);
  other = base;
  other.options = "targets=host";
  CHECK(computeProductKey(other) != key);
  other = base;
  other.inputHash = "input-hash2";
  CHECK(computeProductKey(other) != key);
}

TEST_CASE("key fields cannot run into each other", "[keys]") {
  // "ab" + "c" and "a" + "bc" must not collide.
  KeyInputs a{StageId::Contract, "ab", "c", "x"};
  KeyInputs b{StageId::Contract, "a", "bc", "x"};
  CHECK(computeProductKey(a) != computeProductKey(b));
}

TEST_CASE("fingerprints and content hashes are fixed functions", "[keys]") {
  CHECK(fingerprintOf("abc") == fingerprintOf("abc"));
  CHECK(fingerprintOf("abc") != fingerprintOf("abd"));
  CHECK(fingerprintHex(0x1234) == "0000000000001234");
  // XXH3-128 of the empty input (the reference implementation's value).
  CHECK(contentHash("") == "99aa06d3014798d86001c324468d497f");
  CHECK(contentHash("abc") != contentHash("abd"));
}

TEST_CASE("targets enter a stage's options as a set", "[keys]") {
  StageOptions a, b, c;
  a.targets = {"host", "sm_90", "gfx942"};
  b.targets = {"gfx942", "sm_90", "host", "sm_90"};
  c.targets = {"host", "sm_90"};
  CHECK(a.canonicalText(StageId::Dispatch) == "targets=gfx942,host,sm_90");
  CHECK(a.canonicalText(StageId::Target) == b.canonicalText(StageId::Target));
  CHECK(a.canonicalText(StageId::Target) != c.canonicalText(StageId::Target));
  // Stages that take no targets have none in their keys.
  CHECK(a.canonicalText(StageId::Memory).empty());
}
