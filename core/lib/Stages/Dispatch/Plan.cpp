//===- Plan.cpp - Tile, block and launch sizes of a dispatch --------------===//

#include "accy/Stages/Dispatch/Plan.h"

#include "accy/Dialect/Choir/IR/Choir.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace accy;

static int64_t elementBytes(Type type) {
  Type element = getElementTypeOrSelf(type);
  if (element.isIntOrIndexOrFloat() && !element.isIndex())
    return std::max<int64_t>(1, (element.getIntOrFloatBitWidth() + 7) / 8);
  return 8;
}

/// Elements per lane of the longest row a subgroup takes on its own: 16
/// f32 a lane is the row a subgroup holds in registers (the kernel stage
/// caches 4 runs of 4).
constexpr int64_t kSubgroupRowElementsPerLane = 16;

/// Chunks of a block's threads that each block of a line shared by
/// several blocks scans.
constexpr int64_t kScanChunksPerBlock = 16;

/// Chunks of each line of a scan along an outer axis with fewer lines than
/// fill the GPU: 32 times the lines' threads.
constexpr int64_t kScanLineChunks = 32;

static int64_t roundUp(int64_t value, int64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

std::optional<int64_t>
accy::staticTripCount(linalg::LinalgOp op,
                      llvm::function_ref<bool(unsigned loop)> selected) {
  int64_t count = 1;
  for (auto [loop, size] : llvm::enumerate(op.getStaticLoopRanges())) {
    if (!selected(loop))
      continue;
    if (ShapedType::isDynamic(size))
      return std::nullopt;
    count *= size;
  }
  return count;
}

/// Product of the static sizes of the reduction loops (or of the parallel
/// ones), or nullopt when one is dynamic.
static std::optional<int64_t>
staticIteratorTripCount(linalg::LinalgOp op, bool reductions) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  return staticTripCount(op, [&](unsigned loop) {
    return linalg::isReductionIterator(iterators[loop]) == reductions;
  });
}

/// A block of threads that is a multiple of the subgroup, no larger than the
/// profile's default and no larger than the work when that is known.
static int64_t blockSizeFor(const TargetProfile &profile,
                            std::optional<int64_t> work) {
  int64_t block = profile.defaultBlockSize;
  if (work)
    block = std::clamp<int64_t>(roundUp(std::max<int64_t>(*work, 1),
                                        profile.subgroupSize),
                                profile.subgroupSize, block);
  return block;
}

/// Threads along each side of a tiled contraction's block: each computes
/// a (tile / 16) x (tile / 16) micro-tile (8 x 8 of a 128 tile).
constexpr int64_t kContractionThreadsPerSide = 16;
/// The smallest output tile (2 x 2 outputs per thread): its 256 threads copy
/// a whole 32 x 8 operand tile, one element each.
constexpr int64_t kMinContractionTile = 32;

/// 32-bit registers a thread's accumulators may take: 8 x 8 of 32 bits,
/// 4 x 4 of 64 bits (8 x 8 of f64 needs about 240 registers of 255).
constexpr int64_t kContractionAccumulatorRegisters = 64;

/// The side of the square output tile of contraction `op`: the profile's,
/// halved while the micro-tile's accumulators take more than
/// kContractionAccumulatorRegisters, while M or N (when static) fills at
/// most half of a tile, or while the tiles of a problem of static size are
/// fewer than the target's multiprocessors.
static int64_t contractionTileFor(linalg::LinalgOp op,
                                  const DispatchShape &shape,
                                  const TargetProfile &profile) {
  int64_t accumulatorWords =
      llvm::divideCeil(elementBytes(op.getDpsInits()[0].getType()), 4);
  auto loopSize = [&](int64_t dim) {
    return staticTripCount(op, [&](unsigned loop) { return loop == dim; });
  };
  std::optional<int64_t> m = loopSize(shape.mDim), n = loopSize(shape.nDim);
  std::optional<int64_t> batch = staticTripCount(op, [&](unsigned loop) {
    return llvm::is_contained(shape.batchDims, loop);
  });
  int64_t t = profile.contractionTile;
  while (t > kMinContractionTile) {
    int64_t micro = t / kContractionThreadsPerSide;
    bool wide =
        micro * micro * accumulatorWords > kContractionAccumulatorRegisters;
    bool small = (m && *m <= t / 2) || (n && *n <= t / 2);
    bool few = m && n && batch &&
               llvm::divideCeil(*m, t) * llvm::divideCeil(*n, t) * *batch <
                   static_cast<int64_t>(profile.numComputeUnits);
    if (!wide && !small && !few)
      break;
    t /= 2;
  }
  return t;
}

