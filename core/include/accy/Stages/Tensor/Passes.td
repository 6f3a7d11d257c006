//===- Passes.td - Passes of the tensor stage --------------*- tablegen -*-===//
//
// The tensor stage lowers every choir op of the contract product to
// linalg/tensor/arith/math on tensors and rewrites each kernel function into
// destination-passing style. Each lowering pass owns a set of choir ops; an
// op of its set that it cannot lower fails the pass with
// `'choir.X' is not yet lowered by <pass>` on the op (and a note saying why).
// Each pass works on every func.func at or below its anchor.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_STAGES_TENSOR_PASSES
#define ACCY_STAGES_TENSOR_PASSES

include "mlir/Pass/PassBase.td"

defvar TensorLoweringDialects = ["::mlir::arith::ArithDialect",
                                 "::mlir::linalg::LinalgDialect",
                                 "::mlir::math::MathDialect",
                                 "::mlir::tensor::TensorDialect"];

def ChoirLossLower : Pass<"accy-choir-loss-lower", "mlir::ModuleOp"> {
  let summary = "Lower mse, cross_entropy and nll to reductions";
  let description = [{
    `mse(p, t)` is the mean of `(p - t)^2` over the broadcast shape;
    `cross_entropy(x, l)` is the mean over the batch of
    `max_c x + log(sum_c exp(x - max_c x)) - x[b, l_b]` (the log-sum-exp
    form); `nll(lp, l)` is `-mean_b lp[b, l_b]`. Labels are clamped to
    `[0, C-1]`. Each becomes `linalg.generic` reductions into a rank-0
    tensor; f16/bf16 accumulate in f32.
  }];
  let dependentDialects = TensorLoweringDialects;
}

def ChoirActivationLower
    : Pass<"accy-choir-activation-lower", "mlir::ModuleOp"> {
  let summary = "Lower activations, softmax and log_softmax to linalg";
  let description = [{
    `relu gelu sigmoid tanh silu exp log sqrt rsqrt abs neg` become one
    elementwise `linalg.generic` each (math dialect inside; `gelu` in the
    tanh form `0.5x(1 + tanh(sqrt(2/pi)(x + 0.044715x^3)))`). `softmax` and
    `log_softmax` become the numerically stable form: a max reduction, then
    `exp(x - max)`, a sum reduction, and a division (or
    `x - max - log(sum)`). Reductions are `linalg.generic` ops with reduction
    iterators initialised by `linalg.fill`. f16/bf16 compute in f32; `relu`,
    `abs` and `neg` also take (non-bool) integers, with arith integer ops.
  }];
  let dependentDialects = TensorLoweringDialects;
}

def ChoirEinsumLower : Pass<"accy-choir-einsum-lower", "mlir::ModuleOp"> {
  let summary = "Lower einsum (and `@`) to linalg contractions";
  let description = [{
    One loop per label: result labels are parallel, the others reductions.
    Repeated labels in an operand read a diagonal; an ellipsis dimension of
    size 1 against a larger one is broadcast (the unit dimension is
    collapsed and not indexed). Where there are reduction loops the
    accumulator is zero-filled; f16/bf16 accumulate in f32 and are truncated
    afterwards. `ij,jk->ik` and `bij,bjk->bik` without broadcasting, and not
    in f16/bf16, become `linalg.matmul` and `linalg.batch_matmul` when
    `use-named-ops` is set.
  }];
  let options = [
    Option<"useNamedOps", "use-named-ops", "bool", "true",
           "Use linalg.matmul / linalg.batch_matmul where they match">
  ];
  let dependentDialects = TensorLoweringDialects;
}

def ChoirIndexingLower : Pass<"accy-choir-indexing-lower", "mlir::ModuleOp"> {
  let summary = "Lower slices, gathers, transposes, reshapes, broadcasts, "
                "concat and scans";
  let description = [{
    `slice` -> `tensor.extract_slice`; `take` -> a `linalg.generic` reading
    the input with `tensor.extract` at indices clamped to `[0, size-1]`;
    `transpose` -> `linalg.transpose`; `reshape` -> `tensor.collapse_shape`
    or `tensor.expand_shape` where the grouping of dimensions is certain (at
    most one dynamic size on each side), else through rank 1 (collapse, then
    expand, with at most one dynamic result size), else `tensor.reshape`
    with the result shape as a tensor; `broadcast` -> unit dimensions
    collapsed, then `linalg.broadcast`; `concat` ->
    `tensor.insert_slice` into a `tensor.empty`; `scan` -> a masked
    `linalg.generic` reduction (`out[i] = sum/max over j <= i`) tagged
    `choir.scan` for the dispatch stage.
  }];
  let dependentDialects = TensorLoweringDialects;
}

def ChoirReductionLower
    : Pass<"accy-choir-reduction-lower", "mlir::ModuleOp"> {
  let summary = "Lower sum, mean, max and min reductions";
  let description = [{
    A `linalg.generic` with reduction iterators over the reduced axes into a
    `linalg.fill`ed accumulator (0, -inf or +inf; the integer extremes for
    integers), then a division by the element count for `mean`; `keepdims`
    adds the unit dimensions back with `tensor.expand_shape`. f16/bf16 sums
    and means accumulate in f32; max and min stay in the element type.
  }];
  let dependentDialects = TensorLoweringDialects;
}

def ChoirElementwiseLower
    : Pass<"accy-choir-elementwise-lower", "mlir::ModuleOp"> {
  let summary = "Lower arithmetic, comparisons, select, casts and constants";
  let description = [{
    `add sub mul div cmp select cast` become elementwise `linalg.generic`
    ops (any remaining implicit broadcast is read through the indexing
    maps); `constant` becomes `linalg.fill` for a splat and
    `arith.constant` otherwise; `full` becomes `linalg.fill` of a
    `tensor.empty`; `iota` a `linalg.generic` over `linalg.index`. Floats
    use arith float ops (ordered comparisons, `une` for `!=`), integers
    signed arith integer ops (booleans compare unsigned); integer division
    never traps (`x / 0` is 0, `x / -1` is `-x`, wrapping).
  }];
  let dependentDialects = TensorLoweringDialects;
}

def ChoirDestinationStyle
    : Pass<"accy-choir-destination-style", "mlir::ModuleOp"> {
  let summary = "Rewrite each kernel function into destination-passing style";
  let description = [{
    Checks that no choir op is left. Every `func.func` with `choir.kernel`
    gets one trailing out argument per result (`accy.result = i`, with the
    result's `choir.dims`), each returned value is written into its out
    argument with `bufferization.materialize_in_destination`, and the
    function is marked `accy.entry` (the `choir.*` function attributes are
    dropped). Every use of a `tensor.empty` (or of a `linalg.fill` of one)
    gets its own (CSE merges them), so that bufferization gives each op its
    own buffer and `eliminate-empty-tensors` can turn each into its out
    argument.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

#endif // ACCY_STAGES_TENSOR_PASSES
