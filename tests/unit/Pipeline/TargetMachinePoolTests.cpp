//===- TargetMachinePoolTests.cpp - Target machines lent to modules -------===//
//
// Code generation lends each module a target machine of the process's pool
// and takes it back after (a machine serves one module at a time);
// accyc makes the machines ahead of use on an idle core
// (prepareTargetMachines). The pool must end as it began, however many
// threads borrow from it at once, and what it lends must give the code a
// machine of its own would.
//
//===----------------------------------------------------------------------===//

#include <catch2/catch.hpp>

#include "PipelineTestUtil.h"

#include "accy/CodeGen/CodeGen.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <string>
#include <thread>
#include <vector>

using namespace accy;
using namespace accy::test;

namespace {

/// The PTX of a kernel that stores x * x + 1 over its float argument.
std::string squarePlusOnePTX(const TargetProfile &profile) {
  llvm::LLVMContext context;
  llvm::Module module("square", context);
  llvm::Type *f32 = llvm::Type::getFloatTy(context);
  llvm::Type *global = llvm::PointerType::get(context, 1);
  auto *kernel = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), {global}, false),
      llvm::Function::ExternalLinkage, "square", module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "entry", kernel));
  llvm::Value *x = b.CreateLoad(f32, kernel->getArg(0));
  llvm::Value *y =
      b.CreateFAdd(b.CreateFMul(x, x), llvm::ConstantFP::get(f32, 1.0));
  b.CreateStore(y, kernel->getArg(0));
  b.CreateRetVoid();
  markNVPTXKernel(*kernel);
  if (llvm::Error error = codegen::optimizeModule(module, profile))
    return "error: " + llvm::toString(std::move(error));
  auto ptx = codegen::emitArtifact(module, profile);
  if (!ptx)
    return "error: " + llvm::toString(ptx.takeError());
  return *ptx;
}

} // namespace

TEST_CASE("prepared target machines are lent to modules and taken back",
          "[codegen]") {
  auto profile = lookupTargetProfile("sm_80");
  REQUIRE(succeeded(profile.takeError()));
  codegen::prepareTargetMachines({&*profile}, 3);
  size_t idle = codegen::countIdleTargetMachines(*profile);
  CHECK(idle >= 3);
  // Prepared again: the idle ones count, none is made.
  codegen::prepareTargetMachines({&*profile}, 3);
  CHECK(codegen::countIdleTargetMachines(*profile) == idle);

  std::string alone = squarePlusOnePTX(*profile);
  REQUIRE(llvm::StringRef(alone).contains(".entry square"));
  CHECK(codegen::countIdleTargetMachines(*profile) == idle);

  // More threads than idle machines: the pool makes what it lacks, and no
  // two modules share one machine at once (the code would differ or the
  // process crash).
  std::vector<std::string> made(8);
  std::vector<std::thread> threads;
  for (std::string &ptx : made)
    threads.emplace_back([&] {
      for (int round = 0; round < 4; ++round)
        if (std::string once = squarePlusOnePTX(*profile); once != alone)
          ptx = once;
    });
  for (std::thread &thread : threads)
    thread.join();
  for (const std::string &ptx : made)
    CHECK(ptx.empty());
  size_t after = codegen::countIdleTargetMachines(*profile);
  CHECK(after >= idle);
  CHECK(after <= idle + made.size());
}
