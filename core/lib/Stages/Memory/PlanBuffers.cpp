//===- PlanBuffers.cpp - Memory spaces, alignment, reuse, deallocation ----===//
//
// After one-shot bufferization a kernel entry is straight-line code over
// buffers: arguments (the caller's inputs and outputs) and intermediate
// allocations. This pass makes the buffer plan explicit and records it so
// that the kernel stage (and a runtime allocating device memory) can read
// it without re-deriving it.
//
//===----------------------------------------------------------------------===//

#include "accy/Stages/Dispatch/Plan.h"
#include "accy/Stages/Memory/Passes.h"
#include "accy/Stages/Memory/SymbolicSizes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace accy::memory {
#define GEN_PASS_DEF_PLANBUFFERS
#include "accy/Stages/Memory/Passes.h.inc"
} // namespace accy::memory

using namespace mlir;
using namespace accy;

namespace {

/// Every value that aliases `root` through view-like ops (subview, cast,
/// reshapes), `root` included.
SmallVector<Value> collectAliases(Value root) {
  SmallVector<Value> aliases{root};
  for (unsigned i = 0; i < aliases.size(); ++i)
    for (Operation *user : aliases[i].getUsers()) {
      if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
        if (view.getViewSource() == aliases[i])
          aliases.push_back(view->getResult(0));
      } else if (isa<memref::CollapseShapeOp, memref::ExpandShapeOp,
                     memref::ReshapeOp>(user)) {
        aliases.push_back(user->getResult(0));
      }
    }
  return aliases;
}

/// The op of `block` that contains `op`.
Operation *topLevel(Block *block, Operation *op) {
  return block->findAncestorOpInBlock(*op);
}

int64_t elementBytes(MemRefType type) {
  Type element = type.getElementType();
  if (element.isIntOrFloat())
    return std::max<int64_t>(1, (element.getIntOrFloatBitWidth() + 7) / 8);
  return 8;
}

struct Buffer {
  memref::AllocOp alloc;
  /// First and last top-level op that touches the buffer.
  Operation *first = nullptr, *last = nullptr;
  /// Allocations folded into this one.
  SmallVector<memref::AllocOp> reused;
};

/// `memref.reshape %src(%shape)` whose shape is a small buffer filled by
/// stores of known values (what `tensor.reshape` of `tensor.from_elements`
/// bufferizes to) becomes a `memref.reinterpret_cast` view of the
/// contiguous source: no shape buffer written by host code, and sizes the
/// planner can trace.
void reshapesToViews(func::FuncOp entry) {
  SmallVector<memref::ReshapeOp> reshapes;
  entry.walk([&](memref::ReshapeOp op) { reshapes.push_back(op); });
  for (memref::ReshapeOp reshape : reshapes) {
    auto shape = reshape.getShape().getDefiningOp<memref::AllocOp>();
    auto sourceType = dyn_cast<MemRefType>(reshape.getSource().getType());
    auto resultType = dyn_cast<MemRefType>(reshape.getType());
    if (!shape || !sourceType || !resultType ||
        !sourceType.getLayout().isIdentity() ||
        !shape.getType().hasStaticShape() || shape.getType().getRank() != 1)
      continue;
    int64_t rank = shape.getType().getDimSize(0);
    SmallVector<Value> sizes(rank);
    SmallVector<Operation *> stores, others;
    bool ok = true;
    for (Operation *user : shape->getUsers()) {
      if (auto store = dyn_cast<memref::StoreOp>(user)) {
        std::optional<int64_t> index =
            getConstantIntValue(store.getIndices()[0]);
        if (!index || *index < 0 || *index >= rank || sizes[*index] ||
            !store.getValue().getType().isIndex() ||
            !store->isBeforeInBlock(reshape)) {
          ok = false;
          break;
        }
        sizes[*index] = store.getValue();
        stores.push_back(store);
      } else if (isa<memref::DeallocOp>(user)) {
        others.push_back(user);
      } else if (user != reshape) {
        ok = false;
        break;
      }
    }
    if (!ok || llvm::any_of(sizes, [](Value v) { return !v; }))
      continue;
    OpBuilder b(reshape);
    Location loc = reshape.getLoc();
    // Row-major strides, folded to constants where the sizes are (the
    // result type's identity layout has static strides there).
    SmallVector<OpFoldResult> mixedSizes, strides(rank);
    OpFoldResult stride = b.getIndexAttr(1);
    for (int64_t d = rank - 1; d >= 0; --d) {
      strides[d] = stride;
      if (d == 0)
        break;
      std::optional<int64_t> s = getConstantIntValue(stride);
      std::optional<int64_t> n = getConstantIntValue(sizes[d]);
      if (s && n)
        stride = b.getIndexAttr(*s * *n);
      else
        stride = b.create<arith::MulIOp>(
                      loc, getValueOrCreateConstantIndexOp(b, loc, stride),
                      sizes[d])
                     .getResult();
    }
    for (Value size : sizes)
      mixedSizes.push_back(getAsOpFoldResult(size));
    auto view = b.create<memref::ReinterpretCastOp>(
        loc, resultType, reshape.getSource(), b.getIndexAttr(0), mixedSizes,
        strides);
    // The result type claims an identity layout; only static strides may
    // be folded into it, which reinterpret_cast's verifier checks.
    if (failed(mlir::verify(view))) {
      view.erase();
      continue;
    }
    reshape.replaceAllUsesWith(view.getResult());
    reshape.erase();
    for (Operation *op : stores)
      op->erase();
    for (Operation *op : others)
      op->erase();
    shape.erase();
  }
}

