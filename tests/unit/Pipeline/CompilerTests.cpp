//===- CompilerTests.cpp - Keys, reuse, stability, failure records --------===//

#include <catch2/catch.hpp>

#include "PipelineTestUtil.h"

#include "accy/Pipeline/Hashing.h"
#include "accy/Pipeline/Product.h"
#include "accy/Pipeline/StageRunner.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <map>

using namespace accy;
using namespace accy::test;

static const char *kTwoKernels = R"(// two kernels
kernel scale(x: f32[N, D], s: f32[D]) -> f32[N, D] {
  return x * s + 1.0;
}

kernel rowsum(x: f32[N, D]) -> f32[N] {
  let e = exp(x);
  return sum(e, axis=1);
}
)";

/// The same program with other comments and whitespace.
static const char *kTwoKernelsReformatted = R"(
/* two kernels,
   reformatted */
kernel scale(x: f32[N, D],
             s: f32[D]) -> f32[N, D] {
    return x * s + 1.0;   // scale and shift
}
kernel rowsum(x: f32[N, D]) -> f32[N] { let e = exp(x); return sum(e, axis=1); }
)";

/// The first program with only `scale` changed.
static const char *kScaleEdited = R"(// two kernels
kernel scale(x: f32[N, D], s: f32[D]) -> f32[N, D] {
  return x * s - 2.0;
}

kernel rowsum(x: f32[N, D]) -> f32[N] {
  let e = exp(x);
  return sum(e, axis=1);
}
)";

static Compilation compile(mlir::MLIRContext &context, const char *text,
                           CompileOptions options = defaultOptions()) {
  Compiler compiler(context, std::move(options));
  return compiler.compileBuffer("/virtual/two.accy", text);
}

TEST_CASE("all seven stages run and seal their products", "[compiler]") {
  auto context = makeContext();
  Compilation c = compile(*context, kTwoKernels);
  INFO(c.failures().size() << " failures; first: "
                           << (c.failures().empty() ? ""
                                                    : c.failures()[0].message));
  REQUIRE(c.succeeded());
  REQUIRE(c.lastStage() == StageId::Target);
  for (StageId stage : kAllStages) {
    CAPTURE(stageName(stage).str());
    REQUIRE(c.product(stage));
    CHECK(succeeded(verifyProduct(c.product(stage), stage)));
    CHECK(kernelModules(c.product(stage)).size() == 2);
    CHECK(c.record(stage).status == StageStatus::Compiled);
    if (auto previous = previousStage(stage))
      CHECK(succeeded(verifyChain(c.product(*previous), c.product(stage))));
  }
  CHECK(c.record(StageId::Contract).stats.passRuns > 0);
}

TEST_CASE("comment and whitespace edits leave every product byte-identical",
          "[compiler][incremental]") {
  auto context = makeContext();
  Compilation a = compile(*context, kTwoKernels);
  Compilation b = compile(*context, kTwoKernelsReformatted);
  REQUIRE(a.succeeded());
  REQUIRE(b.succeeded());
  for (StageId stage : kAllStages) {
    CAPTURE(stageName(stage).str());
    CHECK(stageBytes(a, stage) == stageBytes(b, stage));
  }
}

TEST_CASE("editing one kernel changes only that kernel's products",
          "[compiler][incremental]") {
  auto context = makeContext();
  Compilation a = compile(*context, kTwoKernels);
  Compilation b = compile(*context, kScaleEdited);
  REQUIRE(a.succeeded());
  REQUIRE(b.succeeded());
  for (StageId stage : kAllStages) {
    CAPTURE(stageName(stage).str());
    auto before = kernelBytes(a, stage), after = kernelBytes(b, stage);
    CHECK(before.at("rowsum") == after.at("rowsum"));
    CHECK(before.at("scale") != after.at("scale"));
  }
}

