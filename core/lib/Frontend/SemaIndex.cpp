//===- SemaIndex.cpp - Slicing, point indices and gathers -----------------===//
//
// x[a:b, :, i, idx]: slices keep an axis, integer indices drop it, an i32
// tensor gathers along its axis (take). Negative constant bounds count from
// the end. Bounds that are provably out of range are errors; bounds that
// cannot be decided at compile time (symbolic) are marked for a run-time
// check.
//
//===----------------------------------------------------------------------===//

#include "SemaImpl.h"

using namespace accy;
using namespace accy::sema;

/// `d` with every symbol S replaced by S + 1: since sizes are at least 1,
/// the result's symbols range over all values >= 0.
static std::optional<Dim> shiftedByOne(const Dim &d) {
  std::map<std::string, Dim> shift;
  for (const std::string &s : d.symbols())
    shift[s] = *Dim::add(Dim::symbol(s), Dim::constant(1));
  return d.substitute(shift);
}

/// True when `d` is >= 0 for every value (>= 1) of its symbols. Sound, not
/// complete: all coefficients of the shifted polynomial must be >= 0.
static bool provablyNonNegative(const Dim &d) {
  std::optional<Dim> shifted = shiftedByOne(d);
  if (!shifted)
    return false;
  for (const Dim::Term &t : shifted->terms())
    if (t.coeff < 0)
      return false;
  return true;
}

/// True when `d` is > 0 for every value (>= 1) of its symbols.
static bool provablyPositive(const Dim &d) {
  std::optional<Dim> shifted = shiftedByOne(d);
  if (!shifted || !provablyNonNegative(d))
    return false;
  // With non-negative coefficients the minimum is the constant term.
  for (const Dim::Term &t : shifted->terms())
    if (t.symbols.empty())
      return t.coeff > 0;
  return false;
}

/// True when `d` is < 0 for every value (>= 1) of its symbols.
static bool provablyNegative(const Dim &d) {
  std::optional<Dim> negated = Dim::sub(Dim(), d);
  return negated && provablyPositive(*negated);
}

/// True when `d` is <= 0 for every value (>= 1) of its symbols.
static bool provablyNonPositive(const Dim &d) {
  std::optional<Dim> negated = Dim::sub(Dim(), d);
  return negated && provablyNonNegative(*negated);
}

namespace {
struct Bound {
  Dim value;         ///< Resolved (negative constants counted from the end).
  std::string shown; ///< As written, for messages.
};
} // namespace

