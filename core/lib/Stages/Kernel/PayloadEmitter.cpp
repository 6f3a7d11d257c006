//===- PayloadEmitter.cpp - Loads, stores and payloads of kernel code -----===//

#include "PayloadEmitter.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace accy::kernel {

/// The block whose leading index constants the code at `block` shares:
/// the entry block of the launch body or function around it.
static Block *constantsBlock(Block *block) {
  for (Region *region = block ? block->getParent() : nullptr; region;
       region = region->getParentRegion()) {
    Operation *owner = region->getParentOp();
    if (isa<gpu::LaunchOp>(owner) ||
        owner->hasTrait<OpTrait::IsIsolatedFromAbove>())
      return &region->front();
  }
  return nullptr;
}

Value Ix::c(int64_t v) {
  Block *shared = constantsBlock(b.getInsertionBlock());
  if (!shared)
    return b.create<arith::ConstantIndexOp>(loc, v);
  // The constants at the block's start, where they come before the
  // insertion point (which may lie in that block too).
  Block::iterator end =
      b.getInsertionBlock() == shared ? b.getInsertionPoint() : shared->end();
  for (Operation &op : llvm::make_range(shared->begin(), end)) {
    auto constant = dyn_cast<arith::ConstantIndexOp>(op);
    if (!constant)
      break;
    if (constant.value() == v)
      return constant;
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(shared);
  return b.create<arith::ConstantIndexOp>(loc, v);
}

SmallVector<Value> select(ArrayRef<Value> values, ArrayRef<unsigned> dims) {
  SmallVector<Value> result;
  for (unsigned d : dims)
    result.push_back(values[d]);
  return result;
}

SmallVector<Value> loopSizes(OpBuilder &b, Location loc, linalg::LinalgOp op) {
  SmallVector<Value> sizes;
  for (Range range : op.createLoopRanges(b, loc))
    sizes.push_back(getValueOrCreateConstantIndexOp(b, loc, range.size));
  return sizes;
}

SmallVector<Value> delinearize(Ix &ix, Value linear, ArrayRef<Value> sizes) {
  SmallVector<Value> ivs(sizes.size());
  for (int i = static_cast<int>(sizes.size()) - 1; i >= 0; --i) {
    if (i == 0) {
      ivs[0] = linear;
      break;
    }
    ivs[i] = ix.rem(linear, sizes[i]);
    linear = ix.div(linear, sizes[i]);
  }
  return ivs;
}

void splitLoops(linalg::LinalgOp op, SmallVectorImpl<unsigned> &parallel,
                SmallVectorImpl<unsigned> &reduction) {
  for (auto [i, iterator] : llvm::enumerate(op.getIteratorTypesArray()))
    (linalg::isReductionIterator(iterator) ? reduction : parallel).push_back(i);
}

SmallVector<Value> mergeIvs(Ix &ix, unsigned numLoops,
                            ArrayRef<unsigned> parallelDims,
                            ArrayRef<Value> parallelIvs,
                            ArrayRef<unsigned> reductionDims,
                            ArrayRef<Value> reductionIvs) {
  SmallVector<Value> ivs(numLoops);
  for (auto [d, v] : llvm::zip(parallelDims, parallelIvs))
    ivs[d] = v;
  for (auto [d, v] : llvm::zip(reductionDims, reductionIvs))
    ivs[d] = v;
  Value zero;
  for (Value &iv : ivs)
    if (!iv)
      iv = zero ? zero : (zero = ix.c(0));
  return ivs;
}

SmallVector<Value> applyMap(OpBuilder &b, Location loc, AffineMap map,
                            ValueRange ivs) {
  SmallVector<Value> indices;
  for (unsigned i = 0; i < map.getNumResults(); ++i) {
    AffineExpr expr = map.getResult(i);
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      indices.push_back(ivs[dim.getPosition()]);
      continue;
    }
    indices.push_back(
        b.create<affine::AffineApplyOp>(loc, map.getSubMap({i}), ivs));
  }
  return indices;
}

Value loadOperand(OpBuilder &b, Location loc, linalg::LinalgOp op,
                  OpOperand *operand, ValueRange ivs) {
  Value source = operand->get();
  if (!isa<MemRefType>(source.getType()))
    return source;
  return b.create<memref::LoadOp>(
      loc, source, applyMap(b, loc, op.getMatchingIndexingMap(operand), ivs));
}

void storeOperand(OpBuilder &b, Location loc, linalg::LinalgOp op,
                  OpOperand *operand, Value value, ValueRange ivs) {
  b.create<memref::StoreOp>(
      loc, value, operand->get(),
      applyMap(b, loc, op.getMatchingIndexingMap(operand), ivs));
}

SmallVector<Value> emitPayload(OpBuilder &b, linalg::LinalgOp op,
                               ValueRange ivs, ArrayRef<Value> args) {
  Block *body = op.getBlock();
  IRMapping mapping;
  for (auto [arg, value] : llvm::zip(body->getArguments(), args))
    mapping.map(arg, value);
  for (Operation &inner : body->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      mapping.map(index.getResult(), ivs[index.getDim()]);
      continue;
    }
    b.clone(inner, mapping);
  }
  SmallVector<Value> results;
  for (Value v : body->getTerminator()->getOperands())
    results.push_back(mapping.lookupOrDefault(v));
  return results;
}

SmallVector<Value> payloadArgs(OpBuilder &b, Location loc, linalg::LinalgOp op,
                               ValueRange ivs, ArrayRef<Value> outputs,
                               const InRegisters &known) {
  SmallVector<Value> args;
  for (OpOperand *input : op.getDpsInputOperands()) {
    // An unused input is not loaded.
    if (Value value = known.lookup(input->get()))
      args.push_back(value);
    else if (op.getMatchingBlockArgument(input).use_empty())
      args.push_back(Value());
    else
      args.push_back(loadOperand(b, loc, op, input, ivs));
  }
  llvm::append_range(args, outputs);
  return args;
}

