//===- PipelineTestUtil.h - Compiling sources in pipeline tests -----------===//
#ifndef ACCY_TESTS_UNIT_PIPELINE_PIPELINETESTUTIL_H
#define ACCY_TESTS_UNIT_PIPELINE_PIPELINETESTUTIL_H

#include "accy/Pipeline/Compiler.h"

#include "mlir/IR/MLIRContext.h"

#include <map>
#include <memory>
#include <string>

namespace llvm {
class Function;
} // namespace llvm

namespace accy::test {

/// An elementwise kernel, a row reduction with its two variants, a matmul
/// and an f16 kernel: the shapes whose code differs most per target.
extern const char *const kKernelShapes;

/// An MLIR context with every dialect and pass the core registers.
std::unique_ptr<mlir::MLIRContext> makeContext();

CompileOptions defaultOptions(StageId stopAfter = StageId::Target);

/// The bytes of every kernel module of `stage`, by kernel name, without
/// the keys (which name the compiler build and the input).
std::map<std::string, std::string> kernelBytes(const Compilation &c,
                                               StageId stage);

/// True for success; consumes an error (whose message is printed).
bool succeeded(llvm::Error error);

/// The bytes of the whole product of `stage`.
std::string stageBytes(const Compilation &c, StageId stage);

/// Marks `function` as an NVPTX kernel entry (nvvm.annotations), as the
/// target stage's translation does.
void markNVPTXKernel(llvm::Function &function);

} // namespace accy::test

#endif
