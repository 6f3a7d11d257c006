//===- SharedCodegenTests.cpp - Equal code generated once -----------------===//
//
// PTX code is compiled under canonical names: each piece gets back the
// bytes it would get under its own (PTX, LLVM's messages, bitcode), and two
// kernels equal but for their names have equal IR under them. Pieces of
// equal IR join one code generation while it is open: it runs once, on the
// first thread that asks, and closes once optimized; a piece whose equal
// already started opens one of its own.
//
//===----------------------------------------------------------------------===//

#include <catch2/catch.hpp>

#include "PipelineTestUtil.h"

#include "accy/CodeGen/CanonicalNames.h"
#include "accy/CodeGen/CodeGen.h"
#include "accy/CodeGen/SharedCodegen.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace accy;
using namespace accy::test;

namespace {

/// A kernel module named as the kernel stage names it: entry
/// `<kernel>_k0` stores `__accy_<kernel>_scale(x)` of its thread's float
/// through the workgroup global `__wg_<kernel>_k0_0`; the internal scale
/// multiplies by `factor`. Two kernels differ in their names alone.
std::unique_ptr<llvm::Module> makeKernel(llvm::LLVMContext &context,
                                         llvm::StringRef kernel,
                                         double factor = 3.0) {
  auto module =
      std::make_unique<llvm::Module>((kernel + ".sm_90").str(), context);
  module->setSourceFileName(module->getModuleIdentifier());
  llvm::Type *f32 = llvm::Type::getFloatTy(context);
  auto *staged = new llvm::GlobalVariable(
      *module, f32, false, llvm::GlobalValue::InternalLinkage,
      llvm::UndefValue::get(f32), ("__wg_" + kernel + "_k0_0").str(), nullptr,
      llvm::GlobalValue::NotThreadLocal, 3);
  auto *scale =
      llvm::Function::Create(llvm::FunctionType::get(f32, {f32}, false),
                             llvm::Function::InternalLinkage,
                             ("__accy_" + kernel + "_scale").str(), *module);
  scale->addFnAttr(llvm::Attribute::NoInline);
  {
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "entry", scale));
    b.CreateRet(
        b.CreateFMul(scale->getArg(0), llvm::ConstantFP::get(f32, factor)));
  }
  auto *entry = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(context),
                              {llvm::PointerType::get(context, 1)}, false),
      llvm::Function::ExternalLinkage, (kernel + "_k0").str(), *module);
  {
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "entry", entry));
    llvm::Value *thread =
        b.CreateIntrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x, {}, {});
    llvm::Value *address = b.CreateGEP(f32, entry->getArg(0),
                                       {b.CreateZExt(thread, b.getInt64Ty())});
    b.CreateStore(b.CreateLoad(f32, address), staged);
    b.CreateStore(b.CreateCall(scale, {b.CreateLoad(f32, staged)}), address);
    b.CreateRetVoid();
  }
  markNVPTXKernel(*entry);
  return module;
}

const TargetProfile &sm90() {
  auto profile = lookupTargetProfile("sm_90");
  REQUIRE(succeeded(profile.takeError()));
  return *profile;
}

/// The PTX and bitcode of `module`, optimized.
std::pair<std::string, std::string>
compile(llvm::Module &module, const codegen::CanonicalNames &names) {
  REQUIRE(succeeded(codegen::optimizeModule(module, sm90())));
  std::string bitcode = names.writeBitcode(module);
  auto ptx = codegen::emitObjectCode(module, sm90());
  REQUIRE(succeeded(ptx.takeError()));
  return {names.restore(*ptx), bitcode};
}

} // namespace

TEST_CASE("a piece compiled under canonical names gets the same bytes",
          "[shared-codegen]") {
  llvm::LLVMContext context;
  auto plain = makeKernel(context, "softmax");
  auto [plainPTX, plainBitcode] = compile(*plain, codegen::CanonicalNames());

  auto renamed = makeKernel(context, "softmax");
  codegen::CanonicalNames names = codegen::CanonicalNames::apply(*renamed);
  REQUIRE(names.renamed());
  // Definitions are renamed, functions then globals in module order;
  // declarations keep their names.
  CHECK(renamed->getFunction("__accy_sym_00000")); // the scale
  CHECK(renamed->getFunction("__accy_sym_00001")); // the entry
  CHECK(renamed->getNamedGlobal("__accy_sym_00002"));
  CHECK(renamed->getFunction("llvm.nvvm.read.ptx.sreg.tid.x"));
  CHECK(renamed->getModuleIdentifier() == "accy.piece");
  auto [ptx, bitcode] = compile(*renamed, names);
  CHECK(ptx.find(".visible .entry softmax_k0(") != std::string::npos);
  CHECK(ptx.find("softmax_k0_param_0") != std::string::npos);
  CHECK(ptx == plainPTX);
  CHECK(bitcode == plainBitcode);
  // The module keeps its canonical names once its bitcode is written.
  CHECK(renamed->getFunction("__accy_sym_00001"));
}

