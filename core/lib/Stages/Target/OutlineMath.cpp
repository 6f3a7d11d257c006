//===- OutlineMath.cpp - One copy of a transcendental per NVPTX module ----===//
//
// legalize-math expands every transcendental where it stands, and code
// generation pays for each copy: gelu_mlp's 8x8 register tile applies tanh
// to 64 accumulators, 64 inlined copies that were two thirds of its PTX and
// of its code generation time. Where a gpu.module for an NVPTX target holds
// many copies of one op, they become calls of one internal function holding
// that op, which legalize-math then expands once. Where the copies have
// the same arithmetic around them that depends on one value only (gelu's
// cube, scale and halving around its tanh), the function holds that too:
// the calls stay as many, the kernel's code shrinks further. The function
// computes the same arithmetic on the same values, so results do not
// change. NVPTX only:
// ptxas keeps such a call without a stack frame or spills (docs/internals.md,
// "Outlined transcendentals"); on AMDGPU the calls saved no code generation
// time, and the host inlines them again.
//
//===----------------------------------------------------------------------===//

#include "GPULowering.h"
#include "MathLowering.h"
#include "accy/Stages/Dispatch/Plan.h"
#include "accy/Stages/Target/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/MapVector.h"

#include <map>

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

/// An arith op that may join an expression: pure, no regions, one scalar
/// result.
bool isScalarArith(Operation *op) {
  return op && isa<arith::ArithDialect>(op->getDialect()) &&
         !isa<arith::ConstantOp>(op) && op->getNumRegions() == 0 &&
         op->getNumResults() == 1 &&
         op->getResult(0).getType().isIntOrFloat() && isPure(op);
}

bool isConstant(Value value) {
  return value.getDefiningOp<arith::ConstantOp>() != nullptr;
}

/// A transcendental with the arithmetic around it that depends on one value
/// only: gelu's cube, scale and shift around its tanh, softplus's log(1 +
/// exp(x)). `ops` are in block order, end with the op of `result`, and
/// hold one expanded op; their values are used by one another only, but
/// `result`.
struct Expression {
  Value input, result;
  SmallVector<Operation *> ops;
  /// Where the first op of the expression takes the input: when an earlier
  /// expression that computes it becomes a call, this operand follows.
  OpOperand *inputUse = nullptr;

  /// The expression of `op` alone.
  static Expression of(Operation *op) {
    return Expression{op->getOperand(0), op->getResult(0), {op},
                      &op->getOpOperand(0)};
  }
};

/// The ops of an expression while it is grown around its transcendental.
using OpSet = llvm::SmallPtrSet<Operation *, 16>;

/// Whether every operand of `op` is `input`, a constant or a value of
/// `inside`.
bool takesOnly(Operation *op, Value input, const OpSet &inside) {
  return llvm::all_of(op->getOperands(), [&](Value v) {
    return v == input || isConstant(v) || inside.contains(v.getDefiningOp());
  });
}

/// The ops between `input` and `value`: `value`'s backward slice through
/// scalar arith ops of `block`, stopped at `input`; none when the slice
/// reaches another value that is not a constant.
std::optional<OpSet> sliceFrom(Value input, Value value, Block *block) {
  OpSet slice;
  SmallVector<Value> worklist{value};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (v == input || isConstant(v))
      continue;
    Operation *def = v.getDefiningOp();
    if (!isScalarArith(def) || def->getBlock() != block)
      return std::nullopt;
    if (slice.insert(def).second)
      llvm::append_range(worklist, def->getOperands());
  }
  return slice;
}

/// The input of the expression around `op` and the ops between it and
/// `op`'s operand: the value farthest back that the operand is computed
/// from alone (with constants), among the values of its backward slice, of
/// `op`'s type at both ends, as a call of the op alone has it (NVPTX passes
/// an f16 as a byte array).
std::pair<Value, OpSet> findInput(Operation *op) {
  Block *block = op->getBlock();
  Value operand = op->getOperand(0);
  SmallVector<Value> candidates{operand};
  for (size_t i = 0; i < candidates.size() && candidates.size() < 32; ++i)
    if (Operation *def = candidates[i].getDefiningOp();
        isScalarArith(def) && def->getBlock() == block)
      for (Value v : def->getOperands())
        if (!isConstant(v) && !llvm::is_contained(candidates, v))
          candidates.push_back(v);
  Value input = operand;
  OpSet between;
  for (Value candidate : candidates)
    if (auto slice = sliceFrom(candidate, operand, block);
        slice && candidate.getType() == op->getResult(0).getType() &&
        slice->size() >= between.size()) {
      input = candidate;
      between = std::move(*slice);
    }
  return {input, std::move(between)};
}