ExprPtr Sema::checkIndex(const syntax::IndexExpr &e, Scope &scope) {
  ExprPtr base = checkExpr(*e.base, scope);
  if (llvm::isa<ErrorExpr>(*base))
    return makeError(e.range);
  const TensorType &type = base->type;
  unsigned rank = type.rank();
  if (rank == 0) {
    error(DiagCode::TooManyIndices, e.range,
          "cannot index the scalar " + type.str());
    return makeError(e.range);
  }
  if (e.items.size() > rank) {
    error(DiagCode::TooManyIndices, e.items[rank].range,
          "too many indices for " + type.str() + ": " +
              std::to_string(e.items.size()) + " given but it has " +
              std::to_string(rank) + (rank == 1 ? " axis" : " axes"));
    return makeError(e.range);
  }

  auto overflow = [&](SourceRange r) {
    error(DiagCode::SizeOverflow, r, "index arithmetic overflows 64-bit "
                                     "integers");
  };
  auto axisText = [&](size_t axis) {
    return "axis " + std::to_string(axis) + " of " + type.str() + " (size " +
           type.shape[axis].str() + ")";
  };
  // Evaluates a bound or point index; negative constants count from the end.
  auto evalBound = [&](const syntax::Expr &expr, const Dim &size,
                       llvm::StringRef what) -> std::optional<Bound> {
    CValue v = evalConst(expr, scope, /*dimContext=*/what != "an index");
    if (v.kind == CValue::Kind::Error)
      return std::nullopt;
    if (!v.isIntLike()) {
      error(DiagCode::InvalidIndex, expr.range,
            what.str() + " must be an integer constant or a dimension, got " +
                v.describe());
      return std::nullopt;
    }
    Bound b{v.asDim(), v.asDim().str()};
    if (v.kind == CValue::Kind::Int && v.intValue < 0) {
      std::optional<Dim> fromEnd = Dim::add(size, b.value);
      if (!fromEnd) {
        overflow(expr.range);
        return std::nullopt;
      }
      b.value = *fromEnd;
    }
    return b;
  };

  std::vector<IndexAxis> axes(rank);
  ExprPtr gather;
  Dim zero;
  for (size_t i = 0; i < e.items.size(); ++i) {
    const syntax::IndexItem &item = e.items[i];
    const Dim &size = type.shape[i];
    IndexAxis &axis = axes[i];
    axis.range = item.range;
    if (item.isSlice) {
      if (!item.start && !item.stop)
        continue; // A plain ':' keeps the axis.
      Bound start{zero, "0"}, stop{size, size.str()};
      if (item.start) {
        std::optional<Bound> b = evalBound(*item.start, size, "a slice start");
        if (!b)
          return makeError(e.range);
        start = *b;
      }
      if (item.stop) {
        std::optional<Bound> b = evalBound(*item.stop, size, "a slice stop");
        if (!b)
          return makeError(e.range);
        stop = *b;
      }
      std::optional<Dim> length = Dim::sub(stop.value, start.value);
      std::optional<Dim> room = Dim::sub(size, stop.value);
      std::optional<Dim> roomStart = Dim::sub(size, start.value);
      if (!length || !room || !roomStart) {
        overflow(item.range);
        return makeError(e.range);
      }
      if (provablyNegative(start.value) || provablyNegative(*roomStart)) {
        error(DiagCode::IndexOutOfRange, item.start->range,
              "slice start " + start.shown + " is out of range for " +
                  axisText(i));
        return makeError(e.range);
      }
      if (provablyNegative(stop.value) || provablyNegative(*room)) {
        error(DiagCode::IndexOutOfRange, item.stop->range,
              "slice stop " + stop.shown + " is out of range for " +
                  axisText(i));
        return makeError(e.range);
      }
      if (provablyNonPositive(*length)) {
        error(DiagCode::IndexOutOfRange, item.range,
              "slice " + start.shown + ":" + stop.shown + " of " +
                  axisText(i) + " is empty");
        return makeError(e.range);
      }
      axis.kind = IndexAxis::Kind::Slice;
      axis.start = start.value;
      axis.stop = stop.value;
      axis.provenInRange = provablyNonNegative(start.value) &&
                           provablyNonNegative(*room) &&
                           provablyPositive(*length);
      continue;
    }

    CValue v = evalConst(*item.index, scope);
    if (v.kind == CValue::Kind::Error)
      return makeError(e.range);
    if (v.isIntLike()) {
      std::optional<Bound> b = evalBound(*item.index, size, "an index");
      if (!b)
        return makeError(e.range);
      std::optional<Dim> room = Dim::sub(size, b->value);
      if (!room) {
        overflow(item.range);
        return makeError(e.range);
      }
      if (provablyNegative(b->value) || provablyNonPositive(*room)) {
        error(DiagCode::IndexOutOfRange, item.range,
              "index " + b->shown + " is out of range for " + axisText(i));
        return makeError(e.range);
      }
      axis.kind = IndexAxis::Kind::Point;
      axis.start = b->value;
      axis.provenInRange =
          provablyNonNegative(b->value) && provablyPositive(*room);
      continue;
    }
    if (v.kind != CValue::Kind::NotConst) {
      error(DiagCode::InvalidIndex, item.range,
            "an index must be an integer, a dimension or an i32 tensor, got " +
                v.describe());
      return makeError(e.range);
    }
    ExprPtr idx = checkExpr(*item.index, scope);
    if (llvm::isa<ErrorExpr>(*idx))
      return makeError(e.range);
    if (idx->type.elem != ElemType::I32) {
      error(DiagCode::InvalidIndex, item.range,
            "an index must be an integer, a dimension or an i32 tensor, got " +
                idx->type.str());
      return makeError(e.range);
    }
    if (gather) {
      error(DiagCode::InvalidIndex, item.range,
            "only one tensor index is allowed in one subscript; use take() "
            "for more");
      return makeError(e.range);
    }
    axis.kind = IndexAxis::Kind::Gather;
    gather = std::move(idx);
  }

  Shape shape;
  for (size_t i = 0; i < rank; ++i) {
    const IndexAxis &axis = axes[i];
    switch (axis.kind) {
    case IndexAxis::Kind::Full:
      shape.push_back(type.shape[i]);
      break;
    case IndexAxis::Kind::Slice:
      shape.push_back(*Dim::sub(axis.stop, axis.start));
      break;
    case IndexAxis::Kind::Point:
      break;
    case IndexAxis::Kind::Gather:
      shape.insert(shape.end(), gather->type.shape.begin(),
                   gather->type.shape.end());
      break;
    }
  }
  auto node = make<IndexExpr>(TensorType(type.elem, std::move(shape)),
                              e.range);
  node->axes = std::move(axes);
  node->operands.push_back(std::move(base));
  if (gather)
    node->operands.push_back(std::move(gather));
  return node;
}
