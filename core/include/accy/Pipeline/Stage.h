//===- Stage.h - The seven stages of the Accy pipeline ----------*- C++ -*-===//
#ifndef ACCY_PIPELINE_STAGE_H
#define ACCY_PIPELINE_STAGE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <optional>
#include <string>

namespace accy {

enum class StageId { Semantic, Contract, Tensor, Dispatch, Memory, Kernel, Target };

inline constexpr int kNumStages = 7;

inline constexpr std::array<StageId, kNumStages> kAllStages = {
    StageId::Semantic, StageId::Contract, StageId::Tensor, StageId::Dispatch,
    StageId::Memory,   StageId::Kernel,   StageId::Target};

/// "semantic", "contract", ... as used in file names and on the command line.
llvm::StringRef stageName(StageId stage);
std::optional<StageId> parseStageName(llvm::StringRef name);

/// The registered pass pipeline of a stage ("accy-choir-contract", ...);
/// empty for the semantic stage, which is the frontend.
llvm::StringRef stagePipelineName(StageId stage);

/// Bumped whenever a stage's product format changes; part of every key.
unsigned stageSchemaVersion(StageId stage);

/// True for the stages whose pipeline takes the list of targets.
bool stageTakesTargets(StageId stage);

/// What of `targets` a stage's output depends on, as text for its keys:
/// "targets=A,B" (sorted, each once) for the stages that take targets, ""
/// for the others. A set: what the dispatch and target stages make does not
/// depend on the order the targets are named in (the plan orders them
/// itself), and a later step that knows them only from the plan computes
/// the same key.
std::string canonicalTargetSet(StageId stage,
                               llvm::ArrayRef<std::string> targets);

inline int stageIndex(StageId stage) { return static_cast<int>(stage); }
std::optional<StageId> previousStage(StageId stage);
std::optional<StageId> nextStage(StageId stage);

} // namespace accy

#endif // ACCY_PIPELINE_STAGE_H
