//===- StageOutput.cpp - A stage's IR for one kernel ----------------------===//

#include "StageOutput.h"


#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/raw_ostream.h"

using namespace accy;
using namespace accy::lsp;

llvm::Expected<std::string>
accy::lsp::findStageOutput(const CompileResult &result, llvm::StringRef kernel,
                           llvm::StringRef stage) {
  std::optional<StageId> id = parseStageName(stage);
  if (!id)
    return llvm::createStringError(
        "unknown stage '" + stage.str() +
        "' (expected semantic, contract, tensor, dispatch, memory, kernel or "
        "target)");
  if (!result.hasProduct(*id))
    return llvm::createStringError("the " + stage.str() +
                                   " stage has no product for this version "
                                   "(an earlier stage failed)");
  mlir::ModuleOp module = result.kernel(*id, kernel);
  if (!module)
    return llvm::createStringError("no kernel '" + kernel.str() +
                                   "' in the " + stage.str() + " product");
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, mlir::OpPrintingFlags().enableDebugInfo(false));
  os.flush();
  return text;
}