TEST_CASE("kernels equal but for their names are equal under canonical "
          "names",
          "[shared-codegen]") {
  llvm::LLVMContext context;
  auto a = makeKernel(context, "softmax");
  auto b = makeKernel(context, "softmax_builtin");
  auto c = makeKernel(context, "softmax_twice", 2.0);
  CHECK(codegen::writeBitcode(*a) != codegen::writeBitcode(*b));
  REQUIRE(codegen::CanonicalNames::apply(*a).renamed());
  REQUIRE(codegen::CanonicalNames::apply(*b).renamed());
  REQUIRE(codegen::CanonicalNames::apply(*c).renamed());
  CHECK(codegen::writeBitcode(*a) == codegen::writeBitcode(*b));
  CHECK(codegen::writeBitcode(*a) != codegen::writeBitcode(*c));
}

TEST_CASE("canonical names come back in text, also inside longer names",
          "[shared-codegen]") {
  llvm::LLVMContext context;
  auto module = makeKernel(context, "k");
  codegen::CanonicalNames names = codegen::CanonicalNames::apply(*module);
  CHECK(names.restore("call __accy_sym_00000, (__accy_sym_00001_param_0);") ==
        "call __accy_k_scale, (k_k0_param_0);");
  CHECK(names.restore("__accy_sym_00000.part.0") == "__accy_k_scale.part.0");
  // Not a canonical name of this piece: left as it is.
  CHECK(names.restore("__accy_sym_0001 __accy_sym_00009 __accy_sym_") ==
        "__accy_sym_0001 __accy_sym_00009 __accy_sym_");
  CHECK(codegen::CanonicalNames().restore("__accy_sym_00001") ==
        "__accy_sym_00001");
}

TEST_CASE("a module that already uses the canonical prefix keeps its names",
          "[shared-codegen]") {
  llvm::LLVMContext context;
  auto module = makeKernel(context, "__accy_sym_");
  codegen::CanonicalNames names = codegen::CanonicalNames::apply(*module);
  CHECK_FALSE(names.renamed());
  CHECK(module->getFunction("__accy_sym__k0"));
  CHECK(module->getModuleIdentifier() == "__accy_sym_.sm_90");
}

namespace {

/// A piece as the serialize pass keeps it.
struct TestPiece {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module;
  codegen::CanonicalNames names;
  codegen::PieceCode code;

  explicit TestPiece(llvm::StringRef kernel, double factor = 3.0)
      : module(makeKernel(context, kernel, factor)),
        names(codegen::CanonicalNames::apply(*module)) {}

  codegen::SharedCodegen::Recipient recipient() { return {&names, &code}; }
};

/// What a code generation gives each of its recipients: the kernel's entry
/// line under the recipient's names and `suffix`, after `before` ran once
/// optimized.
template <typename Count>
void generateEntryLine(codegen::SharedCodegen &shared, Count &runs,
                       const std::function<void()> &before = {},
                       const std::string &suffix = "") {
  ++runs;
  if (before)
    before();
  for (const codegen::SharedCodegen::Recipient &recipient : shared.close())
    recipient.code->code =
        recipient.names->restore("entry __accy_sym_00001" + suffix);
}

} // namespace

