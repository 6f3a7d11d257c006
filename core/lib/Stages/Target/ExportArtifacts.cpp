//===- ExportArtifacts.cpp - Target product artifacts as files ------------===//

#include "accy/CodeGen/Artifacts.h"
#include "accy/Stages/Dispatch/Plan.h"
#include "accy/Stages/Target/Passes.h"

namespace accy::target {
#define GEN_PASS_DEF_EXPORTARTIFACTS
#include "accy/Stages/Target/Passes.h.inc"
} // namespace accy::target

using namespace mlir;
using namespace accy;

namespace {

struct ExportArtifactsPass
    : public accy::target::impl::ExportArtifactsBase<ExportArtifactsPass> {
  using Base::Base;

  void runOnOperation() override {
    markAllAnalysesPreserved();
    std::vector<ModuleOp> kernels = getKernelModules(getOperation());
    if (kernels.empty()) {
      getOperation().emitError("no kernel module to export");
      return signalPassFailure();
    }
    auto fail = [&](llvm::Error error) {
      getOperation().emitError() << llvm::toString(std::move(error));
      signalPassFailure();
    };
    if (!perKernel) {
      auto artifacts = codegen::linkFileArtifacts(kernels, stem);
      if (!artifacts)
        return fail(artifacts.takeError());
      if (llvm::Error error =
              codegen::writeArtifacts(*artifacts, directory, stem))
        return fail(std::move(error));
      return;
    }
    for (ModuleOp kernel : kernels) {
      auto artifacts = codegen::extractArtifacts(kernel);
      if (!artifacts)
        return fail(artifacts.takeError());
      std::string kernelStem = (stem + "." + getKernelName(kernel)).str();
      if (llvm::Error error =
              codegen::writeArtifacts(*artifacts, directory, kernelStem))
        return fail(std::move(error));
    }
  }
};

} // namespace
