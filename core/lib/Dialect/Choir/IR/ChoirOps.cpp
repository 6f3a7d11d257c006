//===- ChoirOps.cpp - Choir op verifiers and folders ----------------------===//
//
// Verifier messages name the op's values and say what would be valid, so a
// failure that reaches a user (through a pass or a stage file) is actionable.
//
//===----------------------------------------------------------------------===//

#include "accy/Dialect/Choir/IR/Choir.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace accy::choir;

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<int64_t>>
accy::choir::broadcastShapes(ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs) {
  size_t rank = std::max(lhs.size(), rhs.size());
  SmallVector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t a = i < lhs.size() ? lhs[lhs.size() - 1 - i] : 1;
    int64_t b = i < rhs.size() ? rhs[rhs.size() - 1 - i] : 1;
    int64_t &r = out[rank - 1 - i];
    if (a == b || b == 1)
      r = a;
    else if (a == 1)
      r = b;
    else if (ShapedType::isDynamic(a) || ShapedType::isDynamic(b))
      r = ShapedType::isDynamic(a) ? b : a; // checked again at run time
    else
      return failure();
  }
  return out;
}

static std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (i)
      s += ", ";
    s += ShapedType::isDynamic(d) ? "?" : std::to_string(d);
  }
  return s + "]";
}

/// Two shapes agree when they have the same rank and every pair of sizes is
/// equal or involves a dynamic size.
static bool shapesAgree(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  return succeeded(verifyCompatibleShape(a, b));
}

static RankedTensorType tensorTy(Value v) {
  return cast<RankedTensorType>(v.getType());
}

/// Verifies the broadcast of `operands` against the op's single result.
static LogicalResult verifyBroadcastResult(Operation *op, ValueRange operands,
                                           bool checkElementType = true) {
  SmallVector<int64_t> shape;
  for (Value v : operands) {
    auto next = broadcastShapes(shape, tensorTy(v).getShape());
    if (failed(next))
      return op->emitOpError("operand shapes ")
             << shapeStr(shape) << " and " << shapeStr(tensorTy(v).getShape())
             << " do not broadcast: sizes must be equal or 1";
    shape = *next;
  }
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  if (!shapesAgree(shape, result.getShape()))
    return op->emitOpError("result shape ")
           << shapeStr(result.getShape()) << " should be the broadcast shape "
           << shapeStr(shape);
  if (checkElementType)
    for (Value v : operands)
      if (tensorTy(v).getElementType() != result.getElementType())
        return op->emitOpError("operand element type ")
               << tensorTy(v).getElementType()
               << " differs from the result element type "
               << result.getElementType() << "; insert a choir.cast";
  return success();
}

static LogicalResult verifyAxis(Operation *op, int64_t axis, int64_t rank) {
  if (axis < 0 || axis >= rank)
    return op->emitOpError("axis ")
           << axis << " is out of range for rank " << rank
           << " (expected 0 to " << rank - 1 << ")";
  return success();
}

static LogicalResult verifyDynamicSizeCount(Operation *op, size_t given,
                                            RankedTensorType type) {
  if (static_cast<int64_t>(given) != type.getNumDynamicDims())
    return op->emitOpError("expects one size operand per dynamic result "
                           "dimension (")
           << type.getNumDynamicDims() << "), but " << given << " were given";
  return success();
}

/// The splat value of a constant operand, if it is one.
static std::optional<APFloat> splatFloat(Value v) {
  DenseElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.isSplat() ||
      !isa<FloatType>(attr.getElementType()))
    return std::nullopt;
  return attr.getSplatValue<APFloat>();
}

static std::optional<APInt> splatInt(Value v) {
  DenseElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.isSplat() ||
      !isa<IntegerType>(attr.getElementType()))
    return std::nullopt;
  return attr.getSplatValue<APInt>();
}

