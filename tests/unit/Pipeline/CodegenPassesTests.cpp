//===- CodegenPassesTests.cpp - The IR passes left out of code generation -===//
//
// NVPTX code generation runs without loop strength reduction and nary
// reassociation (getSkippedCodegenPasses): each name must be a pass the
// backend registers, or leaving it out would silently do nothing, and a
// loop's PTX must show that strength reduction did not run. Likewise the
// LLVM option that the NVPTX pipeline's speculative execution is given.
//
//===----------------------------------------------------------------------===//

#include <catch2/catch.hpp>

#include "PipelineTestUtil.h"

#include "accy/CodeGen/CodeGen.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/PassInfo.h"
#include "llvm/PassRegistry.h"
#include "llvm/Support/CommandLine.h"

#include <string>

using namespace accy;
using namespace accy::test;

namespace {

/// PTX for sm_90 of a kernel that sums `n` floats of `a` into `out[0]`,
/// indexing `a` with the loop's counter.
std::string sumLoopPTX() {
  auto profile = lookupTargetProfile("sm_90");
  REQUIRE(succeeded(profile.takeError()));
  llvm::LLVMContext context;
  llvm::Module module("sum", context);
  llvm::Type *f32 = llvm::Type::getFloatTy(context);
  llvm::Type *i64 = llvm::Type::getInt64Ty(context);
  llvm::Type *global = llvm::PointerType::get(context, 1);
  auto *kernel = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(context),
                              {global, global, i64}, false),
      llvm::Function::ExternalLinkage, "sum", module);
  auto *entry = llvm::BasicBlock::Create(context, "entry", kernel);
  auto *loop = llvm::BasicBlock::Create(context, "loop", kernel);
  auto *done = llvm::BasicBlock::Create(context, "done", kernel);
  llvm::IRBuilder<> b(entry);
  b.CreateBr(loop);
  b.SetInsertPoint(loop);
  llvm::PHINode *index = b.CreatePHI(i64, 2);
  llvm::PHINode *sum = b.CreatePHI(f32, 2);
  llvm::Value *element = b.CreateLoad(
      f32, b.CreateGEP(f32, kernel->getArg(0), {index}));
  llvm::Value *added = b.CreateFAdd(sum, element);
  llvm::Value *next = b.CreateAdd(index, llvm::ConstantInt::get(i64, 1));
  b.CreateCondBr(b.CreateICmpSLT(next, kernel->getArg(2)), loop, done);
  index->addIncoming(llvm::ConstantInt::get(i64, 0), entry);
  index->addIncoming(next, loop);
  sum->addIncoming(llvm::ConstantFP::get(f32, 0.0), entry);
  sum->addIncoming(added, loop);
  b.SetInsertPoint(done);
  b.CreateStore(added, kernel->getArg(1));
  b.CreateRetVoid();
  markNVPTXKernel(*kernel);
  module.setTargetTriple(profile->triple);
  auto ptx = codegen::emitObjectCode(module, *profile);
  REQUIRE(succeeded(ptx.takeError()));
  return *ptx;
}

} // namespace

TEST_CASE("every code generation pass NVPTX leaves out is one it registers",
          "[codegen-passes]") {
  // Passes register as code generation first makes them.
  (void)sumLoopPTX();
  llvm::ArrayRef<llvm::StringRef> skipped =
      codegen::getSkippedCodegenPasses(TargetKind::NVPTX);
  REQUIRE_FALSE(skipped.empty());
  for (llvm::StringRef name : skipped) {
    INFO(name.str());
    CHECK(llvm::PassRegistry::getPassRegistry()->getPassInfo(name));
  }
  CHECK(codegen::getSkippedCodegenPasses(TargetKind::AMDGPU).empty());
  CHECK(codegen::getSkippedCodegenPasses(TargetKind::Host).empty());
}

TEST_CASE("an NVPTX loop keeps addressing by its counter: no strength "
          "reduction",
          "[codegen-passes]") {
  std::string ptx = sumLoopPTX();
  llvm::StringRef text(ptx);
  size_t header = text.find("$L__BB0_1:");
  REQUIRE(header != llvm::StringRef::npos);
  llvm::StringRef body = text.drop_front(header);
  body = body.take_front(body.find(" bra"));
  INFO(body.str());
  // In the loop, the address is the counter scaled by 4 and added to the
  // base; loop strength reduction would step a pointer by 4 instead.
  CHECK(body.contains("shl.b64"));
  CHECK_FALSE(body.contains(", 4;"));
}

TEST_CASE("registering the NVPTX backend sets the speculation limit once",
          "[codegen-passes]") {
  // The option's name is LLVM 19's; were it renamed, the epilogues' address
  // arithmetic would silently stay inside their bounds checks
  // (tests/lit/target/contraction-epilogue.accy shows the code).
  (void)sumLoopPTX();
  llvm::cl::Option *option =
      llvm::cl::getRegisteredOptions().lookup("spec-exec-max-not-hoisted");
  REQUIRE(option);
  CHECK(option->getNumOccurrences() == 1);
  (void)sumLoopPTX();
  CHECK(option->getNumOccurrences() == 1);
}