/// Adds to `inside` the arith ops of `block` that take nothing but
/// `input`, constants and values inside, until none is left to take.
void growForward(Value input, Block *block, OpSet &inside) {
  SmallVector<Value> frontier{input};
  for (Operation *member : inside)
    frontier.push_back(member->getResult(0));
  while (!frontier.empty())
    for (Operation *user : frontier.pop_back_val().getUsers())
      if (!inside.contains(user) && user->getBlock() == block &&
          isScalarArith(user) && takesOnly(user, input, inside)) {
        inside.insert(user);
        frontier.push_back(user->getResult(0));
      }
}

/// Drops from `inside` the ops grown forward that `op`'s value does not
/// reach (gelu's x / 2) unless they feed an op inside and nothing outside;
/// what they feed leaves with them. `backward` are the ops up to `op`.
void pruneUnreached(Operation *op, const OpSet &backward, OpSet &inside) {
  OpSet reached{op};
  for (bool grew = true; grew;) {
    grew = false;
    for (Operation *member : inside)
      if (!reached.contains(member) &&
          llvm::any_of(member->getOperands(), [&](Value v) {
            return reached.contains(v.getDefiningOp());
          }))
        grew = reached.insert(member).second || grew;
  }
  auto dropWithUsers = [&](Operation *member) {
    SmallVector<Operation *> dropped{member};
    while (!dropped.empty())
      for (Operation *user : dropped.pop_back_val()->getUsers())
        if (inside.erase(user))
          dropped.push_back(user);
    inside.erase(member);
  };
  for (bool pruned = true; pruned;) {
    pruned = false;
    for (Operation *member : SmallVector<Operation *>(inside.begin(),
                                                      inside.end())) {
      if (!inside.contains(member) || reached.contains(member) ||
          backward.contains(member))
        continue;
      bool usedInside = false, usedOutside = false;
      for (Operation *user : member->getUsers())
        (inside.contains(user) ? usedInside : usedOutside) = true;
      if (usedOutside || !usedInside) {
        dropWithUsers(member);
        pruned = true;
      }
    }
  }
}

