//===- Stage.cpp - The seven stages of the Accy pipeline ------------------===//

#include "accy/Pipeline/Stage.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <vector>

using namespace accy;

namespace {
struct StageInfo {
  llvm::StringLiteral name;
  llvm::StringLiteral pipeline;
  unsigned schema;
  bool takesTargets;
};
} // namespace

/// A stage's schema changes with the form of its product: 2 for the
/// dispatch and memory stages' `choir.dispatch` regions and the memory
/// plan and kernel summary as choir attributes (ChoirKernelAttrs.td).
static const StageInfo kStageInfo[kNumStages] = {
    {"semantic", "", 1, false},
    {"contract", "accy-choir-contract", 1, false},
    {"tensor", "accy-choir-tensor", 1, false},
    {"dispatch", "accy-choir-dispatch", 2, true},
    {"memory", "accy-choir-memory", 2, false},
    {"kernel", "accy-choir-kernel", 2, false},
    {"target", "accy-choir-target", 2, true},
};

llvm::StringRef accy::stageName(StageId stage) {
  return kStageInfo[stageIndex(stage)].name;
}

std::optional<StageId> accy::parseStageName(llvm::StringRef name) {
  for (StageId stage : kAllStages)
    if (stageName(stage) == name)
      return stage;
  return std::nullopt;
}

llvm::StringRef accy::stagePipelineName(StageId stage) {
  return kStageInfo[stageIndex(stage)].pipeline;
}

unsigned accy::stageSchemaVersion(StageId stage) {
  return kStageInfo[stageIndex(stage)].schema;
}

bool accy::stageTakesTargets(StageId stage) {
  return kStageInfo[stageIndex(stage)].takesTargets;
}

std::string accy::canonicalTargetSet(StageId stage,
                                     llvm::ArrayRef<std::string> targets) {
  if (!stageTakesTargets(stage))
    return "";
  std::vector<std::string> names(targets.begin(), targets.end());
  llvm::sort(names);
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return "targets=" + llvm::join(names, ",");
}

std::optional<StageId> accy::previousStage(StageId stage) {
  if (stage == StageId::Semantic)
    return std::nullopt;
  return static_cast<StageId>(stageIndex(stage) - 1);
}

std::optional<StageId> accy::nextStage(StageId stage) {
  if (stage == StageId::Target)
    return std::nullopt;
  return static_cast<StageId>(stageIndex(stage) + 1);
}