Value emitPointValue(OpBuilder &b, Location loc, linalg::LinalgOp op,
                     ValueRange ivs, const InRegisters &known) {
  OpOperand *output = op.getDpsInitOperand(0);
  Value old = op.getMatchingBlockArgument(output).use_empty()
                  ? Value()
                  : loadOperand(b, loc, op, output, ivs);
  return emitPayload(b, op, ivs, payloadArgs(b, loc, op, ivs, {old}, known))[0];
}

void storeResult(OpBuilder &b, Location loc, linalg::LinalgOp op,
                 OpOperand *output, Value value, ValueRange ivs,
                 const KernelPlan &plan) {
  if (!plan.unreadResults.contains(output->get()))
    storeOperand(b, loc, op, output, value, ivs);
  if (plan.epilogues.empty())
    return;
  // An epilogue's loops are the points of the root's result.
  SmallVector<Value> point =
      applyMap(b, loc, op.getMatchingIndexingMap(output), ivs);
  InRegisters inRegisters{{output->get(), value}};
  for (linalg::LinalgOp epilogue : plan.epilogues) {
    Value computed = emitPointValue(b, loc, epilogue, point, inRegisters);
    OpOperand *result = epilogue.getDpsInitOperand(0);
    if (!plan.unreadResults.contains(result->get()))
      storeOperand(b, loc, epilogue, result, computed, point);
    inRegisters[result->get()] = computed;
  }
}

Value zeroOf(OpBuilder &b, Location loc, Type type) {
  return b.create<arith::ConstantOp>(loc, type, b.getZeroAttr(type));
}

Value combine(OpBuilder &b, Location loc, Operation *combiner, Value lhs,
              Value rhs) {
  OperationState state(loc, combiner->getName());
  state.addOperands({lhs, rhs});
  state.addTypes(combiner->getResultTypes());
  state.addAttributes(combiner->getAttrs());
  return b.create(state)->getResult(0);
}

gpu::LaunchOp createLaunch(OpBuilder &b, Location loc, Value gridX,
                           ArrayRef<int64_t> block, TypeRange workgroup) {
  Ix ix{b, loc};
  Value one = ix.c(1);
  auto launch = b.create<gpu::LaunchOp>(
      loc, gridX, one, one, ix.c(block[0]), ix.c(block[1]), ix.c(block[2]),
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/ValueRange{}, workgroup);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(&launch.getBody().front());
  b.create<gpu::TerminatorOp>(loc);
  return launch;
}

FailureOr<int64_t> subgroupsPerBlock(linalg::LinalgOp op,
                                     const KernelPlan &plan) {
  int64_t threads = plan.block[0], subgroup = plan.subgroup;
  if (threads % subgroup != 0)
    return op.emitError() << stringifySchedule(plan.schedule) << " block of "
                          << threads
                          << " threads is not a multiple of the subgroup ("
                          << subgroup << ")";
  return threads / subgroup;
}

MemRefType workgroupBuffer(ArrayRef<int64_t> shape, Type element) {
  MLIRContext *ctx = element.getContext();
  return MemRefType::get(
      shape, element, MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
}

Type elementOf(Value value) { return getElementTypeOrSelf(value.getType()); }

int64_t storedBytes(Type element) {
  return std::max<int64_t>(1, (element.getIntOrFloatBitWidth() + 7) / 8);
}

/// The alignment in bytes known for the start of `buffer`: what the launch
/// function asserts for an argument, at least the runtime's 256 bytes for a
/// device allocation (docs/abi.md); 0 when unknown.
static int64_t knownAlignment(Value buffer) {
  if (buffer.getDefiningOp<gpu::AllocOp>())
    return 256;
  int64_t alignment = 0;
  if (isa<BlockArgument>(buffer))
    for (Operation *user : buffer.getUsers())
      if (auto assume = dyn_cast<memref::AssumeAlignmentOp>(user))
        alignment = std::max<int64_t>(alignment, assume.getAlignment());
  return alignment;
}

bool isAlignedAlong(linalg::LinalgOp op, OpOperand &operand,
                    ArrayRef<unsigned> loops) {
  auto type = dyn_cast<MemRefType>(operand.get().getType());
  if (!type || !type.getElementType().isIntOrFloat() ||
      !type.getLayout().isIdentity() ||
      knownAlignment(operand.get()) < kVectorBytes)
    return false;
  AffineMap map = op.getMatchingIndexingMap(&operand);
  if (map.getNumResults() != loops.size())
    return false;
  for (auto [result, loop] : llvm::zip(map.getResults(), loops))
    if (result != getAffineDimExpr(loop, op.getContext()))
      return false;
  return true;
}

bool isAlignedAtPoint(linalg::LinalgOp op, OpOperand &operand) {
  return op.getMatchingIndexingMap(&operand).isIdentity() &&
         isAlignedAlong(op, operand,
                        llvm::to_vector(llvm::seq(op.getNumLoops())));
}

Value alignedFlatView(OpBuilder &b, Location loc, Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  Value flat = buffer;
  if (type.getRank() != 1) {
    ReassociationIndices all;
    for (int64_t d = 0; d < type.getRank(); ++d)
      all.push_back(d);
    flat = b.create<memref::CollapseShapeOp>(
        loc, buffer, ArrayRef<ReassociationIndices>{all});
  }
  b.create<memref::AssumeAlignmentOp>(loc, flat, kVectorBytes);
  return flat;
}

} // namespace accy::kernel