/// The expression of `inside` from `input`, if one value leaves it (its
/// result, of `type`, computed by its last op).
std::optional<Expression> asExpression(Value input, const OpSet &inside,
                                       Type type) {
  Value result;
  for (Operation *member : inside)
    for (Operation *user : member->getUsers())
      if (!inside.contains(user)) {
        if (result && result != member->getResult(0))
          return std::nullopt;
        result = member->getResult(0);
      }
  if (!result || result.getType() != type)
    return std::nullopt;
  Expression e{input, result, {inside.begin(), inside.end()}, nullptr};
  llvm::sort(e.ops, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  if (e.ops.back() != result.getDefiningOp())
    return std::nullopt;
  for (Operation *member : e.ops)
    for (OpOperand &use : member->getOpOperands())
      if (!e.inputUse && use.get() == e.input)
        e.inputUse = &use;
  return e;
}

/// The largest expression of one value around `op`, or just `op`: back to
/// its input (findInput), forward to the ops that take nothing else
/// (growForward), less what `op`'s value does not reach and does not feed
/// the expression alone (pruneUnreached).
Expression growExpression(Operation *op) {
  auto [input, inside] = findInput(op);
  inside.insert(op);
  OpSet backward(inside.begin(), inside.end());
  growForward(input, op->getBlock(), inside);
  pruneUnreached(op, backward, inside);
  if (auto e = asExpression(input, inside, op->getResult(0).getType()))
    return std::move(*e);
  return Expression::of(op);
}

/// What makes two expressions one function: their ops, attributes and
/// types in order, each operand as the input, an op before it or a
/// constant's value.
std::string structureKey(const Expression &e) {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << e.input.getType().getAsOpaquePointer() << ';';
  for (Operation *op : e.ops) {
    os << op->getName().getAsOpaquePointer() << ','
       << op->getAttrDictionary().getAsOpaquePointer() << ','
       << op->getResult(0).getType().getAsOpaquePointer();
    for (Value v : op->getOperands()) {
      if (v == e.input)
        os << ",in";
      else if (auto constant = v.getDefiningOp<arith::ConstantOp>())
        os << ",c" << constant.getValue().getAsOpaquePointer();
      else
        os << ",#" << (llvm::find(e.ops, v.getDefiningOp()) - e.ops.begin());
    }
    os << ';';
  }
  return key;
}

/// `func.func private @NAME(I) -> R` computing `prototype`, internal to the
/// module; NAME gets a suffix where the module has it already.
func::FuncOp createFunction(SymbolTable &symbols, StringRef name,
                            const Expression &prototype) {
  Location loc = prototype.ops.front()->getLoc();
  OpBuilder b(prototype.result.getContext());
  Value input = prototype.inputUse->get();
  auto func = b.create<func::FuncOp>(
      loc, name, b.getFunctionType(input.getType(), prototype.result.getType()));
  symbols.insert(func);
  func.setPrivate();
  func->setAttr("llvm.linkage", LLVM::LinkageAttr::get(
                                    b.getContext(), LLVM::Linkage::Internal));
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  IRMapping mapping;
  mapping.map(input, entry->getArgument(0));
  for (Operation *op : prototype.ops) {
    for (Value v : op->getOperands())
      if (auto constant = v.getDefiningOp<arith::ConstantOp>();
          constant && !mapping.contains(v))
        b.clone(*constant, mapping);
    b.clone(*op, mapping);
  }
  b.create<func::ReturnOp>(loc, mapping.lookup(prototype.result));
  return func;
}

/// Replaces each expression of `group` by a call of `func`.
void replaceByCalls(func::FuncOp func, ArrayRef<Expression> group) {
  for (const Expression &e : group) {
    OpBuilder b(e.result.getDefiningOp());
    Value result = e.result;
    auto call =
        b.create<func::CallOp>(result.getLoc(), func, e.inputUse->get());
    result.replaceAllUsesWith(call.getResult(0));
    for (Operation *op : llvm::reverse(e.ops))
      op->erase();
  }
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
    auto functionName = [&](Operation *op) {
      std::string name;
      llvm::raw_string_ostream os(name);
      os << "__accy_" << kernel << "_" << op->getName().stripDialect() << "_"
         << op->getResult(0).getType();
      return name;
    };
    SymbolTable symbols(module);

    // The copies of one op (same op, type and flags) become calls when
    // there are enough of them, as before; those whose expressions around
    // the op have one structure, enough times, become calls of a function
    // holding the whole expression, the others of one holding the op.
    using Signature = std::tuple<OperationName, Type, DictionaryAttr>;
    llvm::MapVector<Signature, SmallVector<Operation *>> copies;
    module.walk([&](Operation *op) {
      if (isExpandedUnary(op))
        copies[{op->getName(), op->getResult(0).getType(),
                op->getAttrDictionary()}]
            .push_back(op);
    });
    llvm::SmallPtrSet<Operation *, 32> claimed;
    for (auto &[signature, ops] : copies) {
      if (ops.size() < minCopies)
        continue;
      std::string name = functionName(ops.front());
      // Every copy of the op alone has one structure.
      std::string aloneKey = structureKey(Expression::of(ops.front()));
      llvm::MapVector<std::string, SmallVector<Expression>,
                      std::map<std::string, unsigned>>
          byStructure;
      for (Operation *op : ops) {
        Expression e = growExpression(op);
        if (llvm::any_of(e.ops,
                         [&](Operation *o) { return claimed.contains(o); }))
          e = Expression::of(op);
        claimed.insert(e.ops.begin(), e.ops.end());
        std::string key = e.ops.size() == 1 ? aloneKey : structureKey(e);
        byStructure[key].push_back(std::move(e));
      }
      // Expressions of a structure too rare for a function of its own
      // call the function of the op alone.
      SmallVector<Expression> alone;
      for (auto &[key, group] : byStructure)
        if (group.size() < minCopies && key != aloneKey)
          for (Expression &e : std::exchange(group, {}))
            alone.push_back(
                Expression::of(*llvm::find_if(e.ops, isExpandedUnary)));
      llvm::append_range(byStructure[aloneKey], alone);
      for (auto &[key, group] : byStructure)
        if (!group.empty())
          replaceByCalls(createFunction(symbols, name, group.front()), group);
    }
  }
};

} // namespace
