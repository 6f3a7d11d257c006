//===- accy-opt.cpp - mlir-opt with the Accy dialects and passes ----------===//
//
// The lit tests of every stage drive single passes and stage pipelines
// through this tool, the way MLIR's own tests use mlir-opt.
//
//===----------------------------------------------------------------------===//

#include "accy/Pipeline/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  accy::registerAccyDialects(registry);
  accy::registerAccyPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Accy optimizer driver\n", registry));
}
