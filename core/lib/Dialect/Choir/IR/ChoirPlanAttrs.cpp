//===- ChoirPlanAttrs.cpp - Verifiers of the dispatch plans ---------------===//

#include "accy/Dialect/Choir/IR/ChoirAttrs.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"

using namespace mlir;
using namespace accy::choir;

LogicalResult MemberAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 int64_t id, DispatchRole) {
  if (id < 0)
    return emitError() << "dispatch id " << id << " is negative";
  return success();
}

static bool allPositive(ArrayRef<int64_t> values) {
  return llvm::all_of(values, [](int64_t value) { return value > 0; });
}

LogicalResult LaunchAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, DenseI64ArrayAttr block,
    DenseI64ArrayAttr tile, int64_t subgroup, int64_t workgroupMemory,
    int64_t rowsPerBlock, int64_t subgroupRowsUpTo, int64_t linesPerBlock,
    int64_t threadLinesFrom, int64_t lineTile, int64_t splitLinesBelow,
    int64_t lineChunks, bool, DenseI64ArrayAttr mma, int64_t stages) {
  if (!block || block.size() != 3 || !allPositive(block.asArrayRef()))
    return emitError() << "block must be three positive sizes (x, y, z)";
  if (!tile || tile.empty() || !allPositive(tile.asArrayRef()))
    return emitError() << "tile must be one or more positive sizes";
  if (subgroup <= 0 || !llvm::isPowerOf2_64(subgroup))
    return emitError() << "subgroup " << subgroup
                       << " is not a positive power of two";
  if (workgroupMemory < 0 || rowsPerBlock < 0 || subgroupRowsUpTo < 0 ||
      linesPerBlock < 0 || threadLinesFrom < 0 || lineTile < 0 ||
      splitLinesBelow < 0 || lineChunks < 0)
    return emitError() << "launch sizes must not be negative";
  if (lineChunks && !linesPerBlock)
    return emitError() << "line_chunks needs lines_per_block";
  if (mma && (mma.size() != 3 || !allPositive(mma.asArrayRef())))
    return emitError() << "mma must be three positive sizes (M, N, K)";
  if (mma && (tile.size() != 3 || stages <= 0))
    return emitError() << "mma needs tile = [BM, BN, BK] and stages";
  if (!mma && stages)
    return emitError() << "stages needs mma";
  return success();
}

LogicalResult PlanAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               Schedule schedule, StringAttr combiner,
                               ContractionLoopsAttr contraction,
                               ScanLoopsAttr scan, DictionaryAttr targets) {
  bool combines =
      schedule == Schedule::RowReduction || schedule == Schedule::Scan;
  if (combines && !combiner)
    return emitError() << "a " << stringifySchedule(schedule)
                       << " plan needs a combiner";
  if (!contraction != (schedule != Schedule::TiledContraction))
    return emitError() << "contraction loops belong to tiled_contraction "
                          "plans, and every such plan has them";
  if (!scan != (schedule != Schedule::Scan))
    return emitError()
           << "scan loops belong to scan plans, and every such plan has them";
  if (!targets)
    return emitError() << "a plan needs targets";
  for (NamedAttribute target : targets) {
    if (llvm::isa<SerialLoopsAttr>(target.getValue()))
      continue;
    auto launch = llvm::dyn_cast<LaunchAttr>(target.getValue());
    if (!launch)
      return emitError() << "target '" << target.getName().getValue()
                         << "' is neither #choir.launch nor "
                            "#choir.serial_loops";
    auto onlyFor = [&](Schedule owner, bool set,
                       StringRef fields) -> LogicalResult {
      if (!set || schedule == owner)
        return success();
      return emitError() << "target '" << target.getName().getValue()
                         << "': " << fields << " belong to "
                         << stringifySchedule(owner) << " plans only";
    };
    if (failed(onlyFor(Schedule::RowReduction,
                       launch.getRowsPerBlock() || launch.getSubgroupRowsUpTo(),
                       "rows_per_block, subgroup_rows_up_to")) ||
        failed(onlyFor(Schedule::Scan,
                       launch.getLinesPerBlock() ||
                           launch.getThreadLinesFrom() ||
                           launch.getLineTile() ||
                           launch.getSplitLinesBelow() || launch.getShuffleUp(),
                       "lines_per_block, thread_lines_from, line_tile, "
                       "split_lines_below, shuffle_up")))
      return failure();
  }
  return success();
}

LaunchAttr PlanAttr::getLaunch(StringRef target) const {
  return getTargets().getAs<LaunchAttr>(target);
}
