//===- DestinationStyle.cpp - accy-choir-destination-style ----------------===//
//
// The last pass of the tensor stage: checks that no choir op is left, gives
// each kernel function one out argument per result, into which the returned
// value is materialized, and gives each use of a tensor.empty its own. The backend bufferizes this form with
// one-shot bufferization (the out arguments become the result buffers).
//
//===----------------------------------------------------------------------===//

#include "accy/ProductAttributes.h"
#include "accy/Stages/Tensor/Passes.h"

#include "llvm/ADT/DenseSet.h"

namespace accy::tensorstage {
#define GEN_PASS_DEF_CHOIRDESTINATIONSTYLE
#include "accy/Stages/Tensor/Passes.h.inc"
} // namespace accy::tensorstage

using namespace mlir;
using namespace accy;
using namespace accy::tensorstage;


LogicalResult tensorstage::convertToDestinationStyle(func::FuncOp func) {
  if (func.isExternal() || func->hasAttr(kEntryAttr))
    return success();
  FunctionType type = func.getFunctionType();
  for (Type t : type.getResults())
    if (!isa<RankedTensorType>(t))
      return func.emitError("kernel result type ")
             << t << " is not a ranked tensor";
  Block &entry = func.getBody().front();
  unsigned numInputs = type.getNumInputs();
  Location loc = func.getLoc();
  // Out arguments: one per result, in order, after the inputs.
  SmallVector<Value> outs;
  for (auto [i, t] : llvm::enumerate(type.getResults())) {
    SmallVector<NamedAttribute> attrs;
    attrs.push_back(NamedAttribute(StringAttr::get(func.getContext(), kResultAttr),
                                   IntegerAttr::get(IntegerType::get(func.getContext(), 64), i)));
    if (Attribute dims = func.getResultAttr(i, choir::kDimsAttrName))
      attrs.push_back(NamedAttribute(
          StringAttr::get(func.getContext(), choir::kDimsAttrName), dims));
    func.insertArgument(numInputs + i, t,
                        DictionaryAttr::get(func.getContext(), attrs), loc);
    outs.push_back(entry.getArgument(numInputs + i));
  }
  for (unsigned i = 0; i < type.getNumResults(); ++i)
    func.setResultAttrs(i, DictionaryAttr::get(func.getContext()));
  WalkResult walk = func.walk([&](func::ReturnOp ret) {
    if (ret->getParentOp() != func.getOperation())
      return WalkResult::advance();
    OpBuilder b(ret);
    for (OpOperand &operand : ret->getOpOperands()) {
      Value out = outs[operand.getOperandNumber()];
      auto materialize = b.create<bufferization::MaterializeInDestinationOp>(
          ret.getLoc(), out.getType(), operand.get(), out);
      operand.set(materialize.getResult());
    }
    return WalkResult::advance();
  });
  (void)walk;
  // choir.* function attributes describe the source-level kernel.
  SmallVector<StringAttr> drop;
  for (NamedAttribute attr : func->getAttrs())
    if (attr.getName().strref().starts_with("choir."))
      drop.push_back(attr.getName());
  for (StringAttr name : drop)
    func->removeAttr(name);
  func->setAttr(kEntryAttr, UnitAttr::get(func.getContext()));
  return success();
}

/// Gives every use of a tensor.empty, and of a linalg.fill of one, its own
/// copy (CSE merges them): an initial value is a fresh buffer per use, and
/// a shared one makes the ops that write it conflict (most visibly once
/// eliminate-empty-tensors turns it into a result's out argument).
template <typename OpTy>
static void unshare(Operation *root, function_ref<bool(OpTy)> applies) {
  // In walk order, the first user keeps the original: deterministic.
  llvm::DenseSet<Operation *> seen;
  root->walk<WalkOrder::PreOrder>([&](Operation *user) {
    for (OpOperand &use : user->getOpOperands()) {
      auto def = use.get().getDefiningOp<OpTy>();
      if (!def || def->hasOneUse() || !applies(def))
        continue;
      if (seen.insert(def).second)
        continue;
      OpBuilder b(user);
      use.set(b.clone(*def)->getResult(0));
    }
  });
}

static void unshareInitialValues(Operation *root) {
  unshare<linalg::FillOp>(root, [](linalg::FillOp fill) {
    return fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>() != nullptr;
  });
  unshare<tensor::EmptyOp>(root, [](tensor::EmptyOp) { return true; });
}

namespace {

struct ChoirDestinationStylePass
    : tensorstage::impl::ChoirDestinationStyleBase<ChoirDestinationStylePass> {
  void runOnOperation() override {
    bool leftover = false;
    getOperation()->walk([&](Operation *op) {
      if (!isa<choir::ChoirDialect>(op->getDialect()))
        return;
      op->emitError() << "'" << op->getName()
                      << "' is not lowered by the tensor stage (the choir "
                         "lowering passes must run before "
                      << getArgument() << ")";
      leftover = true;
    });
    if (leftover)
      return signalPassFailure();
    SmallVector<func::FuncOp> kernels;
    getOperation()->walk([&](func::FuncOp f) {
      if (f->hasAttr(choir::kKernelAttrName))
        kernels.push_back(f);
    });
    for (func::FuncOp f : kernels)
      if (failed(convertToDestinationStyle(f)))
        return signalPassFailure();
    unshareInitialValues(getOperation());
  }
};

} // namespace
