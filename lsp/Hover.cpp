//===- Hover.cpp - Hover on kernels, names and expressions ----------------===//

#include "Hover.h"

#include "AstLookup.h"
#include "StageLocator.h"

#include "accy/Pipeline/Hashing.h"

#include "llvm/Support/FormatVariadic.h"

using namespace accy;
using namespace accy::lsp;

/// "(x: f32[N, D]) -> f32[N, D]".
static std::string signatureOf(const FunctionBase &item) {
  std::string out = "(";
  for (size_t i = 0; i < item.params.size(); ++i) {
    if (i)
      out += ", ";
    out += item.params[i]->name + ": " + item.params[i]->type.str();
  }
  out += ") -> ";
  if (item.results.size() == 1)
    return out + item.results.front().str();
  out += "(";
  for (size_t i = 0; i < item.results.size(); ++i)
    out += (i ? ", " : "") + item.results[i].str();
  return out + ")";
}

static std::string codeBlock(const std::string &text) {
  return "```accy\n" + text + "\n```";
}

/// The seven stages of one kernel: a Markdown table.
static std::string stageTable(const CompileResult &compiled,
                              llvm::StringRef kernel) {
  std::string out = "| stage | status | fingerprint | product key | stage "
                    "time (ms) | pass runs |\n|---|---|---|---|---:|---:|\n";
  for (StageId stage : kAllStages) {
    if (stage == StageId::Target && !compiled.complete()) {
      out += "| target | generating code | - | - | - | - |\n";
      continue;
    }
    const StageRecord &record = compiled.record(stage);
    const KernelStageRecord *mine = nullptr;
    for (const KernelStageRecord &k : record.kernels)
      if (k.kernel == kernel)
        mine = &k;
    StageStatus status = mine ? mine->status : record.status;
    bool made = mine && (status == StageStatus::Compiled ||
                         status == StageStatus::Reused);
    std::string runs = stage == StageId::Semantic
                           ? "-"
                           : std::to_string(record.stats.passRuns);
    out += llvm::formatv("| {0} | {1} | {2} | {3} | {4:F2} | {5} |\n",
                         stageName(stage),
                         // "stored": from the kernel store on disk
                         mine ? mine->statusName() : stageStatusName(status),
                         made ? "`" + fingerprintHex(mine->fingerprint) + "`"
                              : std::string("-"),
                         made ? "`" + mine->key + "`" : std::string("-"),
                         record.seconds * 1e3, runs)
               .str();
  }
  return out;
}

static std::string kernelHover(const FunctionBase &kernel,
                               const CompileResult *compiled) {
  std::string out = codeBlock("kernel " + kernel.name + signatureOf(kernel));
  if (!compiled)
    return out + "\n\nThe stages have not run for this version.";
  out += "\n\n" + stageTable(*compiled, kernel.name);
  return out;
}

static std::string describeType(const TensorType &type) {
  std::string out = "`" + type.str() + "`: element type `" +
                    elemTypeName(type.elem).str() + "`";
  if (type.isScalar())
    return out + ", a scalar";
  return out + ", shape `" + shapeStr(type.shape) + "` (rank " +
         std::to_string(type.rank()) + ")";
}

static std::string expressionHover(const AstSelection &selection,
                                   const CompileResult *compiled) {
  const Expr &e = *selection.expr;
  std::string out = "**" + exprKindName(e.getKind()).str() + " expression** " +
                    describeType(e.type);
  if (!selection.itemIsKernel)
    return out + "\n\nIn fn `" + selection.item->name +
           "`: it lands in the kernels that call it.";
  out += "\n\nIn kernel `" + selection.item->name + "`";
  if (!compiled)
    return out + "; the stages have not run for this version.";
  ExpressionLanding landing = locateExpression(
      *compiled, selection.item->name, e.range.begin, e.range.end);
  if (!landing.dispatch)
    return out + (compiled->hasProduct(StageId::Dispatch)
                      ? "; no dispatch computes it on its own (folded or "
                        "fused away)."
                      : "; the dispatch stage did not run.");
  out += ", dispatch #" + std::to_string(*landing.dispatch);
  if (!landing.schedule.empty())
    out += " (schedule `" + landing.schedule + "`)";
  if (landing.gpuKernels.empty())
    return out + ".";
  out += ".\n\nGPU kernels:";
  for (const auto &[target, name] : landing.gpuKernels) {
    auto tiling = landing.tiling.find(target);
    out += " `" + name + "` (" + target +
           (tiling == landing.tiling.end() ? "" : ": " + tiling->second) + ")";
  }
  return out;
}

static std::optional<std::string> nameHover(const AstSelection &selection) {
  if (selection.let)
    return codeBlock("let " + selection.let->name + ": " +
                     selection.let->type().str());
  if (selection.param)
    return codeBlock(selection.param->name + ": " +
                     selection.param->type.str()) +
           "\n\nparameter " + std::to_string(selection.param->index) + " of `" +
           selection.item->name + "`";
  if (selection.constDecl)
    return codeBlock("const " + selection.constDecl->name + " = " +
                     selection.constDecl->value.str());
  if (selection.item && selection.onItemName && !selection.itemIsKernel)
    return codeBlock("fn " + selection.item->name +
                     signatureOf(*selection.item));
  if (!selection.expr)
    return std::nullopt;
  // A reference to a name is a name too.
  const Expr &e = *selection.expr;
  if (auto *let = llvm::dyn_cast<LetRefExpr>(&e))
    return codeBlock("let " + let->let->name + ": " + e.type.str());
  if (auto *param = llvm::dyn_cast<ParamRefExpr>(&e))
    return codeBlock(param->param->name + ": " + e.type.str());
  if (auto *c = llvm::dyn_cast<ConstRefExpr>(&e))
    return codeBlock("const " + c->decl->name + " = " + c->decl->value.str() +
                     " (as " + e.type.str() + ")");
  return std::nullopt;
}

HoverNeed accy::lsp::hoverNeed(const Analysis &analysis, Position position) {
  AstSelection selection = selectAt(analysis, analysis.offsetOf(position));
  if (selection.item && selection.itemIsKernel && selection.onItemName)
    return HoverNeed::StageRecords;
  if (nameHover(selection))
    return HoverNeed::Frontend;
  if (selection.expr && selection.itemIsKernel)
    return HoverNeed::StageProducts;
  return selection.expr ? HoverNeed::Frontend : HoverNeed::Nothing;
}

std::optional<Hover> accy::lsp::findHover(const Analysis &analysis,
                                          const CompileResult *compiled,
                                          Position position) {
  AstSelection selection = selectAt(analysis, analysis.offsetOf(position));
  if (selection.item && selection.itemIsKernel && selection.onItemName)
    return Hover{kernelHover(*selection.item, compiled),
                 analysis.rangeOf(selection.item->nameRange)};
  if (std::optional<std::string> text = nameHover(selection)) {
    std::optional<Range> range;
    if (selection.expr)
      range = analysis.rangeOf(selection.expr->range);
    return Hover{*text, range};
  }
  if (!selection.expr)
    return std::nullopt;
  return Hover{expressionHover(selection, compiled),
               analysis.rangeOf(selection.expr->range)};
}