namespace {
/// The per-target plan of a scan (see `accy-choir-plan-schedule`); zero
/// fields do not apply.
struct ScanPlan {
  /// Threads of a block-per-line launch, and its shared memory.
  int64_t threads = 0, sharedBytes = 0;
  /// Threads (lines) of a block where each thread walks a line; when the
  /// line count is dynamic, the lines from which this applies.
  int64_t linesPerBlock = 0, threadLinesFrom = 0;
  /// Elements of a line a block takes when several share a line; when a
  /// size is dynamic, the line count below which this applies (and only
  /// to lines of at least 2 * lineTile elements).
  int64_t lineTile = 0, splitLinesBelow = 0;
  /// Along an outer axis, below threadLinesFrom lines: the chunks of a line,
  /// a thread each.
  int64_t lineChunks = 0;
};
} // namespace

/// Whether the scanned axis is the innermost (fastest-varying) dimension of
/// the output: threads taking consecutive positions of a line then read and
/// write consecutive addresses.
static bool scansInnermost(linalg::LinalgOp op, const DispatchShape &shape) {
  AffineMap output = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (output.getNumResults() == 0)
    return true;
  auto last = dyn_cast<AffineDimExpr>(output.getResults().back());
  return !last || last.getPosition() == shape.scanAxis;
}

/// One block per line by default, walking it in chunks of the block's
/// threads (the subgroups' totals meet in shared memory). Along an outer
/// axis, with at least a subgroup of lines per multiprocessor, each thread
/// walks a line of its own instead: neighbouring threads take neighbouring
/// lines, so every step of a subgroup touches one contiguous segment. With
/// fewer lines than multiprocessors, each of at least two blocks of
/// kScanChunksPerBlock chunks, several blocks share a line. Sizes known
/// here decide; dynamic ones leave the choice to run time, by the same
/// rules, with the thresholds recorded.
static ScanPlan planScan(linalg::LinalgOp op, const DispatchShape &shape,
                         const TargetProfile &profile) {
  auto axis = static_cast<unsigned>(shape.scanAxis);
  std::optional<int64_t> length =
      staticTripCount(op, [&](unsigned loop) { return loop == axis; });
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  std::optional<int64_t> lines = staticTripCount(op, [&](unsigned loop) {
    return loop != axis && !linalg::isReductionIterator(iterators[loop]);
  });
  ScanPlan plan;
  plan.threads = blockSizeFor(profile, length);
  int64_t subgroups = plan.threads / profile.subgroupSize;
  if (subgroups > 1)
    plan.sharedBytes = subgroups * elementBytes(op.getDpsInits()[0].getType());

  // Along an outer axis, consecutive threads on consecutive lines read
  // and write contiguous segments: a thread per line where there are
  // lines enough to fill the GPU, else each line in kScanLineChunks
  // chunks, a thread each (a block per line would read a sector per
  // element).
  int64_t manyLines = profile.numComputeUnits * profile.subgroupSize;
  if (!scansInnermost(op, shape)) {
    plan.linesPerBlock = blockSizeFor(profile, lines);
    if (lines && *lines >= manyLines) {
      plan.threads = plan.linesPerBlock;
      plan.sharedBytes = 0;
      return plan;
    }
    if (!lines)
      plan.threadLinesFrom = manyLines;
    plan.lineChunks = kScanLineChunks;
  }

  int64_t lineTile = plan.threads * kScanChunksPerBlock;
  int64_t fewLines = profile.numComputeUnits;
  if ((lines && *lines >= fewLines) || (length && *length < 2 * lineTile))
    return plan;
  plan.lineTile = lineTile;
  if (!lines || !length)
    plan.splitLinesBelow = fewLines;
  return plan;
}

/// The loop indexing the innermost dimension of `operand` (a projected
/// permutation's last result), or nullopt (a scalar, a 0-d buffer, another
/// map).
static std::optional<unsigned> innermostLoop(linalg::LinalgOp op,
                                             OpOperand &operand) {
  auto type = dyn_cast<ShapedType>(operand.get().getType());
  AffineMap map = op.getMatchingIndexingMap(&operand);
  if (!type || type.getRank() == 0 || !map.isProjectedPermutation() ||
      map.getNumResults() == 0)
    return std::nullopt;
  return cast<AffineDimExpr>(map.getResults().back()).getPosition();
}

/// Whether `operand` is contiguous along a loop other than `inner` and
/// varies along `inner` too: consecutive threads along `inner` would touch
/// a sector per element. (One that does not vary along `inner` is the same
/// element for all of them.)
static std::optional<unsigned>
crossingLoop(linalg::LinalgOp op, OpOperand &operand, unsigned inner) {
  std::optional<unsigned> loop = innermostLoop(op, operand);
  if (!loop || *loop == inner ||
      !op.getMatchingIndexingMap(&operand).isFunctionOfDim(inner))
    return std::nullopt;
  return loop;
}

