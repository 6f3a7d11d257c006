//===- PipelineTestUtil.cpp - Compiling sources in pipeline tests ---------===//

#include "PipelineTestUtil.h"

#include "accy/Pipeline/Hashing.h"
#include "accy/Pipeline/Product.h"
#include "accy/Pipeline/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace accy;

const char *const test::kKernelShapes = R"(
kernel scale(x: f32[N, D], s: f32[D]) -> f32[N, D] {
  return x * s + 1.0;
}
kernel softmax_rows(x: f32[N, D]) -> f32[N, D] {
  let e = exp(x - max(x, axis=1, keepdims=true));
  return e / sum(e, axis=1, keepdims=true);
}
kernel project(x: f32[N, K], w: f32[K, M]) -> f32[N, M] {
  return tanh(x @ w);
}
kernel half(x: f16[N]) -> f16[N] {
  return x * x;
}
)";

std::unique_ptr<mlir::MLIRContext> test::makeContext() {
  // The target stage initializes the LLVM backends it needs itself.
  static bool initialized = [] {
    registerAccyPasses();
    return true;
  }();
  (void)initialized;
  mlir::DialectRegistry registry;
  registerAccyDialects(registry);
  auto context = std::make_unique<mlir::MLIRContext>(
      registry, mlir::MLIRContext::Threading::DISABLED);
  context->printOpOnDiagnostic(false);
  return context;
}

CompileOptions test::defaultOptions(StageId stopAfter) {
  CompileOptions options;
  options.stages.targets = {"host", "sm_90", "gfx942"};
  options.stages.buildId = "accy-test-build";
  options.stages.verifyEachPass = true; // catch a pass that breaks the IR
  options.stopAfter = stopAfter;
  return options;
}

std::map<std::string, std::string> test::kernelBytes(const Compilation &c,
                                                     StageId stage) {
  std::map<std::string, std::string> out;
  if (!c.product(stage))
    return out;
  for (mlir::ModuleOp kernel : kernelModules(c.product(stage))) {
    mlir::OwningOpRef<mlir::ModuleOp> copy = kernel.clone();
    (*copy)->removeAttr(kKeyAttr);
    (*copy)->removeAttr(kInputKeyAttr);
    out[kernelName(kernel).str()] = productBytes(*copy);
  }
  return out;
}

std::string test::stageBytes(const Compilation &c, StageId stage) {
  return c.product(stage) ? productBytes(c.product(stage)) : std::string();
}

bool test::succeeded(llvm::Error error) {
  if (!error)
    return true;
  llvm::errs() << "error: " << llvm::toString(std::move(error)) << "\n";
  return false;
}

void accy::test::markNVPTXKernel(llvm::Function &function) {
  llvm::LLVMContext &context = function.getContext();
  function.getParent()
      ->getOrInsertNamedMetadata("nvvm.annotations")
      ->addOperand(llvm::MDNode::get(
          context, {llvm::ValueAsMetadata::get(&function),
                    llvm::MDString::get(context, "kernel"),
                    llvm::ValueAsMetadata::get(llvm::ConstantInt::get(
                        llvm::Type::getInt32Ty(context), 1))}));
}