TEST_CASE("a second compile reuses every unchanged kernel by key",
          "[compiler][incremental]") {
  auto context = makeContext();
  Compiler compiler(*context, defaultOptions());
  Compilation first = compiler.compileBuffer("/virtual/two.accy", kTwoKernels);
  REQUIRE(first.succeeded());
  Compilation second =
      compiler.compileBuffer("/virtual/two.accy", kScaleEdited);
  REQUIRE(second.succeeded());
  for (StageId stage : kAllStages) {
    if (stage == StageId::Semantic)
      continue;
    CAPTURE(stageName(stage).str());
    for (const KernelStageRecord &k : second.record(stage).kernels)
      CHECK(k.status == (k.kernel == "rowsum" ? StageStatus::Reused
                                              : StageStatus::Compiled));
  }
  // Reused products are the same products.
  CHECK(kernelBytes(first, StageId::Target).at("rowsum") ==
        kernelBytes(second, StageId::Target).at("rowsum"));
}

TEST_CASE("kernels run stage by stage share reused products with the cache, "
          "copying none",
          "[compiler][incremental]") {
  auto context = makeContext();
  CompileOptions options = defaultOptions();
  Compilation first = compile(*context, kTwoKernels, options);
  Compilation second = compile(*context, kScaleEdited, options);
  REQUIRE(first.succeeded());
  REQUIRE(second.succeeded());
  // Contract, then tensor on contract's kernels (whose hashes they carry),
  // for both versions through one cache, as the language server runs them.
  ProductCache cache;
  auto twoStages = [&](const Compilation &c) {
    StageKernels contract = runStageOnKernels(
        StageId::Contract, *context,
        kernelModules(c.product(StageId::Semantic)), options.stages,
        &c.sourceMap(), &cache);
    REQUIRE(contract.record.status != StageStatus::Failed);
    StageKernels tensor =
        runStageOnKernels(StageId::Tensor, *context, contract.kernels,
                          options.stages, &c.sourceMap(), &cache);
    REQUIRE(tensor.record.status != StageStatus::Failed);
    return std::make_pair(std::move(contract), std::move(tensor));
  };
  auto [contract1, tensor1] = twoStages(first);
  auto [contract2, tensor2] = twoStages(second);
  REQUIRE(tensor2.kernels.size() == 2);
  for (size_t i = 0; i < 2; ++i) {
    const KernelStageRecord &record = tensor2.record.kernels[i];
    CAPTURE(record.kernel);
    bool reused = record.kernel == "rowsum";
    CHECK(record.status ==
          (reused ? StageStatus::Reused : StageStatus::Compiled));
    // A reused kernel is the very product the first run made.
    CHECK((contract2.kernels[i] == contract1.kernels[i]) == reused);
    CHECK((tensor2.kernels[i] == tensor1.kernels[i]) == reused);
    CHECK(cache.lookup(record.key) == tensor2.kernels[i]);
    // The hash a kernel carries is that of its bytes.
    CHECK(tensor2.kernels[i]->contentHash ==
          contentHash(productBytes(tensor2.kernels[i]->module.get())));
  }
}

TEST_CASE("keys change when and only when an input that matters changes",
          "[compiler][keys]") {
  auto context = makeContext();
  auto keysOf = [](const Compilation &c, StageId stage) {
    std::map<std::string, std::string> keys;
    for (const KernelStageRecord &k : c.record(stage).kernels)
      keys[k.kernel] = k.key;
    return keys;
  };
  Compilation base = compile(*context, kTwoKernels);
  REQUIRE(base.succeeded());

  SECTION("same meaning, same keys") {
    Compilation again = compile(*context, kTwoKernelsReformatted);
    for (StageId stage : kAllStages)
      CHECK(keysOf(base, stage) == keysOf(again, stage));
  }
  SECTION("source meaning") {
    Compilation edited = compile(*context, kScaleEdited);
    for (StageId stage : kAllStages) {
      CHECK(keysOf(base, stage).at("scale") != keysOf(edited, stage).at("scale"));
      CHECK(keysOf(base, stage).at("rowsum") == keysOf(edited, stage).at("rowsum"));
    }
  }
  SECTION("target profile: keys of the stages that plan for targets") {
    CompileOptions options = defaultOptions();
    options.stages.targets = {"host", "sm_80"};
    Compilation other = compile(*context, kTwoKernels, options);
    REQUIRE(other.succeeded());
    for (StageId stage : {StageId::Semantic, StageId::Contract, StageId::Tensor})
      CHECK(keysOf(base, stage) == keysOf(other, stage));
    for (StageId stage : {StageId::Dispatch, StageId::Kernel, StageId::Target})
      CHECK(keysOf(base, stage).at("scale") != keysOf(other, stage).at("scale"));
  }
  SECTION("compiler build id") {
    CompileOptions options = defaultOptions();
    options.stages.buildId = "another-build";
    Compilation other = compile(*context, kTwoKernels, options);
    for (StageId stage : kAllStages)
      CHECK(keysOf(base, stage).at("scale") != keysOf(other, stage).at("scale"));
  }
}

