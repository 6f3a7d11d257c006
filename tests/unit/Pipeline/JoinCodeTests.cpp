//===- JoinCodeTests.cpp - One PTX from pieces generated apart ------------===//
//
// The entries of a kernel compiled apart each carry the internal functions
// they call; joined, each function is there once. Pieces that define one
// name differently do not merge as text: their bitcode is linked and
// compiled again, and both functions stay.
//
//===----------------------------------------------------------------------===//

#include <catch2/catch.hpp>

#include "PipelineTestUtil.h"

#include "accy/CodeGen/CodeGen.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <string>

using namespace accy;
using namespace accy::test;

namespace {

/// One piece compiled for sm_90: its PTX and bitcode.
struct Piece {
  std::string ptx, bitcode;
};

/// A module whose kernel `entry` stores `helper(x)` over its float, where
/// the internal `helper` adds 3 to (or multiplies by 3) its argument:
/// compiled for sm_90.
Piece compilePiece(llvm::StringRef entry, bool helperMultiplies) {
  auto profile = lookupTargetProfile("sm_90");
  REQUIRE(succeeded(profile.takeError()));
  llvm::LLVMContext context;
  llvm::Module module(entry, context);
  llvm::Type *f32 = llvm::Type::getFloatTy(context);
  auto *helper = llvm::Function::Create(
      llvm::FunctionType::get(f32, {f32}, false),
      llvm::Function::InternalLinkage, "helper", module);
  helper->addFnAttr(llvm::Attribute::NoInline);
  {
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "entry", helper));
    llvm::Value *three = llvm::ConstantFP::get(f32, 3.0);
    llvm::Value *x = helper->getArg(0);
    b.CreateRet(helperMultiplies ? b.CreateFMul(x, three)
                                 : b.CreateFAdd(x, three));
  }
  auto *kernel = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(context),
                              {llvm::PointerType::get(context, 1)}, false),
      llvm::Function::ExternalLinkage, entry, module);
  {
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "entry", kernel));
    llvm::Value *pointer = kernel->getArg(0);
    llvm::Value *x = b.CreateLoad(f32, pointer);
    b.CreateStore(b.CreateCall(helper, {x}), pointer);
    b.CreateRetVoid();
  }
  markNVPTXKernel(*kernel);
  REQUIRE(succeeded(codegen::optimizeModule(module, *profile)));
  Piece piece;
  piece.bitcode = codegen::writeBitcode(module);
  auto ptx = codegen::emitObjectCode(module, *profile);
  REQUIRE(succeeded(ptx.takeError()));
  piece.ptx = std::move(*ptx);
  return piece;
}

std::string join(const Piece &a, const Piece &b) {
  auto profile = lookupTargetProfile("sm_90");
  REQUIRE(succeeded(profile.takeError()));
  auto joined = codegen::joinCode(*profile, {a.bitcode, b.bitcode},
                                  {a.ptx, b.ptx}, "pieces");
  REQUIRE(succeeded(joined.takeError()));
  return std::move(*joined);
}

size_t countOf(llvm::StringRef text, llvm::StringRef what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != llvm::StringRef::npos;
       at = text.find(what, at + what.size()))
    ++n;
  return n;
}

} // namespace

TEST_CASE("pieces that call the same internal function join with one copy",
          "[join-code]") {
  Piece first = compilePiece("first_k0", false);
  Piece second = compilePiece("first_k1", false);
  REQUIRE(countOf(first.ptx, "helper(") == 1); // each piece defines it
  REQUIRE(countOf(second.ptx, "helper(") == 1);
  std::string joined = join(first, second);
  CHECK(countOf(joined, ".entry first_k0(") == 1);
  CHECK(countOf(joined, ".entry first_k1(") == 1);
  CHECK(countOf(joined, "helper(") == 1); // defined once,
  CHECK(countOf(joined, "add.rn.f32") == 1); // under no other name
  CHECK(countOf(joined, ".target sm_90") == 1);
  // The helper is declared before the first entry that calls it.
  CHECK(joined.find("helper") < joined.find(".entry first_k0("));
}

TEST_CASE("pieces that define one name differently are linked instead",
          "[join-code]") {
  Piece adds = compilePiece("adds_k0", false);
  Piece multiplies = compilePiece("multiplies_k0", true);
  std::string joined = join(adds, multiplies);
  CHECK(countOf(joined, ".entry adds_k0(") == 1);
  CHECK(countOf(joined, ".entry multiplies_k0(") == 1);
  // Both helpers, under two names: the linker renamed one.
  CHECK(countOf(joined, "add.rn.f32") == 1);
  CHECK(countOf(joined, "mul.rn.f32") == 1);
}

TEST_CASE("bitcode that links into invalid IR is an error, not code",
          "[codegen]") {
  // Code generation does not verify its module; linkBitcode does, as the
  // bytes it links come from products on disk.
  llvm::LLVMContext context;
  llvm::Module module("invalid", context);
  llvm::Type *f32 = llvm::Type::getFloatTy(context);
  auto *function = llvm::Function::Create(
      llvm::FunctionType::get(f32, {f32}, false),
      llvm::Function::ExternalLinkage, "use_before_def", module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "entry", function));
  llvm::Value *one = llvm::ConstantFP::get(f32, 1.0);
  auto *later =
      llvm::cast<llvm::Instruction>(b.CreateFAdd(function->getArg(0), one));
  b.CreateRet(later);
  // A use before its definition: well formed bitcode, invalid IR.
  auto *early = llvm::BinaryOperator::CreateFAdd(later, one, "early");
  early->insertBefore(later);
  std::string bitcode = codegen::writeBitcode(module);

  llvm::LLVMContext linkContext;
  auto linked = codegen::linkBitcode(linkContext, {bitcode}, "invalid");
  REQUIRE(!linked);
  CHECK_THAT(llvm::toString(linked.takeError()),
             Catch::Contains("not valid LLVM IR") &&
                 Catch::Contains("does not dominate"));
}
