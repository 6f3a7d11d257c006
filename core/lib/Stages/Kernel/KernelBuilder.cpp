//===- KernelBuilder.cpp - GPU kernels for each schedule ------------------===//

#include "PayloadEmitter.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace accy;
using namespace accy::kernel;

namespace {

//===----------------------------------------------------------------------===//
// thread schedule: one thread per output point, serial reduction
//===----------------------------------------------------------------------===//

FailureOr<Operation *> buildThreadKernel(RewriterBase &rw,
                                         linalg::LinalgOp op,
                                         const KernelPlan &plan) {
  Location loc = op.getLoc();
  Ix host{rw, loc};
  int64_t threads = plan.block[0];
  SmallVector<unsigned> parallelDims, reductionDims;
  splitLoops(op, parallelDims, reductionDims);
  Value points = host.product(select(loopSizes(rw, loc, op), parallelDims));
  gpu::LaunchOp launch =
      createLaunch(rw, loc, host.ceilDiv(points, threads), {threads, 1, 1});

  OpBuilder::InsertionGuard guard(rw);
  rw.setInsertionPoint(launch.getBody().front().getTerminator());
  Ix ix{rw, loc};
  SmallVector<Value> sizes = loopSizes(rw, loc, op);
  Value global = ix.add(ix.mul(launch.getBlockIds().x, threads),
                        launch.getThreadIds().x);
  Value count = ix.product(select(sizes, parallelDims));
  auto inRange = rw.create<scf::IfOp>(loc, ix.lt(global, count),
                                      /*withElseRegion=*/false);
  rw.setInsertionPointToStart(inRange.thenBlock());
  SmallVector<Value> parallelIvs =
      delinearize(ix, global, select(sizes, parallelDims));
  SmallVector<Value> pointIvs = mergeIvs(ix, op.getNumLoops(), parallelDims,
                                         parallelIvs, reductionDims, {});

  // Initial values of the outputs: a folded fill's scalar, the output's
  // contents when the payload reads them, anything otherwise.
  SmallVector<Value> outputs;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    unsigned i = init.getOperandNumber() - op.getNumDpsInputs();
    if (i < plan.initValues.size() && plan.initValues[i])
      outputs.push_back(plan.initValues[i]);
    else if (!op.getMatchingBlockArgument(&init).use_empty())
      outputs.push_back(loadOperand(rw, loc, op, &init, pointIvs));
    else
      outputs.push_back(zeroOf(rw, loc, elementOf(init.get())));
  }

  SmallVector<Value> results;
  if (reductionDims.empty()) {
    results = emitPayload(rw, op, pointIvs,
                          payloadArgs(rw, loc, op, pointIvs, outputs));
  } else {
    Value total = ix.product(select(sizes, reductionDims));
    auto loop = rw.create<scf::ForOp>(loc, ix.c(0), total, ix.c(1), outputs);
    OpBuilder::InsertionGuard loopGuard(rw);
    rw.setInsertionPointToStart(loop.getBody());
    Ix in{rw, loc};
    SmallVector<Value> reductionIvs = delinearize(
        in, loop.getInductionVar(), select(sizes, reductionDims));
    SmallVector<Value> ivs = mergeIvs(in, op.getNumLoops(), parallelDims,
                                      parallelIvs, reductionDims, reductionIvs);
    SmallVector<Value> yielded = emitPayload(
        rw, op, ivs,
        payloadArgs(rw, loc, op, ivs,
                    SmallVector<Value>(loop.getRegionIterArgs())));
    rw.create<scf::YieldOp>(loc, yielded);
    results = loop.getResults();
  }
  for (auto [init, value] : llvm::zip(op.getDpsInitsMutable(), results))
    storeResult(rw, loc, op, &init, value, pointIvs, plan);
  return launch.getOperation();
}

} // namespace

LogicalResult accy::kernel::buildElementwiseLoops(RewriterBase &rewriter,
                                                  linalg::LinalgOp op,
                                                  const KernelPlan &plan) {
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::LinalgLoops> loops =
      linalg::linalgOpToParallelLoops(rewriter, op);
  if (failed(loops) || loops->size() != 1)
    return op.emitError("could not turn this dispatch into parallel loops");
  auto parallel = cast<scf::ParallelOp>(loops->front());
  rewriter.eraseOp(op);

  // One dimension: consecutive threads take consecutive elements of the
  // innermost dimension, so accesses coalesce whatever the rank.
  if (parallel.getNumLoops() > 1) {
    Block *block = parallel->getBlock();
    Operation *previous = parallel->getPrevNode();
    std::vector<unsigned> all(parallel.getNumLoops());
    std::iota(all.begin(), all.end(), 0);
    mlir::collapseParallelLoops(rewriter, parallel, {all});
    parallel = nullptr;
    for (Operation *it = previous ? previous->getNextNode() : &block->front();
         it; it = it->getNextNode())
      if ((parallel = dyn_cast<scf::ParallelOp>(it)))
        break;
    if (!parallel)
      return failure();
  }
  auto [outer, inner] =
      scf::tileParallelLoop(parallel, {plan.block[0]}, /*noMinMaxBounds=*/true);
  MLIRContext *ctx = rewriter.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(1, ctx);
  auto mapTo = [&](scf::ParallelOp loop, gpu::Processor processor) {
    return gpu::setMappingAttr(
        loop, {gpu::ParallelLoopDimMappingAttr::get(ctx, processor, identity,
                                                     identity)});
  };
  if (failed(mapTo(outer, gpu::Processor::BlockX)) ||
      failed(mapTo(inner, gpu::Processor::ThreadX)))
    return failure();
  return success();
}

FailureOr<unsigned> accy::kernel::buildLaunch(RewriterBase &rewriter,
                                              linalg::LinalgOp op,
                                              const KernelPlan &plan) {
  rewriter.setInsertionPoint(op);
  const DispatchShape &shape = plan.shape;
  FailureOr<Operation *> launch = failure();
  switch (plan.schedule) {
  case Schedule::Elementwise:
  case Schedule::ThreadReduction:
    launch = buildThreadKernel(rewriter, op, plan);
    break;
  case Schedule::TiledContraction:
    if (!plan.mma.empty()) {
      FailureOr<unsigned> launches =
          buildMmaContractionKernel(rewriter, op, plan, shape);
      if (succeeded(launches))
        rewriter.eraseOp(op);
      return launches;
    }
    launch = buildContractionKernel(rewriter, op, plan, shape);
    break;
  case Schedule::RowReduction:
  case Schedule::Scan: {
    FailureOr<unsigned> launches =
        plan.schedule == Schedule::Scan
            ? buildScanKernel(rewriter, op, plan, shape)
            : buildRowReductionKernel(rewriter, op, plan, shape.combiner);
    if (succeeded(launches))
      rewriter.eraseOp(op);
    return launches;
  }
  }
  if (failed(launch))
    return failure();
  rewriter.eraseOp(op);
  return 1u;
}