TEST_CASE("fingerprints are stable across compiles and contexts",
          "[compiler][fingerprints]") {
  auto c1 = makeContext();
  auto c2 = makeContext();
  Compilation a = compile(*c1, kTwoKernels);
  Compilation b = compile(*c2, kTwoKernels);
  REQUIRE(a.succeeded());
  REQUIRE(b.succeeded());
  for (StageId stage : kAllStages) {
    CAPTURE(stageName(stage).str());
    CHECK(a.record(stage).fingerprint == b.record(stage).fingerprint);
    CHECK(a.record(stage).key == b.record(stage).key);
  }
  // Different programs have different fingerprints.
  Compilation edited = compile(*c1, kScaleEdited);
  CHECK(a.record(StageId::Tensor).fingerprint !=
        edited.record(StageId::Tensor).fingerprint);
  // The planning stages summarise their plans: an elementwise kernel and a
  // row reduction are planned differently.
  for (StageId stage : {StageId::Dispatch, StageId::Memory, StageId::Kernel}) {
    CAPTURE(stageName(stage).str());
    const std::vector<KernelStageRecord> &kernels = a.record(stage).kernels;
    REQUIRE(kernels.size() == 2);
    CHECK(kernels[0].fingerprint != kernels[1].fingerprint);
  }
}

// A semantic product that passes the frontend's checks only by construction:
// two different symbols meet in a broadcast, which the contract stage's
// shape propagation must reject at the op that joins them.
static const char *kMismatchedSymbols = R"mlir(
module attributes {accy.stage = "semantic", accy.schema = 1 : i64} {
  module @k attributes {accy.kernel = "k", accy.key = "0123"} {
    func.func @k(%x: tensor<?xf32> {choir.dims = ["N"]},
                 %y: tensor<?xf32> {choir.dims = ["M"]})
        -> (tensor<?xf32> {choir.dims = ["N"]}) attributes {choir.kernel} {
      %e = choir.exp %x : tensor<?xf32> loc("k#1")
      %r = choir.add %e, %y : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32> loc("k#2")
      return %r : tensor<?xf32> loc("k#3")
    } loc("k#0")
  } loc("k#0")
}
)mlir";

TEST_CASE("kernels compiled on several threads give the same products",
          "[compiler][threads]") {
  auto sequential = makeContext();
  auto threaded = makeContext();
  threaded->enableMultithreading(true);
  Compilation a = compile(*sequential, kTwoKernels);
  Compilation b = compile(*threaded, kTwoKernels);
  REQUIRE(a.succeeded());
  REQUIRE(b.succeeded());
  for (StageId stage : kAllStages) {
    CAPTURE(stageName(stage).str());
    CHECK(stageBytes(a, stage) == stageBytes(b, stage));
    CHECK(a.record(stage).stats.passRuns == b.record(stage).stats.passRuns);
  }
}

/// Two kernels and a third that only scales: more kernels than the two
/// threads of a pipelined compile.
static const char *kThreeKernels =
    R"(kernel scale(x: f32[N, D], s: f32[D]) -> f32[N, D] {
  return x * s + 1.0;
}