/// True when `v` is a constant splat equal to `value` (0 or 1).
static bool isSplatOf(Value v, int value) {
  if (auto f = splatFloat(v))
    return f->isExactlyValue(value);
  if (auto i = splatInt(v))
    return *i == value;
  return false;
}

/// `x op c` folds to `x` when `c` is the identity and the op's result has
/// exactly x's type (a broadcast by the constant would change the shape).
static OpFoldResult foldIdentity(Value x, Value c, Type resultType,
                                 int identity) {
  if (x.getType() == resultType && isSplatOf(c, identity))
    return x;
  return {};
}

//===----------------------------------------------------------------------===//
// Constants and elementwise ops
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

OpFoldResult NegOp::fold(FoldAdaptor) {
  if (auto inner = getInput().getDefiningOp<NegOp>())
    return inner.getInput();
  return {};
}

LogicalResult AddOp::verify() {
  return verifyBroadcastResult(*this, {getLhs(), getRhs()});
}
LogicalResult SubOp::verify() {
  return verifyBroadcastResult(*this, {getLhs(), getRhs()});
}
LogicalResult MulOp::verify() {
  return verifyBroadcastResult(*this, {getLhs(), getRhs()});
}
LogicalResult DivOp::verify() {
  return verifyBroadcastResult(*this, {getLhs(), getRhs()});
}

OpFoldResult AddOp::fold(FoldAdaptor) {
  if (OpFoldResult r = foldIdentity(getLhs(), getRhs(), getType(), 0))
    return r;
  return foldIdentity(getRhs(), getLhs(), getType(), 0);
}
OpFoldResult SubOp::fold(FoldAdaptor) {
  return foldIdentity(getLhs(), getRhs(), getType(), 0);
}
OpFoldResult MulOp::fold(FoldAdaptor) {
  if (OpFoldResult r = foldIdentity(getLhs(), getRhs(), getType(), 1))
    return r;
  return foldIdentity(getRhs(), getLhs(), getType(), 1);
}
OpFoldResult DivOp::fold(FoldAdaptor) {
  return foldIdentity(getLhs(), getRhs(), getType(), 1);
}

LogicalResult CmpOp::verify() {
  if (tensorTy(getLhs()).getElementType() != tensorTy(getRhs()).getElementType())
    return emitOpError("compares ")
           << tensorTy(getLhs()).getElementType() << " with "
           << tensorTy(getRhs()).getElementType()
           << "; both operands need one element type";
  return verifyBroadcastResult(*this, {getLhs(), getRhs()},
                               /*checkElementType=*/false);
}

LogicalResult SelectOp::verify() {
  if (getOnTrue().getType() != getOnFalse().getType() &&
      tensorTy(getOnTrue()).getElementType() !=
          tensorTy(getOnFalse()).getElementType())
    return emitOpError("branches have element types ")
           << tensorTy(getOnTrue()).getElementType() << " and "
           << tensorTy(getOnFalse()).getElementType();
  if (failed(verifyBroadcastResult(*this, {getCond(), getOnTrue(), getOnFalse()},
                                   /*checkElementType=*/false)))
    return failure();
  if (getType().getElementType() != tensorTy(getOnTrue()).getElementType())
    return emitOpError("result element type must be the branches' ")
           << tensorTy(getOnTrue()).getElementType();
  return success();
}

LogicalResult CastOp::verify() {
  if (!shapesAgree(tensorTy(getInput()).getShape(), getType().getShape()))
    return emitOpError("changes the shape from ")
           << shapeStr(tensorTy(getInput()).getShape()) << " to "
           << shapeStr(getType().getShape()) << "; a cast keeps the shape";
  return success();
}

OpFoldResult CastOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

