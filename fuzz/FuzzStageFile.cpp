//===- FuzzStageFile.cpp - libFuzzer target: reading stage files ----------===//
//
// The bytes are written to a temporary file and read as `accyc stage` reads
// its input: readProductFile (MLIR bytecode or text), then the product is
// checked to belong to the stage it names (verifyProduct, via
// Compiler::compileFrom) and the next stage runs on it. Corrupt or
// truncated files must give an error, never a crash.
//
//===----------------------------------------------------------------------===//

#include "FuzzContext.h"

#include "accy/Pipeline/BuildId.h"
#include "accy/Pipeline/Compiler.h"
#include "accy/Pipeline/StageFile.h"
#include "accy/ProductAttributes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <unistd.h>

using namespace accy;

static const std::string &scratchPath() {
  static const std::string path = [] {
    const char *dir = std::getenv("TMPDIR");
    std::string p = (dir && *dir) ? dir : "/tmp";
    p += "/accy-fuzz-stagefile." + std::to_string(::getpid()) + ".mlirbc";
    return p;
  }();
  return path;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string &path = scratchPath();
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec)
      return 0;
    os.write(reinterpret_cast<const char *>(data), size);
  }
  mlir::MLIRContext &context = fuzz::context();
  auto product = readProductFile(context, path);
  llvm::sys::fs::remove(path);
  if (!product) {
    llvm::consumeError(product.takeError());
    return 0;
  }
  // The stage the file claims to be; `accyc stage` is told it instead, and
  // compileFrom checks the claim.
  StageId from = StageId::Semantic;
  mlir::ModuleOp module = product->get();
  if (auto stage = module->getAttrOfType<mlir::StringAttr>(kStageAttr))
    if (auto id = parseStageName(stage.getValue()))
      from = *id;
  CompileOptions options;
  for (const char *target : fuzz::kAllTargets)
    options.stages.targets.push_back(target);
  options.stages.buildId = compilerBuildId();
  options.stages.verifyEachPass = true;
  options.stopAfter = nextStage(from).value_or(from);
  Compiler compiler(context, options);
  Compilation c = compiler.compileFrom(std::move(*product), from, SourceMap());
  (void)c.failures();
  return 0;
}