bool TransposedLoops::isStaged(linalg::LinalgOp op, OpOperand &operand) const {
  return crossingLoop(op, operand, inner) == across;
}

std::optional<TransposedLoops> accy::findTransposedLoops(linalg::LinalgOp op) {
  if (op.getNumLoops() < 2 || op.getNumReductionLoops() != 0 ||
      op.getNumDpsInits() == 0)
    return std::nullopt;
  std::optional<unsigned> inner = innermostLoop(op, *op.getDpsInitOperand(0));
  if (!inner)
    return std::nullopt;
  std::optional<unsigned> across;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<ShapedType>(operand.get().getType());
    if (!type || type.getRank() == 0)
      continue;
    // The kernel reads no output's old value, and stages integers and
    // floats.
    Type element = type.getElementType();
    if ((op.isDpsInit(&operand) &&
         !op.getMatchingBlockArgument(&operand).use_empty()) ||
        !element.isIntOrFloat())
      return std::nullopt;
    if (!innermostLoop(op, operand))
      return std::nullopt;
    std::optional<unsigned> loop = crossingLoop(op, operand, *inner);
    if (loop && across && *loop != *across)
      return std::nullopt;
    if (loop)
      across = loop;
  }
  if (!across)
    return std::nullopt;
  for (unsigned loop : {*inner, *across}) {
    std::optional<int64_t> size =
        staticTripCount(op, [&](unsigned other) { return other == loop; });
    if (size && *size < kTransposeTile)
      return std::nullopt;
  }
  return TransposedLoops{*inner, *across};
}

choir::PlanAttr accy::planDispatch(linalg::LinalgOp op,
                                   ArrayRef<const TargetProfile *> targets,
                                   const RowPipeline &pipeline) {
  MLIRContext *context = op.getContext();
  Builder b(context);
  DispatchShape shape = classifyDispatch(op);
  SmallVector<NamedAttribute> perTarget;
  for (const TargetProfile *profile : targets) {
    if (!profile->isGPU()) {
      perTarget.push_back(
          b.getNamedAttr(profile->name, choir::SerialLoopsAttr::get(context)));
      continue;
    }
    int64_t sharedBytes = 0;
    SmallVector<int64_t> block, tile;
    int64_t rowsPerBlock = 0, subgroupRowsUpTo = 0;
    ScanPlan scan;
    DenseI64ArrayAttr mma;
    int64_t stages = 0;
    switch (shape.schedule) {
    case Schedule::Elementwise:
      if (std::optional<TransposedLoops> loops = findTransposedLoops(op)) {
        block = {kTransposeTile * kTransposeRows, 1, 1};
        tile = {kTransposeTile, kTransposeTile};
        // A tile of each staged operand, a column wider than the tile so
        // that the threads reading a column of it hit distinct banks.
        for (OpOperand &operand : op->getOpOperands())
          if (loops->isStaged(op, operand))
            sharedBytes += kTransposeTile * (kTransposeTile + 1) *
                           elementBytes(operand.get().getType());
        break;
      }
      [[fallthrough]];
    case Schedule::ThreadReduction: {
      int64_t threads =
          blockSizeFor(*profile, staticIteratorTripCount(op, false));
      block = {threads, 1, 1};
      tile = {threads};
      break;
    }
    case Schedule::RowReduction: {
      std::optional<int64_t> length = staticIteratorTripCount(op, true);
      int64_t threads = blockSizeFor(*profile, length);
      block = {threads, 1, 1};
      tile = {1};
      sharedBytes = pipeline.reductions * (threads / profile->subgroupSize) *
                    elementBytes(op.getDpsInits()[0].getType());
      // Rows of a length known only at run time: short ones take a
      // subgroup each (shuffles only, no barrier), so that a block is not
      // one short row with most of its threads idle. A pipeline that waits
      // for the whole block in its middle keeps a block per row.
      if (!length && !pipeline.mapsBeforeLast &&
          threads > profile->subgroupSize) {
        rowsPerBlock = threads / profile->subgroupSize;
        subgroupRowsUpTo = profile->subgroupSize * kSubgroupRowElementsPerLane;
      }
      break;
    }
    case Schedule::TiledContraction: {
      int64_t t = contractionTileFor(op, shape, *profile);
      if (usesTensorCores(op, shape, *profile)) {
        // A subgroup per x, the block's subgroups along y.
        const MmaInstruction &instruction =
            getMmaInstruction(profile->tensorCores);
        block = {instruction.subgroup, instruction.warpsM * instruction.warpsN,
                 1};
        tile = {t, t, kMmaTileK};
        mma = b.getDenseI64ArrayAttr(instruction.shape);
        stages = kMmaStages;
        sharedBytes =
            getMmaWorkgroupBytes(op, shape, instruction, t, t, kMmaTileK);
        break;
      }
      int64_t tk = profile->contractionTileK;
      int64_t threads = kContractionThreadsPerSide;
      block = {threads, threads, 1};
      tile = {t, t, tk};
      // The two operand tiles during the K loop, then in the same bytes
      // the outputs' staging rows (a row of every thread's micro-tile:
      // `threads` x T, and the pad).
      sharedBytes =
          std::max(tk * (t + kContractionTilePad) *
                       (elementBytes(op->getOperand(shape.lhsInput).getType()) +
                        elementBytes(op->getOperand(shape.rhsInput).getType())),
                   threads * (t + kContractionStagingPad) *
                       elementBytes(op.getDpsInits()[0].getType()));
      break;
    }
    case Schedule::Scan:
      scan = planScan(op, shape, *profile);
      block = {scan.threads, 1, 1};
      tile = {1};
      sharedBytes = scan.sharedBytes;
      break;
    }
    // MLIR 19 lowers `gpu.shuffle up` to NVVM only; ROCDL scans get `idx`
    // shuffles from computed lanes.
    bool shuffleUp =
        shape.schedule == Schedule::Scan && profile->kind == TargetKind::NVPTX;
    perTarget.push_back(b.getNamedAttr(
        profile->name,
        choir::LaunchAttr::get(
            context, b.getDenseI64ArrayAttr(block),
            b.getDenseI64ArrayAttr(tile), profile->subgroupSize, sharedBytes,
            rowsPerBlock, subgroupRowsUpTo, scan.linesPerBlock,
            scan.threadLinesFrom, scan.lineTile, scan.splitLinesBelow,
            scan.lineChunks, shuffleUp, mma, stages)));
  }
  StringAttr combiner;
  if (shape.combiner)
    combiner = b.getStringAttr(combinerName(shape.combiner));
  choir::ContractionLoopsAttr contraction;
  if (shape.schedule == Schedule::TiledContraction)
    contraction = choir::ContractionLoopsAttr::get(
        context, shape.mDim, shape.nDim, shape.kDim,
        b.getDenseI64ArrayAttr(SmallVector<int64_t>(shape.batchDims.begin(),
                                                    shape.batchDims.end())),
        shape.lhsInput, shape.rhsInput);
  choir::ScanLoopsAttr scanLoops;
  if (shape.schedule == Schedule::Scan)
    scanLoops =
        choir::ScanLoopsAttr::get(context, shape.scanAxis, shape.scanReduction);
  return choir::PlanAttr::get(context, shape.schedule, combiner, contraction,
                              scanLoops, b.getDictionaryAttr(perTarget));
}

