//===- FuzzContext.cpp - The MLIR context the pipeline fuzzers share ------===//

#include "FuzzContext.h"

#include "accy/Pipeline/Registration.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

mlir::MLIRContext &accy::fuzz::context() {
  static mlir::MLIRContext *ctx = [] {
    mlir::DialectRegistry registry;
    accy::registerAccyDialects(registry);
    auto *c = new mlir::MLIRContext(registry,
                                    mlir::MLIRContext::Threading::DISABLED);
    c->printOpOnDiagnostic(false);
    c->printStackTraceOnDiagnostic(false);
    // Errors nobody captured would go to stderr; the fuzzers only care
    // that they are reported, not what they say.
    c->getDiagEngine().registerHandler(
        [](mlir::Diagnostic &) { return mlir::success(); });
    return c;
  }();
  return *ctx;
}
