//===- OutlineMath.cpp - One copy of a transcendental per NVPTX module ----===//
//
// legalize-math expands every transcendental where it stands, and code
// generation pays for each copy: gelu_mlp's 8x8 register tile applies tanh
// to 64 accumulators, 64 inlined copies that were two thirds of its PTX and
// of its code generation time. Where a gpu.module for an NVPTX target holds
// many copies of one op, they become calls of one internal function holding
// that op, which legalize-math then expands once. The function computes the
// same arithmetic on the same value, so results do not change. NVPTX only:
// ptxas keeps such a call without a stack frame or spills (docs/internals.md,
// "Outlined transcendentals"); on AMDGPU the calls saved no code generation
// time, and the host inlines them again.
//
//===----------------------------------------------------------------------===//

#include "GPULowering.h"
#include "MathLowering.h"
#include "accy/Stages/Dispatch/Plan.h"
#include "accy/Stages/Target/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/MapVector.h"

namespace accy::target {
#define GEN_PASS_DEF_OUTLINEMATH
#include "accy/Stages/Target/Passes.h.inc"
} // namespace accy::target

using namespace mlir;
using namespace accy;

namespace {

/// A unary scalar op that legalize-math expands into arithmetic.
bool isExpandedUnary(Operation *op) {
  return op->getDialect() && isa<math::MathDialect>(op->getDialect()) &&
         !target::isNativeMathOp(op) && op->getNumOperands() == 1 &&
         op->getNumResults() == 1 && op->getNumRegions() == 0 &&
         op->getResult(0).getType() == op->getOperand(0).getType() &&
         op->getResult(0).getType().isIntOrFloat();
}

/// `func.func private @NAME(T) -> T { return OP(arg) }`, internal to the
/// module; NAME gets a suffix where the module has it already.
func::FuncOp createFunction(SymbolTable &symbols, StringRef name,
                            Operation *prototype) {
  OpBuilder b(prototype->getContext());
  Type type = prototype->getResult(0).getType();
  auto func = b.create<func::FuncOp>(prototype->getLoc(), name,
                                     b.getFunctionType(type, type));
  symbols.insert(func);
  func.setPrivate();
  func->setAttr("llvm.linkage", LLVM::LinkageAttr::get(
                                    b.getContext(), LLVM::Linkage::Internal));
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  IRMapping mapping;
  mapping.map(prototype->getOperand(0), entry->getArgument(0));
  Operation *op = b.clone(*prototype, mapping);
  b.create<func::ReturnOp>(prototype->getLoc(), op->getResults());
  return func;
}

struct OutlineMathPass
    : public accy::target::impl::OutlineMathBase<OutlineMathPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    if (!target::hasTarget<NVVM::NVVMTargetAttr>(module))
      return;
    // The kernel module around this one names the functions: the PTX of
    // several kernels is merged into one module, where names must differ.
    StringRef kernel = "kernel";
    if (auto parent = module->getParentOfType<ModuleOp>())
      kernel = getKernelName(parent);

    // The ops that become one function: same op, type and flags.
    using Signature = std::tuple<OperationName, Type, DictionaryAttr>;
    llvm::MapVector<Signature, SmallVector<Operation *>> copies;
    SymbolTable symbols(module);
    module.walk([&](Operation *op) {
      if (isExpandedUnary(op))
        copies[{op->getName(), op->getResult(0).getType(),
                op->getAttrDictionary()}]
            .push_back(op);
    });
    for (auto &[signature, ops] : copies) {
      if (ops.size() < minCopies)
        continue;
      std::string name;
      llvm::raw_string_ostream os(name);
      os << "__accy_" << kernel << "_"
         << std::get<OperationName>(signature).stripDialect() << "_"
         << std::get<Type>(signature);
      func::FuncOp func = createFunction(symbols, name, ops.front());
      for (Operation *op : ops) {
        OpBuilder b(op);
        auto call =
            b.create<func::CallOp>(op->getLoc(), func, op->getOperands());
        op->replaceAllUsesWith(call);
        op->erase();
      }
    }
  }
};

} // namespace
