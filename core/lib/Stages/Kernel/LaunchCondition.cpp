//===- LaunchCondition.cpp - When a launch of a launch function runs ------===//

#include "LaunchCondition.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace accy;

namespace {

/// A condition as a disjunction of conjunctions of constraints `e >= 0`:
/// no conjunction is false, an empty conjunction is true.
using Conjunction = SmallVector<AffineExpr>;
using Condition = SmallVector<Conjunction>;

Condition always() { return {Conjunction()}; }

Condition bothHold(const Condition &lhs, const Condition &rhs) {
  Condition result;
  for (const Conjunction &l : lhs)
    for (const Conjunction &r : rhs) {
      Conjunction both(l);
      both.append(r);
      result.push_back(both);
    }
  return result;
}

Condition eitherHolds(Condition lhs, const Condition &rhs) {
  lhs.append(rhs);
  return lhs;
}

/// `lhs pred rhs` for sizes (which are never negative, so signed and
/// unsigned predicates agree).
std::optional<Condition> compare(arith::CmpIPredicate pred, AffineExpr lhs,
                                 AffineExpr rhs) {
  using P = arith::CmpIPredicate;
  switch (pred) {
  case P::ult:
  case P::slt:
    return Condition{{rhs - lhs - 1}};
  case P::ule:
  case P::sle:
    return Condition{{rhs - lhs}};
  case P::ugt:
  case P::sgt:
    return Condition{{lhs - rhs - 1}};
  case P::uge:
  case P::sge:
    return Condition{{lhs - rhs}};
  case P::eq:
    return Condition{{lhs - rhs, rhs - lhs}};
  case P::ne:
    return Condition{{lhs - rhs - 1}, {rhs - lhs - 1}};
  }
  return std::nullopt;
}

/// The condition under which the i1 `value` is `holds`.
FailureOr<Condition> trace(Value value, bool holds, const ArgumentDims &dims) {
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return constant.isZero() != holds ? always() : Condition();
  Operation *def = value.getDefiningOp();
  if (auto cmp = dyn_cast_or_null<arith::CmpIOp>(def)) {
    FailureOr<AffineExpr> lhs = dims.trace(cmp.getLhs());
    FailureOr<AffineExpr> rhs = dims.trace(cmp.getRhs());
    if (failed(lhs) || failed(rhs))
      return failure();
    arith::CmpIPredicate pred =
        holds ? cmp.getPredicate() : arith::invertPredicate(cmp.getPredicate());
    if (std::optional<Condition> condition = compare(pred, *lhs, *rhs))
      return *condition;
    return failure();
  }
  if (!isa_and_nonnull<arith::AndIOp, arith::OrIOp, arith::XOrIOp>(def))
    return failure();
  if (isa<arith::XOrIOp>(def)) {
    // Negation: `x xor true`.
    if (!matchPattern(def->getOperand(1), m_One()))
      return failure();
    return trace(def->getOperand(0), !holds, dims);
  }
  FailureOr<Condition> lhs = trace(def->getOperand(0), holds, dims);
  FailureOr<Condition> rhs = trace(def->getOperand(1), holds, dims);
  if (failed(lhs) || failed(rhs))
    return failure();
  // De Morgan: a negated `and` is an `or` of the negations.
  return isa<arith::AndIOp>(def) == holds ? bothHold(*lhs, *rhs)
                                          : eitherHolds(*lhs, *rhs);
}

} // namespace

FailureOr<ArrayAttr>
accy::kernel::traceLaunchCondition(Operation *launch,
                                   const ArgumentDims &dims) {
  Condition condition = always();
  for (Operation *parent = launch->getParentOp(); !isa<func::FuncOp>(parent);
       parent = parent->getParentOp()) {
    auto branch = dyn_cast<scf::IfOp>(parent);
    if (!branch)
      return launch->emitError()
             << "a launch in a '" << parent->getName()
             << "' of the launch function: the summary states only launches "
                "under scf.if conditions on the sizes";
    bool inThen = branch.getThenRegion().isAncestor(launch->getParentRegion());
    FailureOr<Condition> taken = trace(branch.getCondition(), inThen, dims);
    if (failed(taken))
      return launch->emitError()
             << "the condition of a launch is not a combination of "
                "comparisons of affine functions of the argument dimensions";
    condition = bothHold(condition, *taken);
  }
  // Constant constraints (static sizes) hold or fail here.
  Condition stated;
  for (const Conjunction &constraints : condition) {
    Conjunction left;
    bool fails = false;
    for (AffineExpr constraint : constraints) {
      AffineExpr simplified =
          simplifyAffineExpr(constraint, 0, dims.getNumSymbols());
      if (auto constant = dyn_cast<AffineConstantExpr>(simplified))
        fails |= constant.getValue() < 0;
      else
        left.push_back(simplified);
    }
    if (fails)
      continue;
    if (left.empty())
      return ArrayAttr();
    stated.push_back(left);
  }
  // Maps rather than integer sets: MLIR 19 cannot read the `>=` of an
  // affine_set inside a dialect attribute's text, which is also how
  // bytecode stores the kernel summary.
  SmallVector<Attribute> conjunctions;
  for (const Conjunction &constraints : stated)
    conjunctions.push_back(AffineMapAttr::get(dims.makeMap(constraints)));
  return ArrayAttr::get(launch->getContext(), conjunctions);
}