kernel rowsum(x: f32[N, D]) -> f32[N] {
  let e = exp(x);
  return sum(e, axis=1);
}

kernel twice(x: f32[N]) -> f32[N] {
  return x * 2.0;
}
)";

TEST_CASE("kernels pipelined through the stages give the same products and "
          "records",
          "[compiler][threads]") {
  auto stageByStage = makeContext();
  auto pipelined = makeContext();
  stageByStage->enableMultithreading(true);
  pipelined->enableMultithreading(true);
  CompileOptions options = defaultOptions();
  options.stages.collectPassTimings = true; // accyc --timing --stats
  Compilation a = compile(*stageByStage, kThreeKernels, options);
  options.pipelineKernels = true;
  Compilation b = compile(*pipelined, kThreeKernels, options);
  REQUIRE(a.succeeded());
  REQUIRE(b.succeeded());
  for (StageId stage : kAllStages) {
    CAPTURE(stageName(stage).str());
    CHECK(stageBytes(a, stage) == stageBytes(b, stage));
    const StageRecord &ra = a.record(stage), &rb = b.record(stage);
    CHECK(ra.status == rb.status);
    CHECK(ra.key == rb.key);
    CHECK(ra.fingerprint == rb.fingerprint);
    CHECK(ra.stats.passRuns == rb.stats.passRuns);
    // Each pass's runs: the kernels' runs ahead are the stage's. (In the
    // order the passes first ran, which for the passes of a target's
    // nested pipeline depends on the threads.)
    CHECK(rb.passTimings.empty() == (stage == StageId::Semantic));
    auto runsByPass = [](const StageRecord &r) {
      std::map<std::string, unsigned> runs;
      for (const PassTiming &t : r.passTimings)
        runs[t.pass] += t.runs;
      return runs;
    };
    CHECK(runsByPass(ra) == runsByPass(rb));
    REQUIRE(ra.kernels.size() == rb.kernels.size());
    for (size_t i = 0; i < ra.kernels.size(); ++i) {
      CHECK(ra.kernels[i].kernel == rb.kernels[i].kernel);
      CHECK(ra.kernels[i].key == rb.kernels[i].key);
      CHECK(ra.kernels[i].status == rb.kernels[i].status);
    }
  }
}

TEST_CASE("a pass failure yields a record with stage, pass, op and range",
          "[compiler][failures]") {
  auto context = makeContext();
  mlir::ParserConfig config(context.get());
  mlir::OwningOpRef<mlir::ModuleOp> product =
      mlir::parseSourceString<mlir::ModuleOp>(kMismatchedSymbols, config);
  REQUIRE(product);
  SourceMap map;
  auto span = [](unsigned line, unsigned col, unsigned endCol) {
    return SourceSpan{"k.accy", line, col, line, endCol, 0, 0};
  };
  map.setKernelSpan("k", span(1, 1, 40));
  map.addNode("k", span(1, 8, 9));   // k#0
  map.addNode("k", span(2, 11, 17)); // k#1
  map.addNode("k", span(2, 11, 21)); // k#2: the add
  map.addNode("k", span(2, 3, 22));  // k#3

  Compiler compiler(*context, defaultOptions());
  Compilation c =
      compiler.compileFrom(std::move(product), StageId::Semantic, map);
  REQUIRE_FALSE(c.succeeded());
  CHECK(c.lastStage() == StageId::Semantic);
  CHECK(c.record(StageId::Contract).status == StageStatus::Failed);
  CHECK(c.record(StageId::Contract).stats.passFailures == 1);
  CHECK(c.product(StageId::Contract) == nullptr);
  CHECK(c.record(StageId::Tensor).status == StageStatus::NotRun);

  std::vector<FailureRecord> failures = c.failures();
  REQUIRE(failures.size() == 1);
  const FailureRecord &r = failures.front();
  CHECK(r.pipeline == "accy-choir-contract");
  CHECK(r.kind == FailureKind::Pass);
  CHECK(r.pass == "accy-choir-shape-layout-propagate");
  CHECK(r.op == "choir.add");
  CHECK(r.symbol == "k");
  CHECK_THAT(r.message, Catch::Contains("'N' against 'M'"));
  REQUIRE(r.range);
  CHECK(r.range->file == "k.accy");
  CHECK(r.range->line == 2);
  CHECK(r.range->column == 11);
  CHECK(r.range->endColumn == 21);
}