//===----------------------------------------------------------------------===//
// Reductions, row ops, scans
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::verify() {
  auto in = tensorTy(getInput());
  int64_t rank = in.getRank();
  SmallVector<int64_t> expected;
  for (auto [i, axis] : llvm::enumerate(getAxes())) {
    if (failed(verifyAxis(*this, axis, rank)))
      return failure();
    if (i > 0 && axis <= getAxes()[i - 1])
      return emitOpError("axes must be sorted and unique, got ")
             << shapeStr(getAxes());
  }
  for (int64_t d = 0; d < rank; ++d) {
    bool reduced = llvm::is_contained(getAxes(), d);
    if (!reduced)
      expected.push_back(in.getDimSize(d));
    else if (getKeepdims())
      expected.push_back(1);
  }
  if (!shapesAgree(expected, getType().getShape()))
    return emitOpError("result shape ")
           << shapeStr(getType().getShape()) << " should be "
           << shapeStr(expected) << " for axes " << shapeStr(getAxes())
           << (getKeepdims() ? " with keepdims" : "");
  if (in.getElementType() != getType().getElementType())
    return emitOpError("result element type must be the input's ")
           << in.getElementType();
  return success();
}

template <typename RowOp>
static LogicalResult verifyRowOp(RowOp op) {
  if (failed(verifyAxis(op, op.getAxis(), op.getType().getRank())))
    return failure();
  if (!isa<FloatType>(op.getType().getElementType()))
    return op.emitOpError("needs a floating-point input, got ")
           << op.getType().getElementType();
  return success();
}
LogicalResult SoftmaxOp::verify() { return verifyRowOp(*this); }
LogicalResult LogSoftmaxOp::verify() { return verifyRowOp(*this); }

LogicalResult ScanOp::verify() {
  return verifyAxis(*this, getAxis(), getType().getRank());
}

//===----------------------------------------------------------------------===//
// Einsum
//===----------------------------------------------------------------------===//

llvm::Expected<EinsumSpec> EinsumOp::parseSpec() {
  SmallVector<int64_t> ranks;
  for (Value v : getInputs())
    ranks.push_back(tensorTy(v).getRank());
  return EinsumSpec::parse(getSpec(), ranks);
}

LogicalResult EinsumOp::verify() {
  auto spec = parseSpec();
  if (!spec)
    return emitOpError(llvm::toString(spec.takeError()));
  // Every label has one size across the operands (1 broadcasts for batch
  // labels introduced by an ellipsis).
  llvm::DenseMap<char, int64_t> sizes;
  for (auto [index, operand] : llvm::enumerate(getInputs())) {
    const std::string &term = spec->operands[index];
    auto type = tensorTy(operand);
    if (type.getElementType() != getType().getElementType())
      return emitOpError("operand element type ")
             << type.getElementType() << " differs from the result's "
             << getType().getElementType();
    for (auto [d, label] : llvm::enumerate(term)) {
      int64_t size = type.getDimSize(d);
      auto [it, inserted] = sizes.try_emplace(label, size);
      if (inserted || it->second == size || ShapedType::isDynamic(size))
        continue;
      bool batch = label >= 'A' && label <= 'Z';
      if (batch && (size == 1 || it->second == 1)) {
        it->second = std::max(it->second, size);
        continue;
      }
      if (ShapedType::isDynamic(it->second)) {
        it->second = size;
        continue;
      }
      return emitOpError("einsum \"")
             << getSpec() << "\": '" << label << "' is " << it->second
             << " in an earlier operand but " << size << " in operand "
             << index;
    }
  }
  SmallVector<int64_t> expected;
  for (char label : spec->result)
    expected.push_back(sizes.lookup(label));
  if (!shapesAgree(expected, getType().getShape()))
    return emitOpError("result shape ")
           << shapeStr(getType().getShape()) << " should be "
           << shapeStr(expected) << " for \"" << spec->str() << "\"";
  return success();
}

//===----------------------------------------------------------------------===//
// Shapes and indexing
//===----------------------------------------------------------------------===//

