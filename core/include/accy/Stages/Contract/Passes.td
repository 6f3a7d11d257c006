//===- Passes.td - Passes of the contract stage ------------*- tablegen -*-===//
//
// The contract stage turns the semantic product (choir ops at source level,
// implicit broadcasting, symbolic sizes) into the backend contract: every
// broadcast explicit, every shape and layout resolved, constants folded.
// Each pass works on every func.func at or below its anchor, so it runs on a
// single kernel module as well as on a file's top-level module.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_STAGES_CONTRACT_PASSES
#define ACCY_STAGES_CONTRACT_PASSES

include "mlir/Pass/PassBase.td"

def ChoirCanonicalize : Pass<"accy-choir-canonicalize", "mlir::ModuleOp"> {
  let summary = "Fold choir ops, apply the canonicalization patterns, then CSE";
  let description = [{
    Runs the choir folders and canonicalization patterns (with those of
    `tensor.dim` and `arith`, which carry the symbolic sizes, and of
    `tensor.cast`) to a fixpoint: `x + 0`, `x - 0`, `x * 1`, `x / 1` (a
    broadcast when the constant is the larger operand), double negation,
    identity `transpose`, `reshape`, `broadcast` and `cast`, `select` on a
    constant condition. Then common subexpressions are eliminated.
  }];
  let dependentDialects = ["::accy::choir::ChoirDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
  let statistics = [
    Statistic<"numRewrites", "num-rewrites",
              "Number of canonicalization rewrites that fired">
  ];
}

def ChoirSaturate : Pass<"accy-choir-saturate", "mlir::ModuleOp"> {
  let summary = "Apply the algebraic rewrite set to a bounded fixpoint";
  let description = [{
    The rewrites: transpose of transpose (composed, or removed when the
    composition is the identity); reshape of reshape; broadcast of broadcast;
    `exp(log x) -> x`; `softmax(x + c)` and `softmax(x - c)` (and
    `log_softmax`) with `c` constant along the axis -> `softmax(x)`; a
    `sum` of a broadcast over the broadcast axes becomes a multiplication by
    the number of copies (`mean`, `max`, `min` of such a broadcast become the
    input); and an einsum feeding one other einsum is merged into it when the
    merged iteration space is no larger than the two separate ones together
    (dynamic sizes count as `dynamic-size-estimate`). The greedy driver stops
    after `max-iterations` sweeps; the statistic `num-rewrites` counts what
    fired (and `emit-remarks` reports it where LLVM statistics are compiled
    out).
  }];
  let options = [
    Option<"maxIterations", "max-iterations", "int64_t", "8",
           "Largest number of greedy sweeps over the IR">,
    Option<"dynamicSizeEstimate", "dynamic-size-estimate", "int64_t", "128",
           "Size assumed for a dynamic dimension by the einsum cost model">,
    Option<"emitRemarks", "emit-remarks", "bool", "false",
           "Report the number of rewrites as a remark on the anchor (pass "
           "statistics are compiled out of release builds of LLVM)">
  ];
  let dependentDialects = ["::accy::choir::ChoirDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
  let statistics = [
    Statistic<"numRewrites", "num-rewrites",
              "Number of algebraic rewrites that fired">,
    Statistic<"numEinsumMerges", "num-einsum-merges",
              "Number of einsums merged into their consumer">
  ];
}

def ChoirShapeLayoutPropagate
    : Pass<"accy-choir-shape-layout-propagate", "mlir::ModuleOp"> {
  let summary = "Unify symbolic dimensions, make broadcasts explicit, tighten "
                "types and assign layouts";
  let description = [{
    Per kernel function, every tensor dimension is a member of one class of
    equal sizes; argument dimensions start from their `choir.dims` names.
    Broadcasting, einsum labels, reductions, transposes and `func.return`
    (against the result's `choir.dims`) unify classes; two different symbols,
    a symbol and a constant, or two different constants in one class are an
    error at the op that joins them, naming both.

    Then: result types get the static sizes their classes resolved to (a
    `tensor.cast` keeps the declared type where a non-choir op needs it);
    every implicit broadcast of `choir.add/sub/mul/div/cmp/select` becomes a
    `choir.broadcast` (dynamic sizes from `tensor.dim` of the first argument
    dimension of their class, else of an operand that has the dimension
    unbroadcast), so every elementwise operand has the result's shape;
    a `choir.transpose` feeding a `choir.einsum` is folded into the einsum's
    spec (a layout change, not a copy). Every tensor is row-major; the kernel
    function records it with `choir.layout = "row-major"`.
  }];
  let dependentDialects = ["::accy::choir::ChoirDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
  let statistics = [
    Statistic<"numBroadcasts", "num-broadcasts",
              "Number of implicit broadcasts made explicit">,
    Statistic<"numTightened", "num-tightened",
              "Number of result types given static sizes">,
    Statistic<"numLayoutFolds", "num-layout-folds",
              "Number of transposes folded into einsum specs">
  ];
}

def ChoirConstantFold : Pass<"accy-choir-constant-fold", "mlir::ModuleOp"> {
  let summary = "Evaluate choir ops whose operands are all constants";
  let description = [{
    Evaluates elementwise ops (with broadcasting), activations, casts,
    `full`, `iota`, reductions, softmax, scans, transposes, reshapes,
    broadcasts, slices, gathers and concatenations whose operands are
    constants (or such ops of constants, evaluated on the way) and whose
    result has static shape, and replaces them with a `choir.constant`. Only
    values of at most `max-elements` elements are evaluated. Float arithmetic
    is done in double and rounded once to the element type; integer
    arithmetic wraps at the element width, and integer division gives what
    the tensor stage's lowering gives at run time (`x / 0` is 0, `x / -1` is
    `-x`).

    A result that is not a splat (a table, e.g. `iota(4) * 2`) is made only
    when an operand already is a table, unless `allow-tables` is set: the
    later stages would have to place new constant data in memory, while the
    generator computes it in the kernel. `sum(iota(4))` still folds to 6.
  }];
  let options = [
    Option<"maxElements", "max-elements", "int64_t", "4096",
           "Largest number of elements of a value evaluated">,
    Option<"allowTables", "allow-tables", "bool", "false",
           "Also fold to new non-splat constants (tables)">
  ];
  let dependentDialects = ["::accy::choir::ChoirDialect"];
  let statistics = [
    Statistic<"numFolded", "num-folded", "Number of ops evaluated">
  ];
}

#endif // ACCY_STAGES_CONTRACT_PASSES