/// An epilogue runs in its root's kernel, so the buffer it writes must exist
/// before the root, while bufferization allocates it where its tensor was
/// made, after the root. Allocations whose sizes can be known before the
/// root move there (and so the reuse below sees them live from the root on);
/// the kernel stage runs any other epilogue as a kernel of its own.
void allocateEpilogueOutputsBeforeRoots(func::FuncOp entry) {
  entry.walk([&](linalg::LinalgOp op) {
    if (!isDispatchEpilogue(op))
      return;
    Operation *root = getDispatchRoot(op);
    if (!root)
      return;
    for (Value init : op.getDpsInits()) {
      auto alloc = init.getDefiningOp<memref::AllocOp>();
      if (!alloc || alloc->getBlock() != root->getBlock() ||
          alloc->isBeforeInBlock(root))
        continue;
      if (llvm::all_of(alloc.getDynamicSizes(), [&](Value size) {
            return hoistBefore(size, root);
          }))
        alloc->moveBefore(root);
    }
  });
}

struct PlanBuffersPass
    : public accy::memory::impl::PlanBuffersBase<PlanBuffersPass> {
  using Base::Base;

  /// Copies become planned elementwise dispatches.
  void materializeCopies(func::FuncOp entry,
                         ArrayRef<const TargetProfile *> targets) {
    int64_t next = 0;
    entry.walk([&](Operation *op) {
      next = std::max(next, getDispatchId(op) + 1);
    });
    IRRewriter rewriter(&getContext());
    SmallVector<memref::CopyOp> copies;
    entry.walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    for (memref::CopyOp copy : copies) {
      // materialize_in_destination of a value already in place.
      if (copy.getSource() == copy.getTarget()) {
        rewriter.eraseOp(copy);
        continue;
      }
      rewriter.setInsertionPoint(copy);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                  copy.getTarget());
    }
    // Bufferization may also have made linalg ops (tensor.pad becomes a
    // linalg.map): every op without a plan gets one.
    entry.walk([&](linalg::LinalgOp op) {
      if (isDispatchInit(op) || getPlan(op))
        return;
      if (getDispatchId(op) < 0)
        setDispatchMember(op, next++);
      setPlan(op, planDispatch(op, targets));
    });
  }

  LogicalResult plan(ModuleOp kernel) {
    func::FuncOp entry = getKernelEntry(kernel);
    if (!entry)
      return failure();
    FailureOr<SmallVector<const TargetProfile *>> targets =
        getPlannedTargets(kernel);
    if (failed(targets))
      return failure();
    if (entry.getNumResults() != 0)
      return entry.emitError()
             << "kernel '" << getKernelName(kernel)
             << "': a result is not written in place into its output "
                "argument after bufferization; the memory stage expects "
                "`(memref ins..., memref outs...) -> ()`";
    for (Type type : entry.getArgumentTypes())
      if (!isa<MemRefType>(type))
        return entry.emitError() << "kernel '" << getKernelName(kernel)
                                 << "': argument of type " << type
                                 << " is not a ranked memref after "
                                    "bufferization";
    reshapesToViews(entry);
    materializeCopies(entry, *targets);
    allocateEpilogueOutputsBeforeRoots(entry);

    Block *body = &entry.getBody().front();
    OpBuilder builder(&getContext());
    Builder &b = builder;
    ArgumentDims dims(entry);

    // Arguments: the alignment the ABI guarantees, asserted for the
    // vectorizer and the backends.
    builder.setInsertionPointToStart(body);
    SmallVector<Attribute> arguments;
    for (BlockArgument arg : entry.getArguments()) {
      builder.create<memref::AssumeAlignmentOp>(entry.getLoc(), arg,
                                                argumentAlignment);
      auto result =
          entry.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(), kResultAttr);
      arguments.push_back(choir::EntryArgumentAttr::get(
          &getContext(), arg.getArgNumber(),
          result ? choir::ArgumentRole::Output : choir::ArgumentRole::Input,
          result ? std::optional<int64_t>(result.getInt()) : std::nullopt,
          argumentAlignment, choir::MemorySpace::Global));
    }

    // Intermediate buffers and their live ranges.
    SmallVector<Buffer> buffers;
    WalkResult nested = entry.walk([&](memref::AllocOp alloc) {
      if (alloc->getBlock() != body) {
        alloc.emitError() << "kernel '" << getKernelName(kernel)
                          << "': allocation inside a region; the buffer "
                             "planner expects straight-line code";
        return WalkResult::interrupt();
      }
      buffers.push_back({alloc, alloc, alloc, {}});
      return WalkResult::advance();
    });
    if (nested.wasInterrupted())
      return failure();
    for (Buffer &buffer : buffers) {
      for (Value alias : collectAliases(buffer.alloc.getResult()))
        for (Operation *user : alias.getUsers()) {
          Operation *top = topLevel(body, user);
          if (isa<func::ReturnOp>(top))
            return user->emitError()
                   << "an intermediate buffer escapes the kernel";
          if (isa<memref::DeallocOp>(user))
            continue;
          if (buffer.last->isBeforeInBlock(top))
            buffer.last = top;
        }
    }

    // Reuse: first fit, in program order, among buffers of the same type
    // and the same dynamic sizes whose live range has ended.
    SmallVector<Buffer *> slots;
    for (Buffer &buffer : buffers) {
      Buffer *reuse = nullptr;
      for (Buffer *slot : slots)
        if (slot->alloc.getType() == buffer.alloc.getType() &&
            slot->alloc.getDynamicSizes() ==
                buffer.alloc.getDynamicSizes() &&
            slot->last->isBeforeInBlock(buffer.first)) {
          reuse = slot;
          break;
        }
      if (!reuse) {
        slots.push_back(&buffer);
        continue;
      }
      buffer.alloc.getResult().replaceAllUsesWith(reuse->alloc.getResult());
      reuse->last = buffer.last;
      reuse->reused.push_back(buffer.alloc);
    }

    // Deallocation after the last use, numbering, and the plan.
    SmallVector<Attribute> planned;
    int64_t id = 0;
    for (Buffer *slot : slots) {
      memref::AllocOp alloc = slot->alloc;
      bool hasDealloc = llvm::any_of(alloc->getUsers(), [](Operation *user) {
        return isa<memref::DeallocOp>(user);
      });
      if (!hasDealloc) {
        builder.setInsertionPointAfter(slot->last);
        builder.create<memref::DeallocOp>(alloc.getLoc(), alloc);
      }
      alloc.setAlignment(bufferAlignment);
      alloc->setAttr(kBufferAttr, b.getI64IntegerAttr(id));

      MemRefType type = alloc.getType();
      FailureOr<AffineMap> shape = dims.traceShape(alloc.getResult());
      if (failed(shape))
        return alloc.emitError()
               << "the size of this buffer is not an affine function of the "
                  "kernel's argument dimensions";
      AffineExpr bytes = getAffineConstantExpr(elementBytes(type),
                                               &getContext());
      for (AffineExpr dim : shape->getResults())
        bytes = bytes * dim;
      // Live range in dispatch ids: the dispatches that write or read it.
      int64_t firstDispatch = -1, lastDispatch = -1;
      for (Value alias : collectAliases(alloc.getResult()))
        for (Operation *user : alias.getUsers()) {
          int64_t dispatch = getDispatchId(user);
          if (dispatch < 0)
            continue;
          firstDispatch = firstDispatch < 0 ? dispatch
                                            : std::min(firstDispatch, dispatch);
          lastDispatch = std::max(lastDispatch, dispatch);
        }
      planned.push_back(choir::BufferAttr::get(
          &getContext(), id, type.getElementType(), AffineMapAttr::get(*shape),
          AffineMapAttr::get(dims.makeMap(bytes)), bufferAlignment,
          b.getDenseI64ArrayAttr({firstDispatch, lastDispatch}),
          slot->reused.size(), choir::MemorySpace::Global));
      ++id;
    }
    for (Buffer &buffer : buffers)
      for (memref::AllocOp folded : buffer.reused)
        folded.erase();

    kernel->setAttr(choir::kMemoryPlanAttrName,
                    choir::MemoryPlanAttr::get(
                        &getContext(), b.getArrayAttr(arguments),
                        b.getArrayAttr(planned), dims.getSymbolsAttr(b)));
    return success();
  }

  void runOnOperation() override {
    ModuleOp kernel = getOperation();
    if (failed(verifyKernelModuleAnchor(kernel, getArgument())) ||
        failed(plan(kernel)))
      signalPassFailure();
  }
};

} // namespace