FailureOr<DispatchShape> accy::getPlannedShape(linalg::LinalgOp op,
                                               choir::PlanAttr plan) {
  DispatchShape shape;
  shape.schedule = plan.getSchedule();
  if (StringAttr name = plan.getCombiner()) {
    shape.combiner = getYieldedCombiner(op);
    if (!shape.combiner || combinerName(shape.combiner) != name.getValue())
      return op.emitError() << "the plan's combiner '" << name.getValue()
                            << "' does not yield this dispatch's result";
  }
  if (choir::ContractionLoopsAttr loops = plan.getContraction()) {
    shape.mDim = loops.getM();
    shape.nDim = loops.getN();
    shape.kDim = loops.getK();
    for (int64_t loop : loops.getBatch().asArrayRef())
      shape.batchDims.push_back(loop);
    shape.lhsInput = loops.getLhs();
    shape.rhsInput = loops.getRhs();
  }
  if (choir::ScanLoopsAttr loops = plan.getScan()) {
    shape.scanAxis = loops.getAxis();
    shape.scanReduction = loops.getMasked();
  }
  return shape;
}

choir::PlanAttr accy::getPlan(Operation *root) {
  if (auto plan = root->getAttrOfType<choir::PlanAttr>(choir::kPlanAttrName))
    return plan;
  // In a dispatch region the plan is the region's.
  auto dispatch = dyn_cast<choir::DispatchOp>(root);
  if (!dispatch)
    dispatch = dyn_cast_or_null<choir::DispatchOp>(root->getParentOp());
  if (dispatch && (dispatch == root || dispatch.getRoot() == root))
    return dispatch.getPlan();
  return nullptr;
}

std::optional<Schedule> accy::getPlannedSchedule(Operation *root) {
  if (choir::PlanAttr plan = getPlan(root))
    return plan.getSchedule();
  return std::nullopt;
}

void accy::setPlan(Operation *root, choir::PlanAttr plan) {
  root->setAttr(choir::kPlanAttrName, plan);
}
