//===- Plan.h - The dispatch plan shared by the backend stages --*- C++ -*-===//
//
// The dispatch plans the dispatch, memory, kernel and target stages hand to
// each other (typed: #choir.member and #choir.plan, ChoirPlanAttrs.td), the
// accessors of dispatch membership, and the schedule planner itself (the
// memory stage plans the copies bufferization introduces with the same
// function, so that every kernel of the product is planned alike).
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_STAGES_DISPATCH_PLAN_H
#define ACCY_STAGES_DISPATCH_PLAN_H

#include "accy/Dialect/Choir/IR/ChoirAttrs.h"
#include "accy/KernelModule/KernelModule.h"
#include "accy/ProductAttributes.h"
#include "accy/Target/TargetProfile.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"

#include <optional>

namespace mlir {
class OpOperand;
class RewriterBase;
namespace func {
class FuncOp;
} // namespace func
namespace linalg {
class LinalgOp;
} // namespace linalg
} // namespace mlir

namespace accy {
namespace choir {
class DispatchOp;
} // namespace choir

//===----------------------------------------------------------------------===//
// Schedules
//===----------------------------------------------------------------------===//

/// The schedules (elementwise, row_reduction, ...) are the choir enum.
using choir::Schedule;

/// The tag of a scan's linalg.generic (see choir::kScanAttrName).
using choir::kScanAttrName;

/// How a dispatch root is classified, with what the schedules need.
struct DispatchShape {
  Schedule schedule = Schedule::Elementwise;
  /// For row reductions and scans: the combiner op of the (single) output,
  /// e.g. arith.addf.
  mlir::Operation *combiner = nullptr;
  /// For scans: the loop of the scanned axis (i) and the masked reduction
  /// loop (j) that the quadratic tensor form adds beside it.
  int64_t scanAxis = -1, scanReduction = -1;
  /// For tiled contractions: the M, N, K loop and the batch loops, and which
  /// input is the M x K (lhs) and the K x N (rhs) operand.
  int64_t mDim = -1, nDim = -1, kDim = -1;
  llvm::SmallVector<unsigned> batchDims;
  int64_t lhsInput = -1, rhsInput = -1;
};

/// Elements of padding after each K row of the tiled contraction's tiles in
/// workgroup memory (`[BK][BM + pad]`): threads copying consecutive K of
/// one row then store to distinct banks.
inline constexpr int64_t kContractionTilePad = 4;
/// Elements past the end of each of the tiled contraction's output staging
/// rows in workgroup memory (ContractionKernel.cpp says why).
inline constexpr int64_t kContractionStagingPad = 1;

/// The tiled contraction on tensor cores (TensorCorePlan.cpp,
/// MmaContractionKernel.cpp): a block of `warpsM` x `warpsN` subgroups,
/// each computing a (BM / warpsM) x (BN / warpsN) part of the output tile
/// as fragments of the target's matrix instruction, K staged kMmaTileK at a
/// time through workgroup memory. The outputs leave through staging rows
/// in the operand tiles' bytes, `rowsPerPass` rows of each subgroup row at
/// a time, `stagingPad` f32 wider than the tile (so that a subgroup's puts
/// take the fewest wavefronts).
struct MmaInstruction {
  TensorCores kind;
  /// Its shape (M, N, K): NVIDIA's mma.sync m16n8k16, AMD's
  /// v_mfma_f32_16x16x16 (f16, bf16_1k).
  int64_t shape[3];
  int64_t subgroup, warpsM, warpsN;
  int64_t rowsPerPass, stagingPad;
};
/// The instruction of `kind` (MmaSync or Mfma).
const MmaInstruction &getMmaInstruction(TensorCores kind);
/// The instruction whose shape `mma` is, or null.
const MmaInstruction *findMmaInstruction(llvm::ArrayRef<int64_t> mma);
inline constexpr int64_t kMmaTileK = 32;
/// K tiles in flight: each operand tile is in workgroup memory twice, the
/// subgroups multiplying one while the block's threads store the next
/// (loaded into registers during the multiplication) into the other.
inline constexpr int64_t kMmaStages = 2;
/// An operand tile of a tensor-core contraction in workgroup memory, laid
/// out as the operand lies in its buffer: `[side][BK + pad]` when K is its
/// innermost dimension (`kContiguous`), else `[BK][side + pad]`. The pad
/// (kMmaTilePad elements) keeps rows a multiple of 16 bytes, as `ldmatrix`
/// reads them, and starts the 8 rows of an 8x8 matrix on distinct banks.
struct MmaOperandTile {
  bool kContiguous = true;
  int64_t rows = 0, columns = 0;
};
inline constexpr int64_t kMmaTilePad = 8;
/// The tile of the lhs (`lhs`, `side` = BM) or the rhs operand (BN).
MmaOperandTile getMmaOperandTile(mlir::linalg::LinalgOp op,
                                 const DispatchShape &shape, bool lhs,
                                 int64_t side, int64_t bk);
/// Workgroup bytes of a tensor-core contraction of tile [bm, bn, bk] with
/// `instruction`: the operand tiles of every stage, or the staging rows
/// where those are more.
int64_t getMmaWorkgroupBytes(mlir::linalg::LinalgOp op,
                             const DispatchShape &shape,
                             const MmaInstruction &instruction, int64_t bm,
                             int64_t bn, int64_t bk);
/// Whether contraction `op` runs on `profile`'s tensor cores: both inputs
/// f16 or both bf16, extended to f32 and multiplied and accumulated in f32
/// (`acc + ext(a) * ext(b)`, what `@` and `einsum` of such inputs, or of
/// their casts to f32, become), on a target with matrix instructions.
bool usesTensorCores(mlir::linalg::LinalgOp op, const DispatchShape &shape,
                     const TargetProfile &profile);
/// An elementwise op whose operands are not all contiguous along one loop
/// (a transpose, or an op reading one operand transposed): each operand's
/// innermost dimension is indexed by loop `inner` (the first output's) or
/// by loop `across`. Its GPU kernel tiles the two loops by
/// kTransposeTile x kTransposeTile and stages the operands contiguous
/// along `across` in workgroup memory (TransposeKernel.cpp); its plan
/// says so with `tile = [kTransposeTile, kTransposeTile]`.
struct TransposedLoops {
  unsigned inner = 0, across = 0;
  /// Whether `operand` is contiguous along `across` (staged).
  bool isStaged(mlir::linalg::LinalgOp op, mlir::OpOperand &operand) const;
};
inline constexpr int64_t kTransposeTile = 32;
/// The rows of the tile the threads of a block take at a time (a block of
/// kTransposeTile x kTransposeRows threads).
inline constexpr int64_t kTransposeRows = 8;

/// The loops of `op` when it is such an op, of at least a tile's elements
/// where its sizes are static; else nullopt.
std::optional<TransposedLoops> findTransposedLoops(mlir::linalg::LinalgOp op);

/// Classifies a linalg op on tensors or buffers (see
/// `accy-choir-plan-schedule` for the rules).
DispatchShape classifyDispatch(mlir::linalg::LinalgOp op);

/// Product of the static sizes of the loops of `op` that `selected` picks,
/// or nullopt when one is dynamic.
std::optional<int64_t>
staticTripCount(mlir::linalg::LinalgOp op,
                llvm::function_ref<bool(unsigned loop)> selected);

/// The combiner name recorded in plans ("addf", "maximumf", ...): the op
/// name without its dialect.
std::string combinerName(mlir::Operation *combiner);

/// The combiner of a reduction the dispatch stage classified (a root, or a
/// reduction of its row pipeline): the op yielding its one result, or null.
mlir::Operation *getYieldedCombiner(mlir::linalg::LinalgOp op);

/// What the plan of a row reduction needs to know of the row pipeline it
/// heads: its reductions in all (each needs shared memory), and whether an
/// op of it maps the row for a later op to read (the block then waits at a
/// barrier in the middle of the pipeline).
struct RowPipeline {
  int64_t reductions = 1;
  bool mapsBeforeLast = false;
};

/// The plan of `op` for `targets`.
choir::PlanAttr planDispatch(mlir::linalg::LinalgOp op,
                             llvm::ArrayRef<const TargetProfile *> targets,
                             const RowPipeline &pipeline = {});

/// What the kernel of root `op` is built from, as `plan` records it (the
/// combiner: the op yielding the root's result, checked against the plan's
/// name); an error when the op does not match its plan.
mlir::FailureOr<DispatchShape> getPlannedShape(mlir::linalg::LinalgOp op,
                                               choir::PlanAttr plan);

/// The plan of a dispatch root (its `choir.plan`, or in a `choir.dispatch`
/// region the region's) or of a region, or null; and its schedule, or none.
choir::PlanAttr getPlan(mlir::Operation *root);
std::optional<Schedule> getPlannedSchedule(mlir::Operation *root);
void setPlan(mlir::Operation *root, choir::PlanAttr plan);

/// Moves the ops of a dispatch region before it (reading its operands where
/// they read its arguments; its results become what it yields), the
/// region's plan onto its root, and erases the region.
void inlineDispatchRegion(mlir::RewriterBase &rewriter,
                          choir::DispatchOp dispatch);
/// Inlines every dispatch region nested in `root`.
void inlineDispatchRegions(mlir::RewriterBase &rewriter, mlir::Operation *root);

/// Marks `op` as a member of dispatch `id` in `role`.
void setDispatchMember(mlir::Operation *op, int64_t id,
                       choir::DispatchRole role = choir::DispatchRole::Root);
/// The dispatch id of an op (`#choir.member<N, ...>`; a region's is its
/// root's), or -1.
int64_t getDispatchId(mlir::Operation *op);
/// True for a fill folded into its dispatch root (role `init`).
bool isDispatchInit(mlir::Operation *op);
/// True for an elementwise op fused after its dispatch root (role
/// `epilogue`).
bool isDispatchEpilogue(mlir::Operation *op);
/// The root of the dispatch `op` belongs to: `op` itself for a root, a
/// region's root for a `choir.dispatch`, else the closest op of its block
/// with the same dispatch id and role `root`, following an init and
/// preceding an epilogue; null for an op of no dispatch.
mlir::Operation *getDispatchRoot(mlir::Operation *op);

/// The shapes of ops fused after a dispatch root (role `epilogue`); the
/// dispatch stage decides on tensors and the kernel stage checks again on
/// buffers with the same rules.
///
/// Whether `op` runs at the points of `root`'s result: elementwise over
/// exactly that space.
bool runsAtRootResult(mlir::linalg::LinalgOp op, mlir::linalg::LinalgOp root);
/// Whether `op` can follow `root`, a row reduction, over the same rows: it
/// maps the row elementwise, or reduces the row again into the same space.
bool followsRootRow(mlir::linalg::LinalgOp op, mlir::linalg::LinalgOp root);
/// Whether the result of `op`, fused after `root`, has one value per element
/// of the root's row (an op mapping the row) rather than one per point of
/// the root's result.
bool isPerRowElement(mlir::linalg::LinalgOp op, mlir::linalg::LinalgOp root);
/// Whether `op` can read `input`, a result computed in `root`'s kernel, there:
/// a per-point value at its own point, or at the row's point from the row's
/// elements; a per-element value at the same element.
bool readsInRootKernel(mlir::linalg::LinalgOp op, mlir::OpOperand *input,
                       mlir::linalg::LinalgOp root, bool perRowElement);

/// On buffers (the memory and kernel stages): whether `epilogue`, an
/// epilogue of `root` by its shape, can run in the root's kernel after the
/// epilogues `chain`, that is earlier than its own place. It runs at the
/// points of the root's result, or, when the root is planned as a row
/// reduction, it maps or reduces the root's rows again; it reads what the
/// kernel holds of the root and the chain (per point of the result, or per
/// row element for an op mapping the row) where the kernel holds it; every
/// value it uses exists before the root; and no op in between writes a
/// buffer it reads or touches the buffer it writes.
bool canRunInRootKernel(mlir::linalg::LinalgOp root,
                        llvm::ArrayRef<mlir::linalg::LinalgOp> chain,
                        mlir::linalg::LinalgOp epilogue);

/// Gives every use of `op`'s single result but the first in program order
/// its own copy of `op`, placed before the user (so that each user can fuse
/// or bufferize its copy on its own).
void cloneForEachUseButFirst(mlir::RewriterBase &rewriter,
                             mlir::Operation *op);

/// Makes `value` available before `point`: true when it is defined before
/// `point` in its block or outside the block, or when its defining op (and,
/// recursively, theirs) is free of memory effects and regions (or a fill on
/// tensors) and has been moved there. An epilogue's operands and captured scalars must exist where
/// its root runs.
bool hoistBefore(mlir::Value value, mlir::Operation *point);

} // namespace accy

#endif // ACCY_STAGES_DISPATCH_PLAN_H
