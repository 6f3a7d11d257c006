//===- PrepareBufferization.cpp - Read-only inputs, unshared empties ------===//
//
// Gets the dispatch product ready for empty tensor elimination and one-shot
// bufferization: inputs read-only, every result materialized once into its
// output, each tensor.empty used once, and reshaped tensors in buffers of
// their own.
//
//===----------------------------------------------------------------------===//

#include "accy/Stages/Dispatch/Plan.h"
#include "accy/Stages/Memory/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

namespace accy::memory {
#define GEN_PASS_DEF_PREPAREBUFFERIZATION
#include "accy/Stages/Memory/Passes.h.inc"
} // namespace accy::memory

using namespace mlir;
using namespace accy;

namespace {

struct PrepareBufferizationPass
    : public accy::memory::impl::PrepareBufferizationBase<
          PrepareBufferizationPass> {
  LogicalResult prepare(ModuleOp kernel) {
    func::FuncOp entry = getKernelEntry(kernel);
    if (!entry)
      return failure();
    OpBuilder b(&getContext());
    for (unsigned i = 0; i < entry.getNumArguments(); ++i) {
      if (!isa<TensorType>(entry.getArgumentTypes()[i]) ||
          entry.getArgAttr(i, kResultAttr))
        continue;
      entry.setArgAttr(i,
                       bufferization::BufferizationDialect::kWritableAttrName,
                       b.getBoolAttr(false));
    }
    // Every result goes through materialize_in_destination into its output
    // argument (the contract; patterns may have dropped it), so that empty
    // tensor elimination writes it in place.
    llvm::DenseMap<int64_t, BlockArgument> outputs;
    for (BlockArgument arg : entry.getArguments())
      if (auto index =
              entry.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                  kResultAttr))
        outputs[index.getInt()] = arg;
    for (auto ret : llvm::to_vector(entry.getOps<func::ReturnOp>())) {
      // A value returned as several results is written into the first one's
      // output and copied from there into the others: two writes of one
      // value into two outputs leave one-shot bufferization no in-place
      // choice without a read-after-write conflict.
      llvm::DenseMap<Value, Value> written;
      for (OpOperand &operand : ret->getOpOperands()) {
        BlockArgument output = outputs.lookup(operand.getOperandNumber());
        if (!output || output.getType() != operand.get().getType())
          continue;
        auto materialize =
            operand.get()
                .getDefiningOp<bufferization::MaterializeInDestinationOp>();
        if (operand.get() == output)
          continue;
        bool inOutput = materialize && materialize.getDest() == output;
        Value source = inOutput ? materialize.getSource() : operand.get();
        auto [first, isFirst] = written.try_emplace(source, Value());
        if (isFirst && inOutput) {
          first->second = materialize.getResult();
          continue;
        }
        b.setInsertionPoint(ret);
        auto copy = b.create<bufferization::MaterializeInDestinationOp>(
            ret.getLoc(), output.getType(),
            isFirst ? source : first->second, output);
        operand.set(copy.getResult());
        if (isFirst)
          first->second = copy.getResult();
        if (inOutput && materialize->use_empty())
          materialize->erase();
      }
    }

    SmallVector<tensor::EmptyOp> empties;
    entry.walk([&](tensor::EmptyOp op) { empties.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (tensor::EmptyOp empty : empties)
      cloneForEachUseButFirst(rewriter, empty);
    entry.walk([&](tensor::ReshapeOp reshape) {
      keepOwnBuffer(rewriter, reshape.getSource());
    });
    return success();
  }

  /// Empty tensor elimination places the tensor.empty that ends in an output
  /// (or a slice of one) in that output, checking only that their types
  /// match. A tensor.reshape between them keeps the type (tensor<?x?xf32>)
  /// while it changes the sizes (reshape(transpose(x), [N, D])): the empty
  /// D x N would be written through the N x D output's sizes and strides.
  /// So the tensor a reshape reads gets a buffer of its own
  /// (bufferization.alloc_tensor, which elimination leaves alone).
  static void keepOwnBuffer(IRRewriter &rewriter, Value source) {
    // Back through the ops that write into their init operand in place.
    while (auto result = dyn_cast<OpResult>(source)) {
      auto dps = dyn_cast<DestinationStyleOpInterface>(result.getOwner());
      if (!dps)
        break;
      source = dps.getTiedOpOperand(result)->get();
    }
    auto empty = source.getDefiningOp<tensor::EmptyOp>();
    if (!empty)
      return;
    rewriter.setInsertionPoint(empty);
    rewriter.replaceOpWithNewOp<bufferization::AllocTensorOp>(
        empty, empty.getType(), empty.getDynamicSizes());
  }

  void runOnOperation() override {
    ModuleOp kernel = getOperation();
    if (failed(verifyKernelModuleAnchor(kernel, getArgument())) ||
        failed(prepare(kernel)))
      signalPassFailure();
  }
};

} // namespace
