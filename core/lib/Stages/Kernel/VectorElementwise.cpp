//===- VectorElementwise.cpp - Elementwise kernels with 128-bit accesses --===//
//
// An elementwise dispatch whose buffers are all contiguous, 16-byte aligned
// and read at the point itself is one flat array of elements per buffer.
// Each thread then takes a run of 16 bytes' worth of the widest element:
// the run's loads come first, then the payloads, then the stores, at
// consecutive addresses that the kernel asserts 16-byte aligned. That is
// what the load-store vectorizer of the NVPTX and AMDGPU backends needs to
// make each input's loads one 128-bit load (ld.global.v4.f32,
// global_load_dwordx4) and each output's stores one 128-bit store; the
// target stage lowers no vector dialect, so the kernel stays scalar. The
// last thread with elements left finishes a run that is not whole element
// by element.
//
//===----------------------------------------------------------------------===//

#include "PayloadEmitter.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace accy;
using namespace accy::kernel;

int64_t accy::kernel::vectorWidth(linalg::LinalgOp op) {
  if (op.getNumLoops() == 0 || op.getNumReductionLoops() != 0 ||
      !op.hasPureBufferSemantics() ||
      !op.getBlock()->getOps<linalg::IndexOp>().empty())
    return 0;
  int64_t widest = 0;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type) {
      if (isa<ShapedType>(operand.get().getType()))
        return 0;
      continue;
    }
    if (!isAlignedAtPoint(op, operand))
      return 0;
    widest = std::max(widest, storedBytes(type.getElementType()));
  }
  if (widest == 0 || kVectorBytes % widest != 0)
    return 0;
  int64_t width = kVectorBytes / widest;
  return width > 1 ? width : 0;
}

FailureOr<Operation *> accy::kernel::buildVectorElementwiseKernel(
    RewriterBase &rw, linalg::LinalgOp op, const KernelPlan &plan,
    int64_t width) {
  Location loc = op.getLoc();
  rw.setInsertionPoint(op);
  int64_t threads = plan.block[0];
  Ix host{rw, loc};
  Value runs = host.ceilDiv(host.product(loopSizes(rw, loc, op)), width);
  gpu::LaunchOp launch =
      createLaunch(rw, loc, host.ceilDiv(runs, threads), {threads, 1, 1});

  OpBuilder::InsertionGuard guard(rw);
  rw.setInsertionPoint(launch.getBody().front().getTerminator());
  Ix ix{rw, loc};
  Value total = ix.product(loopSizes(rw, loc, op));
  Value first = ix.mul(
      ix.add(ix.mul(launch.getBlockIds().x, threads), launch.getThreadIds().x),
      width);
  llvm::DenseMap<Value, Value> flat;
  for (OpOperand &operand : op->getOpOperands())
    if (isa<MemRefType>(operand.get().getType()) && !flat.count(operand.get()))
      flat[operand.get()] = alignedFlatView(rw, loc, operand.get());

  // The payload's operands that are read: inputs, and outputs whose old
  // value the payload uses.
  SmallVector<OpOperand *> read;
  for (OpOperand &operand : op->getOpOperands())
    if (isa<MemRefType>(operand.get().getType()) &&
        !op.getMatchingBlockArgument(&operand).use_empty())
      read.push_back(&operand);
  auto payloadAt = [&](OpBuilder &b, ArrayRef<Value> values) {
    SmallVector<Value> args;
    for (OpOperand &operand : op->getOpOperands()) {
      if (!isa<MemRefType>(operand.get().getType())) {
        args.push_back(operand.get());
        continue;
      }
      auto it = llvm::find(read, &operand);
      args.push_back(it == read.end() ? Value() : values[it - read.begin()]);
    }
    return emitPayload(b, op, /*ivs=*/{}, args);
  };

  Value whole = rw.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ule,
                                         ix.add(first, ix.c(width)), total);
  auto ifWhole = rw.create<scf::IfOp>(loc, whole, /*withElseRegion=*/true);
  {
    // A whole run: every load, then every payload, then every store, so
    // that no store comes between loads the backend merges.
    OpBuilder::InsertionGuard runGuard(rw);
    rw.setInsertionPointToStart(ifWhole.thenBlock());
    SmallVector<SmallVector<Value>> lanes(width);
    SmallVector<Value> at;
    for (int64_t k = 0; k < width; ++k)
      at.push_back(ix.add(first, ix.c(k)));
    for (OpOperand *operand : read)
      for (int64_t k = 0; k < width; ++k)
        lanes[k].push_back(rw.create<memref::LoadOp>(loc, flat[operand->get()],
                                                     ValueRange{at[k]}));
    SmallVector<SmallVector<Value>> results;
    for (int64_t k = 0; k < width; ++k)
      results.push_back(payloadAt(rw, lanes[k]));
    for (auto [i, init] : llvm::enumerate(op.getDpsInits()))
      for (int64_t k = 0; k < width; ++k)
        rw.create<memref::StoreOp>(loc, results[k][i], flat[init],
                                   ValueRange{at[k]});

    // The rest of a run that is not whole, element by element (no
    // iteration past the end).
    rw.setInsertionPointToStart(ifWhole.elseBlock());
    auto tail = rw.create<scf::ForOp>(loc, first, total, ix.c(1));
    rw.setInsertionPointToStart(tail.getBody());
    Value e = tail.getInductionVar();
    SmallVector<Value> values;
    for (OpOperand *operand : read)
      values.push_back(
          rw.create<memref::LoadOp>(loc, flat[operand->get()], ValueRange{e}));
    for (auto [init, value] :
         llvm::zip(op.getDpsInits(), payloadAt(rw, values)))
      rw.create<memref::StoreOp>(loc, value, flat[init], ValueRange{e});
  }
  rw.eraseOp(op);
  return launch.getOperation();
}