TEST_CASE("a failure on one thread stays with its kernel",
          "[compiler][failures][threads]") {
  auto context = makeContext();
  context->enableMultithreading(true);
  // The failing kernel of kMismatchedSymbols beside a good one.
  std::string text = kMismatchedSymbols;
  text.insert(text.rfind('}'), R"mlir(
  module @ok attributes {accy.kernel = "ok", accy.key = "4567"} {
    func.func @ok(%x: tensor<?xf32> {choir.dims = ["N"]})
        -> (tensor<?xf32> {choir.dims = ["N"]}) attributes {choir.kernel} {
      %e = choir.exp %x : tensor<?xf32>
      return %e : tensor<?xf32>
    }
  }
)mlir");
  mlir::ParserConfig config(context.get());
  auto product = mlir::parseSourceString<mlir::ModuleOp>(text, config);
  REQUIRE(product);
  // Stage by stage, and pipelined: the good kernel runs ahead into the
  // stages after the failure, which the compile never reaches.
  CompileOptions options = defaultOptions();
  options.pipelineKernels = GENERATE(false, true);
  CAPTURE(options.pipelineKernels);
  Compiler compiler(*context, options);
  Compilation c = compiler.compileFrom(std::move(product), StageId::Semantic,
                                       SourceMap());
  REQUIRE_FALSE(c.succeeded());
  std::vector<FailureRecord> failures = c.failures();
  REQUIRE(failures.size() == 1);
  CHECK(failures.front().symbol == "k");
  CHECK(failures.front().op == "choir.add");
  const auto &kernels = c.record(StageId::Contract).kernels;
  REQUIRE(kernels.size() == 2);
  CHECK(kernels[0].status == StageStatus::Failed);
  CHECK(kernels[1].status == StageStatus::Compiled);
  const StageRecord &tensor = c.record(StageId::Tensor);
  CHECK(tensor.status == StageStatus::NotRun);
  CHECK(tensor.kernels.empty());
  CHECK(tensor.seconds == 0);
}

TEST_CASE("frontend errors stop before any product", "[compiler][failures]") {
  auto context = makeContext();
  Compilation c = compile(*context, "kernel k(x: f32[N]) -> f32[N] { return y; }");
  CHECK_FALSE(c.succeeded());
  CHECK_FALSE(c.diagnostics().empty());
  CHECK(c.product(StageId::Semantic) == nullptr);
  CHECK(c.record(StageId::Semantic).status == StageStatus::Failed);
}

// MLIR 19's PassManager::run appends the pipeline's dependent dialects to
// the context's registry before every run unless they are already a subset
// of it, which dialect extensions never are; kernels run their pipelines on
// several threads of one context at once, where those appends raced (a
// double free found under AddressSanitizer). So no stage pipeline may
// depend on anything the compiler's contexts do not register up front.
TEST_CASE("no stage pipeline adds to the dialect registry of a compiler's "
          "context",
          "[compiler]") {
  auto context = makeContext();
  CompileOptions options = defaultOptions();
  options.stages.targets = {"host", "sm_80", "sm_90", "gfx90a", "gfx942"};
  for (StageId stage : kAllStages) {
    if (stage == StageId::Semantic)
      continue;
    INFO(stageName(stage).str());
    mlir::PassManager pm(context.get(), mlir::ModuleOp::getOperationName());
    buildStagePipeline(stage, pm, options.stages);
    mlir::DialectRegistry dependencies;
    pm.getDependentDialects(dependencies);
    CHECK(dependencies.isSubsetOf(context->getDialectRegistry()));
  }
}
