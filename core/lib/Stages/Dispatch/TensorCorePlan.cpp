//===- TensorCorePlan.cpp - Which contractions run on tensor cores --------===//
//
// The tiled contraction takes tensor cores where its inputs are f16 or bf16
// and it accumulates their exact f32 products in f32: the matrix
// instructions compute exactly that (products exact, sums in f32). Any
// other payload (f32 inputs, integer contractions, a payload that rounds
// in between) keeps the SIMT schedule, so f32 stays IEEE.
//
//===----------------------------------------------------------------------===//

#include "accy/Stages/Dispatch/Plan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace accy;

// NVIDIA: 8 warps, 2 x 4, a lane's accumulators in rows g and g + 8 of a
// fragment (8 rows of a subgroup row a pass; rows 8 f32 banks apart, so
// that a warp's 64-bit puts take two wavefronts). AMD: 4 waves, 2 x 2, a
// lane's four accumulators in rows 4 (lane / 16) to + 3 (16 rows a pass;
// rows 16 banks apart, so that the two halves of a wave's row put fall on
// distinct banks).
static const MmaInstruction kMmaSync = {
    TensorCores::MmaSync, {16, 8, 16}, 32, 2, 4, 8, 8};
static const MmaInstruction kMfma = {
    TensorCores::Mfma, {16, 16, 16}, 64, 2, 2, 16, 4};

const MmaInstruction &accy::getMmaInstruction(TensorCores kind) {
  return kind == TensorCores::Mfma ? kMfma : kMmaSync;
}

const MmaInstruction *accy::findMmaInstruction(ArrayRef<int64_t> mma) {
  for (const MmaInstruction *instruction : {&kMmaSync, &kMfma})
    if (mma == ArrayRef<int64_t>(instruction->shape))
      return instruction;
  return nullptr;
}

MmaOperandTile accy::getMmaOperandTile(linalg::LinalgOp op,
                                       const DispatchShape &shape, bool lhs,
                                       int64_t side, int64_t bk) {
  OpOperand &operand = op->getOpOperand(lhs ? shape.lhsInput : shape.rhsInput);
  AffineMap map = op.getMatchingIndexingMap(&operand);
  bool kContiguous =
      map.getNumResults() > 0 &&
      map.getResults().back() == getAffineDimExpr(shape.kDim, op.getContext());
  if (kContiguous)
    return {true, side, bk + kMmaTilePad};
  return {false, bk, side + kMmaTilePad};
}

int64_t accy::getMmaWorkgroupBytes(linalg::LinalgOp op,
                                   const DispatchShape &shape,
                                   const MmaInstruction &instruction,
                                   int64_t bm, int64_t bn, int64_t bk) {
  // Both inputs are 16-bit (usesTensorCores); the staging rows are f32.
  auto bytes = [](const MmaOperandTile &tile) {
    return tile.rows * tile.columns * 2;
  };
  return std::max(kMmaStages *
                      (bytes(getMmaOperandTile(op, shape, true, bm, bk)) +
                       bytes(getMmaOperandTile(op, shape, false, bn, bk))),
                  instruction.warpsM * instruction.rowsPerPass *
                      (bn + instruction.stagingPad) * 4);
}

/// Whether `value` is block argument `input` of the payload extended from
/// f16 or bf16 to f32.
static bool isExtendedInput(Value value, Block &body, int64_t input) {
  auto ext = value.getDefiningOp<arith::ExtFOp>();
  return ext && ext.getIn() == body.getArgument(input) && ext.getType().isF32();
}

bool accy::usesTensorCores(linalg::LinalgOp op, const DispatchShape &shape,
                           const TargetProfile &profile) {
  if (profile.tensorCores == TensorCores::None ||
      shape.schedule != Schedule::TiledContraction ||
      op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
    return false;
  Type a = getElementTypeOrSelf(op->getOperand(shape.lhsInput).getType());
  Type b = getElementTypeOrSelf(op->getOperand(shape.rhsInput).getType());
  Type out = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  if (a != b || !(a.isF16() || a.isBF16()) || !out.isF32())
    return false;
  // The payload: yield acc + ext(a) * ext(b), in either operand order.
  Block &body = op->getRegion(0).front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  if (body.getOperations().size() != 5 || yield.getNumOperands() != 1)
    return false;
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  Value acc = body.getArgument(2);
  Value product = add.getLhs() == acc ? add.getRhs() : add.getLhs();
  auto mul = product.getDefiningOp<arith::MulFOp>();
  if ((add.getLhs() != acc && add.getRhs() != acc) || !mul ||
      add.getFastmath() != arith::FastMathFlags::none ||
      mul.getFastmath() != arith::FastMathFlags::none)
    return false;
  int64_t lhs = shape.lhsInput, rhs = shape.rhsInput;
  return (isExtendedInput(mul.getLhs(), body, lhs) &&
          isExtendedInput(mul.getRhs(), body, rhs)) ||
         (isExtendedInput(mul.getLhs(), body, rhs) &&
          isExtendedInput(mul.getRhs(), body, lhs));
}
