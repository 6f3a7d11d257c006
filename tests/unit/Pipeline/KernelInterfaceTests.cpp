//===- KernelInterfaceTests.cpp - What a launcher is generated from -------===//
//
// readKernelInterface reads a kernel product's parameters, memory plan and
// launches for the generated launcher. A product whose launches name a
// buffer the memory plan lacks is an error, not a launcher that indexes
// past its buffer table.

#include <catch2/catch.hpp>

#include "PipelineTestUtil.h"

#include "accy/CodeGen/Artifacts.h"
#include "accy/CodeGen/Embedding.h"
#include "accy/Dialect/Choir/IR/ChoirAttrs.h"
#include "accy/KernelModule/KernelModule.h"
#include "accy/ProductAttributes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"

using namespace accy;
using namespace accy::test;

namespace {

/// Two contractions: the first one's result, relu'd, is a buffer the
/// second launch reads.
const char *const kTwoLayers = R"(
kernel mlp(x: f32[B, 64], w1: f32[64, 32], w2: f32[32, 10]) -> f32[B, 10] {
  return relu(x @ w1) @ w2;
}
)";

} // namespace

TEST_CASE("a launch that takes a buffer the memory plan lacks is an error",
          "[kernel-interface]") {
  auto context = makeContext();
  CompileOptions options = defaultOptions(StageId::Kernel);
  options.stages.targets = {"sm_90"};
  Compiler compiler(*context, options);
  Compilation c = compiler.compileBuffer("/virtual/mlp.accy", kTwoLayers);
  REQUIRE(c.succeeded());
  std::vector<mlir::ModuleOp> kernels =
      getKernelModules(c.product(StageId::Kernel));
  REQUIRE(kernels.size() == 1);
  mlir::ModuleOp kernel = kernels.front();

  llvm::Expected<codegen::KernelInterface> planned =
      codegen::readKernelInterface(kernel);
  REQUIRE(succeeded(planned.takeError()));
  REQUIRE_FALSE(planned->buffers.empty());

  // The same launches with a memory plan of no buffers.
  auto memory =
      kernel->getAttrOfType<choir::MemoryPlanAttr>(choir::kMemoryPlanAttrName);
  REQUIRE(memory);
  kernel->setAttr(
      choir::kMemoryPlanAttrName,
      choir::MemoryPlanAttr::get(context.get(), memory.getArguments(),
                                 mlir::ArrayAttr::get(context.get(), {}),
                                 memory.getSymbols()));
  llvm::Expected<codegen::KernelInterface> broken =
      codegen::readKernelInterface(kernel);
  REQUIRE_FALSE(static_cast<bool>(broken));
  std::string message = llvm::toString(broken.takeError());
  CHECK_THAT(message, Catch::Contains("kernel 'mlp'"));
  // The first launch writes relu(x @ w1) to buffer 1 (buffer 0, x @ w1,
  // stays in registers).
  CHECK_THAT(message, Catch::Contains("launch 'mlp_k0' takes buffer 1, which "
                                      "the memory plan does not hold"));
}