TEST_CASE("pieces of equal IR share one code generation while it is open",
          "[shared-codegen]") {
  TestPiece a("softmax"), b("softmax_builtin"), other("other", 2.0);
  int runs = 0;
  std::shared_ptr<codegen::SharedCodegen> shared;
  bool opened;
  shared = codegen::SharedCodegen::join(
      "sm_90", *a.module, a.recipient(),
      [&](codegen::SharedCodegen &self) { generateEntryLine(self, runs); },
      opened);
  CHECK(opened);
  bool bOpened;
  auto joined = codegen::SharedCodegen::join("sm_90", *b.module, b.recipient(),
                                             {}, bOpened);
  CHECK_FALSE(bOpened);
  CHECK(joined == shared);
  // Another target, or other IR, is another code generation.
  bool otherOpened, amdOpened;
  auto forOther = codegen::SharedCodegen::join(
      "sm_90", *other.module, other.recipient(),
      [](codegen::SharedCodegen &) {}, otherOpened);
  auto forAMD = codegen::SharedCodegen::join(
      "gfx942", *b.module, b.recipient(), [](codegen::SharedCodegen &) {},
      amdOpened);
  CHECK(otherOpened);
  CHECK(amdOpened);
  forOther->run();
  forAMD->run();

  // The thread that asks first runs it; the other finds it done.
  shared->runOrWait();
  shared->run();
  CHECK(runs == 1);
  CHECK(a.code.code == "entry softmax_k0");
  CHECK(b.code.code == "entry softmax_builtin_k0");

  // Once closed, an equal piece opens another.
  TestPiece late("late");
  bool lateOpened;
  auto again = codegen::SharedCodegen::join(
      "sm_90", *late.module, late.recipient(), [](codegen::SharedCodegen &) {},
      lateOpened);
  CHECK(lateOpened);
  again->run();
}

TEST_CASE("a piece does not join a code generation that has started",
          "[shared-codegen]") {
  // Its IR is being optimized in place: there is nothing to compare.
  TestPiece a("first"), b("second"), c("third");
  int runs = 0, secondRuns = 0;
  bool opened, secondOpened = false, thirdOpened = true;
  std::shared_ptr<codegen::SharedCodegen> shared, second;
  shared = codegen::SharedCodegen::join(
      "sm_90", *a.module, a.recipient(),
      [&](codegen::SharedCodegen &self) {
        generateEntryLine(self, runs, [&] {
          second = codegen::SharedCodegen::join(
              "sm_90", *b.module, b.recipient(),
              [&](codegen::SharedCodegen &self) {
                generateEntryLine(self, secondRuns);
              },
              secondOpened);
          // An equal piece joins the one that has not started.
          codegen::SharedCodegen::join("sm_90", *c.module, c.recipient(), {},
                                       thirdOpened);
        });
      },
      opened);
  REQUIRE(opened);
  std::thread([&] { shared->runOrWait(); }).join();
  CHECK(secondOpened);
  CHECK_FALSE(thirdOpened);
  second->runOrWait();
  CHECK(runs == 1);
  CHECK(secondRuns == 1);
  CHECK(a.code.code == "entry first_k0");
  CHECK(b.code.code == "entry second_k0");
  CHECK(c.code.code == "entry third_k0");
}

TEST_CASE("threads that join and run at once each get their own code once",
          "[shared-codegen]") {
  // Eight threads of six pieces of three kinds of IR each: every piece gets
  // the code of its kind under its own name, whichever thread ran it, and
  // each code generation runs once.
  constexpr int kThreads = 8, kPieces = 6;
  std::atomic<int> runs{0}, opens{0}, wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      std::vector<std::unique_ptr<TestPiece>> pieces;
      std::vector<std::shared_ptr<codegen::SharedCodegen>> shared;
      std::vector<bool> opened;
      for (int i = 0; i < kPieces; ++i) {
        int kind = 1 + i % 3;
        std::string name = "k" + std::to_string(t) + "_" + std::to_string(i);
        pieces.push_back(std::make_unique<TestPiece>(name, kind));
        bool open;
        shared.push_back(codegen::SharedCodegen::join(
            "sm_90", *pieces.back()->module, pieces.back()->recipient(),
            [&runs, kind](codegen::SharedCodegen &self) {
              std::this_thread::sleep_for(std::chrono::microseconds(300));
              generateEntryLine(self, runs, {}, " x" + std::to_string(kind));
            },
            open));
        opened.push_back(open);
        opens += open;
      }
      for (int i = 0; i < kPieces; ++i)
        if (opened[i])
          shared[i]->run();
      for (int i = 0; i < kPieces; ++i) {
        shared[i]->runOrWait();
        std::string name = "k" + std::to_string(t) + "_" + std::to_string(i);
        if (pieces[i]->code.code !=
            "entry " + name + "_k0 x" + std::to_string(1 + i % 3))
          ++wrong;
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  CHECK(wrong == 0);
  CHECK(runs == opens);
  // Three kinds per thread at least, and fewer runs than pieces.
  CHECK(opens >= 3);
  CHECK(opens < kThreads * kPieces);
}