LogicalResult BroadcastOp::verify() {
  auto in = tensorTy(getInput());
  if (failed(verifyDynamicSizeCount(*this, getSizes().size(), getType())))
    return failure();
  if (in.getRank() > getType().getRank())
    return emitOpError("cannot broadcast rank ")
           << in.getRank() << " to the smaller rank " << getType().getRank();
  int64_t offset = getType().getRank() - in.getRank();
  for (int64_t d = 0; d < in.getRank(); ++d) {
    int64_t from = in.getDimSize(d), to = getType().getDimSize(d + offset);
    if (from != 1 && from != to && !ShapedType::isDynamic(from) &&
        !ShapedType::isDynamic(to))
      return emitOpError("cannot broadcast ")
             << shapeStr(in.getShape()) << " to "
             << shapeStr(getType().getShape()) << ": dimension " << d
             << " is " << from << ", expected 1 or " << to;
  }
  if (in.getElementType() != getType().getElementType())
    return emitOpError("changes the element type");
  return success();
}

LogicalResult TransposeOp::verify() {
  auto in = tensorTy(getInput());
  ArrayRef<int64_t> perm = getPerm();
  if (static_cast<int64_t>(perm.size()) != in.getRank())
    return emitOpError("perm ") << shapeStr(perm) << " has " << perm.size()
                                << " entries for rank " << in.getRank();
  llvm::SmallSet<int64_t, 8> seen;
  SmallVector<int64_t> expected;
  for (int64_t p : perm) {
    if (p < 0 || p >= in.getRank() || !seen.insert(p).second)
      return emitOpError("perm ")
             << shapeStr(perm) << " is not a permutation of 0.."
             << in.getRank() - 1;
    expected.push_back(in.getDimSize(p));
  }
  if (!shapesAgree(expected, getType().getShape()))
    return emitOpError("result shape ")
           << shapeStr(getType().getShape()) << " should be "
           << shapeStr(expected);
  return success();
}

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType() &&
      llvm::equal(getPerm(), llvm::seq<int64_t>(0, getPerm().size())))
    return getInput();
  return {};
}

LogicalResult ReshapeOp::verify() {
  auto in = tensorTy(getInput());
  if (failed(verifyDynamicSizeCount(*this, getSizes().size(), getType())))
    return failure();
  if (in.hasStaticShape() && getType().hasStaticShape() &&
      in.getNumElements() != getType().getNumElements())
    return emitOpError("cannot reshape ")
           << shapeStr(in.getShape()) << " (" << in.getNumElements()
           << " elements) to " << shapeStr(getType().getShape()) << " ("
           << getType().getNumElements() << " elements)";
  if (in.getElementType() != getType().getElementType())
    return emitOpError("changes the element type");
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType() && getType().hasStaticShape())
    return getInput();
  return {};
}

LogicalResult SliceOp::verify() {
  auto in = tensorTy(getInput());
  int64_t rank = in.getRank();
  if (static_cast<int64_t>(getStaticStarts().size()) != rank ||
      static_cast<int64_t>(getStaticSizes().size()) != rank)
    return emitOpError("needs one start and one size per dimension (")
           << rank << ")";
  auto countDynamic = [](ArrayRef<int64_t> v) {
    return llvm::count_if(v, ShapedType::isDynamic);
  };
  if (countDynamic(getStaticStarts()) !=
          static_cast<int64_t>(getStarts().size()) ||
      countDynamic(getStaticSizes()) != static_cast<int64_t>(getSizes().size()))
    return emitOpError("has a dynamic start or size without its operand");
  for (int64_t d = 0; d < rank; ++d) {
    int64_t start = getStaticStarts()[d], size = getStaticSizes()[d];
    int64_t dim = in.getDimSize(d);
    if (!ShapedType::isDynamic(start) && !ShapedType::isDynamic(size) &&
        !ShapedType::isDynamic(dim) && (start < 0 || start + size > dim))
      return emitOpError("slice [")
             << start << ", " << start + size << ") of dimension " << d
             << " is out of range for size " << dim;
  }
  if (!shapesAgree(getStaticSizes(), getType().getShape()))
    return emitOpError("result shape ")
           << shapeStr(getType().getShape()) << " should be "
           << shapeStr(getStaticSizes());
  return success();
}

