//===- CheckCommand.cpp - accyc check and accyc show ----------------------===//

#include "Commands.h"
#include "Report.h"

#include "accy/Pipeline/StageFile.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

using namespace accy;
using namespace accy::driver;

int accy::driver::runCheck(mlir::MLIRContext &context, const Options &options) {
  CompileOptions co = compileOptionsFor(options);
  // Checking stops after the frontend unless asked to go further.
  co.stopAfter = options.compileTo.value_or(StageId::Semantic);
  Compiler compiler(context, co);
  Compilation c = compiler.compileFile(options.inputs.front());
  unsigned errors = printDiagnostics(c, options);
  printReports(llvm::outs(), c.records(), options);
  return errors || !c.succeeded() ? ExitDiagnostics : ExitOk;
}

int accy::driver::runShow(mlir::MLIRContext &context, const Options &options) {
  const std::string &input = options.inputs.front();
  mlir::OpPrintingFlags flags;
  if (llvm::StringRef(input).ends_with(".accy")) {
    CompileOptions co = compileOptionsFor(options);
    co.stopAfter = options.compileTo.value_or(StageId::Semantic);
    Compiler compiler(context, co);
    Compilation c = compiler.compileFile(input);
    if (!c.succeeded()) {
      printDiagnostics(c, options);
      return ExitDiagnostics;
    }
    c.product(*c.lastStage())->print(llvm::outs(), flags);
    llvm::outs() << "\n";
    return ExitOk;
  }
  auto product = readProductFile(context, input);
  if (!product) {
    llvm::errs() << "accyc: " << llvm::toString(product.takeError()) << "\n";
    return ExitDiagnostics;
  }
  // Stage files are read unverified (StageFile.h); an op's printer may
  // rely on what its verifier checks. The verifier reports on stderr.
  if (mlir::failed(mlir::verify(**product)))
    return ExitDiagnostics;
  (*product)->print(llvm::outs(), flags);
  llvm::outs() << "\n";
  return ExitOk;
}
