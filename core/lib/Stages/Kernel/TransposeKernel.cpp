//===- TransposeKernel.cpp - Elementwise ops across two layouts -----------===//
//
// An elementwise op whose operands are contiguous along two different loops
// (a transpose; `x + transpose(y)`), mapped like any other elementwise op,
// has consecutive threads walk one of the loops: the operands contiguous
// along the other are read or written a whole sector per element (a warp's
// request touched 32 sectors, 4 bytes of each used). Here a block takes a
// tile of kTransposeTile x kTransposeTile points of the two loops (`inner`,
// along which the first output is contiguous, and `across`) and of one
// value of every other loop. The operands contiguous along `across` go
// through workgroup memory: an input is read into its tile with
// consecutive threads along `across`, then every point is computed with
// consecutive threads along `inner`, its staged inputs read from the tile
// (a column: its rows are a column wider than the tile, so the threads hit
// distinct banks) and its staged outputs written into theirs; those are
// then stored with consecutive threads along `across`. Every global access
// of a warp covers whole sectors.
//
//===----------------------------------------------------------------------===//

#include "PayloadEmitter.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace accy;
using namespace accy::kernel;

FailureOr<Operation *>
accy::kernel::buildTransposeKernel(RewriterBase &rw, linalg::LinalgOp op,
                                   const KernelPlan &plan,
                                   const TransposedLoops &loops) {
  constexpr int64_t tile = kTransposeTile;
  int64_t rows = plan.block[0] / tile;
  if (plan.tile.size() != 2 || plan.tile[0] != tile || plan.tile[1] != tile ||
      plan.block[0] % tile != 0 || rows == 0 || tile % rows != 0)
    return op.emitError() << "transposing elementwise plan needs tile = ["
                          << tile << ", " << tile
                          << "] and a block of whole rows of it";
  Location loc = op.getLoc();
  rw.setInsertionPoint(op);
  unsigned inner = loops.inner, across = loops.across;
  SmallVector<unsigned> batchLoops;
  for (unsigned loop = 0; loop < op.getNumLoops(); ++loop)
    if (loop != inner && loop != across)
      batchLoops.push_back(loop);

  SmallVector<OpOperand *> staged;
  SmallVector<Type> tiles;
  for (OpOperand &operand : op->getOpOperands())
    if (loops.isStaged(op, operand)) {
      staged.push_back(&operand);
      tiles.push_back(
          workgroupBuffer({tile, tile + 1}, elementOf(operand.get())));
    }

  Ix host{rw, loc};
  SmallVector<Value> hostSizes = loopSizes(rw, loc, op);
  Value grid = host.mul(host.mul(host.ceilDiv(hostSizes[inner], tile),
                                 host.ceilDiv(hostSizes[across], tile)),
                        host.product(select(hostSizes, batchLoops)));
  gpu::LaunchOp launch = createLaunch(rw, loc, grid, {tile, rows, 1}, tiles);
  OpBuilder::InsertionGuard guard(rw);
  rw.setInsertionPoint(launch.getBody().front().getTerminator());
  Ix ix{rw, loc};
  SmallVector<Value> sizes = loopSizes(rw, loc, op);
  Value tilesInner = ix.ceilDiv(sizes[inner], tile);
  Value tilesAcross = ix.ceilDiv(sizes[across], tile);
  Value block = launch.getBlockIds().x;
  Value rest = ix.div(block, tilesInner);
  Value inner0 = ix.mul(ix.rem(block, tilesInner), tile);
  Value across0 = ix.mul(ix.rem(rest, tilesAcross), tile);
  SmallVector<Value> batch =
      delinearize(ix, ix.div(rest, tilesAcross), select(sizes, batchLoops));
  Value tx = launch.getThreadIds().x, ty = launch.getThreadIds().y;
  auto tileOf = [&](OpOperand *operand) {
    return launch.getWorkgroupAttributions()[llvm::find(staged, operand) -
                                             staged.begin()];
  };
  // The iteration point at offsets (a, i) of the tile along `across` and
  // `inner`, and whether it is in the iteration space.
  auto pointAt = [&](Value a, Value i) {
    SmallVector<Value> ivs(op.getNumLoops());
    for (auto [loop, iv] : llvm::zip(batchLoops, batch))
      ivs[loop] = iv;
    ivs[across] = ix.add(across0, a);
    ivs[inner] = ix.add(inner0, i);
    return ivs;
  };
  // The point at (a, i), with the insertion point moved into a branch
  // taken where it is in the iteration space (the caller's guard restores
  // it).
  auto enterPoint = [&](Value a, Value i) {
    SmallVector<Value> ivs = pointAt(a, i);
    auto inBounds =
        rw.create<scf::IfOp>(loc,
                             ix.both(ix.lt(ivs[across], sizes[across]),
                                     ix.lt(ivs[inner], sizes[inner])),
                             /*withElseRegion=*/false);
    rw.setInsertionPointToStart(inBounds.thenBlock());
    return ivs;
  };
  auto isRead = [&](OpOperand *operand) {
    return op.isDpsInput(operand) &&
           !op.getMatchingBlockArgument(operand).use_empty();
  };

  // Staged inputs into their tiles, consecutive threads along `across`:
  // tile[i][a] holds the point (a, i). Points past the end read the last
  // element instead (clamped: nothing reads them).
  bool stagesInputs = llvm::any_of(staged, isRead);
  for (int64_t r = 0; stagesInputs && r < tile; r += rows) {
    Value row = ix.add(ty, ix.c(r));
    SmallVector<Value> ivs = pointAt(tx, row);
    ivs[across] = ix.minU(ivs[across], ix.sub(sizes[across], ix.c(1)));
    ivs[inner] = ix.minU(ivs[inner], ix.sub(sizes[inner], ix.c(1)));
    for (OpOperand *operand : staged)
      if (isRead(operand))
        rw.create<memref::StoreOp>(loc, loadOperand(rw, loc, op, operand, ivs),
                                   tileOf(operand), ValueRange{row, tx});
  }
  if (stagesInputs)
    rw.create<gpu::BarrierOp>(loc);

  // Every point, consecutive threads along `inner`.
  for (int64_t r = 0; r < tile; r += rows) {
    Value column = ix.add(ty, ix.c(r));
    OpBuilder::InsertionGuard pointGuard(rw);
    SmallVector<Value> ivs = enterPoint(column, tx);
    SmallVector<Value> args;
    for (OpOperand &operand : op->getOpOperands()) {
      if (!isRead(&operand))
        args.push_back(Value());
      else if (llvm::is_contained(staged, &operand))
        args.push_back(rw.create<memref::LoadOp>(loc, tileOf(&operand),
                                                 ValueRange{tx, column}));
      else
        args.push_back(loadOperand(rw, loc, op, &operand, ivs));
    }
    SmallVector<Value> results = emitPayload(rw, op, ivs, args);
    for (auto [output, value] : llvm::zip(op.getDpsInitsMutable(), results)) {
      if (llvm::is_contained(staged, &output))
        rw.create<memref::StoreOp>(loc, value, tileOf(&output),
                                   ValueRange{tx, column});
      else
        storeOperand(rw, loc, op, &output, value, ivs);
    }
  }

  // Staged outputs from their tiles, consecutive threads along `across`.
  bool stagesOutputs = llvm::any_of(
      staged, [&](OpOperand *operand) { return op.isDpsInit(operand); });
  if (stagesOutputs)
    rw.create<gpu::BarrierOp>(loc);
  for (int64_t r = 0; stagesOutputs && r < tile; r += rows) {
    Value row = ix.add(ty, ix.c(r));
    OpBuilder::InsertionGuard storeGuard(rw);
    SmallVector<Value> ivs = enterPoint(tx, row);
    for (OpOperand *operand : staged)
      if (op.isDpsInit(operand))
        storeOperand(rw, loc, op, operand,
                     rw.create<memref::LoadOp>(loc, tileOf(operand),
                                               ValueRange{row, tx}),
                     ivs);
  }
  rw.eraseOp(op);
  return launch.getOperation();
}
