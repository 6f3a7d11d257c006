//===- CanonicalizeTests.cpp - canonicalize with a shared pattern set -----===//

#include <catch2/catch.hpp>

#include "accy/Transforms/Canonicalize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {
/// `text` canonicalized by a new pass manager, as MLIR text.
std::string canonicalize(MLIRContext &context, llvm::StringRef text) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
  REQUIRE(module);
  PassManager pm(&context);
  pm.addPass(accy::createCanonicalizePass());
  REQUIRE(succeeded(pm.run(*module)));
  std::string printed;
  llvm::raw_string_ostream os(printed);
  module->print(os);
  return printed;
}
} // namespace

TEST_CASE("canonicalize gathers again when a dialect is loaded",
          "[canonicalize]") {
  DialectRegistry registry;
  registry.insert<arith::ArithDialect, func::FuncDialect, scf::SCFDialect>();
  accy::registerCanonicalizePatternCache(registry);
  MLIRContext context(registry);

  // The shared set is made while scf is not loaded...
  std::string first = canonicalize(context, R"mlir(
    func.func @f(%a: i32, %b: i32) -> i32 {
      %r = arith.addi %a, %b : i32
      return %r : i32
    })mlir");
  CHECK(llvm::StringRef(first).contains("arith.addi"));
  REQUIRE_FALSE(context.getLoadedDialect<scf::SCFDialect>());

  // ...and parsing scf loads it: scf.if's patterns (a constant condition
  // keeps only its branch) are in the set the next pass uses.
  std::string second = canonicalize(context, R"mlir(
    func.func @g(%a: i32, %b: i32) -> i32 {
      %true = arith.constant true
      %r = scf.if %true -> i32 {
        scf.yield %a : i32
      } else {
        scf.yield %b : i32
      }
      return %r : i32
    })mlir");
  CHECK_FALSE(llvm::StringRef(second).contains("scf.if"));
  CHECK(llvm::StringRef(second).contains("return %arg0"));
}
