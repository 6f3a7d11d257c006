//===- ContractionBlocks.cpp - What both contraction schedules share ------===//

#include "ContractionBlocks.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace accy;
using namespace accy::kernel;

Value accy::kernel::contractionGrid(Ix &host, ArrayRef<Value> sizes,
                                    const DispatchShape &shape, int64_t bm,
                                    int64_t bn) {
  return host.mul(host.mul(host.ceilDiv(sizes[shape.nDim], bn),
                           host.ceilDiv(sizes[shape.mDim], bm)),
                  host.product(select(sizes, shape.batchDims)));
}

gpu::LaunchOp accy::kernel::enterContractionLaunch(
    RewriterBase &rw, Location loc, linalg::LinalgOp op,
    const DispatchShape &shape, ArrayRef<int64_t> block, int64_t bm, int64_t bn,
    int64_t workgroupBytes) {
  Ix host{rw, loc};
  Value grid = contractionGrid(host, loopSizes(rw, loc, op), shape, bm, bn);
  gpu::LaunchOp launch = createLaunch(
      rw, loc, grid, block,
      TypeRange{workgroupBuffer({workgroupBytes}, rw.getI8Type())});
  rw.setInsertionPoint(launch.getBody().front().getTerminator());
  return launch;
}

ContractionBlock::ContractionBlock(Ix &ix, linalg::LinalgOp op,
                                   const DispatchShape &shape,
                                   gpu::LaunchOp launch, int64_t bm, int64_t bn)
    : op(op), shape(shape), sizes(loopSizes(ix.b, ix.loc, op)),
      workgroup(launch.getWorkgroupAttributions()[0]), zero(ix.c(0)) {
  Value block = launch.getBlockIds().x;
  Value tilesN = ix.ceilDiv(sizes[shape.nDim], bn);
  Value tilesM = ix.ceilDiv(sizes[shape.mDim], bm);
  Value rest = ix.div(block, tilesN);
  m0 = ix.mul(ix.rem(rest, tilesM), bm);
  n0 = ix.mul(ix.rem(block, tilesN), bn);
  batchIvs =
      delinearize(ix, ix.div(rest, tilesM), select(sizes, shape.batchDims));
}

SmallVector<Value> ContractionBlock::ivsAt(Value mv, Value nv, Value kv) const {
  SmallVector<Value> ivs(linalg::LinalgOp(op).getNumLoops(), zero);
  for (auto [d, v] : llvm::zip(shape.batchDims, batchIvs))
    ivs[d] = v;
  ivs[shape.mDim] = mv;
  ivs[shape.nDim] = nv;
  ivs[shape.kDim] = kv;
  return ivs;
}

Value ContractionBlock::view(Ix &ix, int64_t offset, MemRefType type) const {
  return ix.b.create<memref::ViewOp>(ix.loc, type, workgroup, ix.c(offset),
                                     ValueRange{});
}

void ContractionBlock::storeOutput(Ix &ix, Value row, Value col, Value value,
                                   const KernelPlan &plan) const {
  auto store = ix.b.create<scf::IfOp>(
      ix.loc,
      ix.both(ix.lt(row, sizes[shape.mDim]), ix.lt(col, sizes[shape.nDim])),
      /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(ix.b);
  ix.b.setInsertionPointToStart(store.thenBlock());
  linalg::LinalgOp root = op;
  storeResult(ix.b, ix.loc, root, root.getDpsInitOperand(0), value,
              ivsAt(row, col, zero), plan);
}

SmallVector<Value>
accy::kernel::uniformBranch(RewriterBase &rw, Location loc, TypeRange types,
                            Value condition,
                            function_ref<SmallVector<Value>()> ifTrue,
                            function_ref<SmallVector<Value>()> ifFalse) {
  auto branch = rw.create<scf::IfOp>(loc, types, condition,
                                     /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(rw);
  rw.setInsertionPointToStart(branch.thenBlock());
  rw.create<scf::YieldOp>(loc, ifTrue());
  rw.setInsertionPointToStart(branch.elseBlock());
  rw.create<scf::YieldOp>(loc, ifFalse());
  return SmallVector<Value>(branch.getResults());
}
