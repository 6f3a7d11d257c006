//===- CodeLens.cpp - A lens on each kernel: its last compile -------------===//

#include "CodeLens.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>

using namespace accy;
using namespace accy::lsp;

/// "compiled in 12.3 ms · reused: contract, tensor · stored: target". The
/// semantic stage is the document's, not the kernel's (it always runs), so
/// only the stages after it are listed. The time is that of the stages
/// that compiled the kernel: a stage compiles its kernels in parallel, and
/// records no time per kernel.
static std::string lensTitle(const CompileResult &compiled,
                             llvm::StringRef kernel) {
  std::map<std::string, std::vector<llvm::StringRef>> byStatus;
  double compiledSeconds = 0;
  bool seen = false;
  for (StageId stage : kAllStages) {
    if (stage == StageId::Semantic ||
        (stage == StageId::Target && !compiled.complete()))
      continue;
    const StageRecord &record = compiled.record(stage);
    for (const KernelStageRecord &k : record.kernels) {
      if (k.kernel != kernel)
        continue;
      seen = true;
      byStatus[k.statusName().str()].push_back(stageName(stage));
      if (k.status == StageStatus::Compiled && !k.fromStore)
        compiledSeconds += record.seconds;
    }
  }
  // An error before the stages (or in another kernel) stopped them.
  if (!seen)
    return "not compiled: the stages did not reach it";
  std::vector<std::string> parts;
  if (byStatus.count("compiled"))
    parts.push_back(
        llvm::formatv("compiled in {0:F1} ms", compiledSeconds * 1e3).str());
  for (llvm::StringRef status : {"reused", "stored", "failed"})
    if (auto it = byStatus.find(status.str()); it != byStatus.end())
      parts.push_back(status.str() + ": " + llvm::join(it->second, ", "));
  if (!compiled.complete())
    parts.push_back("target: generating code");
  return llvm::join(parts, " · ");
}

std::vector<CodeLens> accy::lsp::findCodeLenses(const Analysis &analysis,
                                                const CompileResult *compiled) {
  std::vector<CodeLens> lenses;
  const SourceModule *module = analysis.mainModule();
  if (!module || !module->syntax)
    return lenses;
  const std::string &uri = analysis.document().uri;
  for (const syntax::FunctionDecl &decl : module->syntax->functions) {
    if (!decl.isKernel)
      continue;
    Range at = analysis.rangeOf(decl.nameRange);
    std::string title =
        compiled ? lensTitle(*compiled, decl.name) : "not compiled yet";
    lenses.push_back({at, title, "accy.showTimeline", {uri}});
    lenses.push_back(
        {at, "Show stage output", "accy.showStageOutput", {uri, decl.name}});
  }
  return lenses;
}
