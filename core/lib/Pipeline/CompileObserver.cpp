//===- CompileObserver.cpp - What a compile reports as it runs ------------===//

#include "accy/Pipeline/CompileObserver.h"

using namespace accy;

CompileObserver::~CompileObserver() = default;
void CompileObserver::stageStarted(StageId) {}
void CompileObserver::kernelDone(StageId, const KernelStageRecord &) {}
void CompileObserver::stageDone(const StageRecord &) {}