LogicalResult TakeOp::verify() {
  auto in = tensorTy(getInput());
  if (failed(verifyAxis(*this, getAxis(), in.getRank())))
    return failure();
  SmallVector<int64_t> expected(in.getShape().take_front(getAxis()));
  llvm::append_range(expected, tensorTy(getIndices()).getShape());
  llvm::append_range(expected, in.getShape().drop_front(getAxis() + 1));
  if (!shapesAgree(expected, getType().getShape()))
    return emitOpError("result shape ")
           << shapeStr(getType().getShape()) << " should be "
           << shapeStr(expected);
  return success();
}

LogicalResult ConcatOp::verify() {
  if (getInputs().empty())
    return emitOpError("needs at least one input");
  int64_t rank = getType().getRank();
  if (failed(verifyAxis(*this, getAxis(), rank)))
    return failure();
  for (Value v : getInputs()) {
    auto t = tensorTy(v);
    if (t.getRank() != rank || t.getElementType() != getType().getElementType())
      return emitOpError("input ")
             << t << " does not match the result rank and element type";
    for (int64_t d = 0; d < rank; ++d)
      if (d != getAxis() && !shapesAgree({t.getDimSize(d)},
                                         {getType().getDimSize(d)}))
        return emitOpError("inputs differ in dimension ")
               << d << ", which is not the concatenation axis " << getAxis();
  }
  return success();
}

LogicalResult FullOp::verify() {
  if (getValue().getType() != getType().getElementType())
    return emitOpError("value type ")
           << getValue().getType() << " differs from the element type "
           << getType().getElementType();
  return verifyDynamicSizeCount(*this, getSizes().size(), getType());
}

LogicalResult IotaOp::verify() {
  if (getType().getRank() != 1)
    return emitOpError("result must have rank 1");
  return verifyDynamicSizeCount(*this, getSize() ? 1 : 0, getType());
}

//===----------------------------------------------------------------------===//
// Losses
//===----------------------------------------------------------------------===//

LogicalResult MseOp::verify() {
  // The operands broadcast against each other; the result is their mean
  // squared difference, a scalar (so it is not the broadcast shape).
  auto lhs = tensorTy(getLhs()).getShape(), rhs = tensorTy(getRhs()).getShape();
  if (failed(broadcastShapes(lhs, rhs)))
    return emitOpError("operand shapes ")
           << shapeStr(lhs) << " and " << shapeStr(rhs)
           << " do not broadcast: sizes must be equal or 1";
  if (getType().getRank() != 0)
    return emitOpError("result must be a scalar (rank 0)");
  return success();
}

/// cross_entropy and nll take [B, C] scores and i32 labels [B].
template <typename LossOp>
static LogicalResult verifyClassLoss(LossOp op) {
  auto scores = tensorTy(op.getLhs());
  auto labels = tensorTy(op.getRhs());
  if (scores.getRank() != 2 || !isa<FloatType>(scores.getElementType()))
    return op.emitOpError("needs floating-point scores of shape [B, C], got ")
           << scores;
  if (labels.getRank() != 1 || !labels.getElementType().isInteger(32))
    return op.emitOpError("needs i32 labels of shape [B], got ") << labels;
  if (!shapesAgree({scores.getDimSize(0)}, {labels.getDimSize(0)}))
    return op.emitOpError("has ")
           << scores.getDimSize(0) << " rows of scores but "
           << labels.getDimSize(0) << " labels";
  if (op.getType().getRank() != 0)
    return op.emitOpError("result must be a scalar (rank 0)");
  return success();
}
LogicalResult CrossEntropyOp::verify() { return verifyClassLoss(*this); }
LogicalResult NllOp::verify() { return verifyClassLoss(*this); }

#define GET_OP_CLASSES
#include "accy/Dialect/Choir/IR/ChoirOps.cpp.inc"
