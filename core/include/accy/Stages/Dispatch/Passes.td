//===- Passes.td - Passes of the dispatch stage ------------*- tablegen -*-===//
//
// The dispatch stage turns the tensor product (linalg on tensors) into
// dispatch regions: groups of ops that become one GPU launch, each with a
// schedule and its tile and launch sizes per target.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_STAGES_DISPATCH_PASSES
#define ACCY_STAGES_DISPATCH_PASSES

include "mlir/Pass/PassBase.td"

def DropUnitDims : Pass<"accy-choir-drop-unit-dims", "mlir::ModuleOp"> {
  let summary = "Generalize named linalg ops and drop their unit-extent loops";
  let description = [{
    Works on every kernel module (`accy.kernel`) at or below the anchor.
    Named linalg ops other than `linalg.fill` are generalized (ops that do
    not generalize stay named and become dispatch roots). Then upstream's
    unit-extent folding (`populateFoldUnitExtentDimsPatterns`, reassociative
    reshapes) removes every loop of extent 1 from the generics, except from
    scans (`choir.scan`), and reshapes of `tensor.empty` fold. The reshapes
    that `keepdims=true` and size-1 broadcasts put between elementwise ops
    meet and cancel, so that `accy-choir-form-dispatches` sees one chain of
    generics: `rsqrt(mean(..., keepdims=true) + EPS)` joins its reduction's
    dispatch as it would without `keepdims`.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect",
                           "mlir::affine::AffineDialect"];
}

def FormDispatches : Pass<"accy-choir-form-dispatches", "mlir::ModuleOp"> {
  let summary = "Fuse elementwise producers into their consumers and mark "
                "dispatch roots";
  let description = [{
    Works on every kernel module (`accy.kernel`) at or below the anchor,
    on generics (see `accy-choir-drop-unit-dims`; named ops other than
    `linalg.fill` stay dispatch roots). Upstream
    elementwise fusion (`populateElementwiseOpsFusionPatterns`) runs with an
    Accy cost model: an all-parallel producer is fused into a consumer that
    reads it through a permutation map (no recomputation blow-up through a
    broadcast). A producer with several such consumers is duplicated into
    each of them when its body has at most `max-recompute-ops` ops and no
    other user keeps it alive (softmax recomputes `exp(x - max)` instead of
    storing it). A scan (`choir.scan`) also takes producers it reads through
    a map of all its loops but the axis: its kernels evaluate the payload
    once per element.

    Every linalg op that remains gets `choir.member = #choir.member<N>`,
    ids in program order. A `linalg.fill` whose only user is the init of an
    op with reduction loops is part of that op's dispatch
    (`#choir.member<N, init>`; a fill that initialises several is first
    copied for each). A generic that reads the result of a root with
    reduction loops (or of one of its epilogues) joins that root's dispatch
    as `#choir.member<N, epilogue>` (of several such roots, the last) when
    it runs at the
    points of the root's result, or, after a row reduction, maps or reduces
    again the same rows; reads those results where the root's kernel has
    them; and needs nothing computed after the root but memory-effect-free
    ops without regions and fills, which move before the root. Every other
    op is a dispatch root: `#choir.member<N>`.
  }];
  let options = [
    Option<"maxRecomputeOps", "max-recompute-ops", "unsigned", /*default=*/"8",
           "Largest producer body (in ops) duplicated into several consumers">,
  ];
  let dependentDialects = ["::accy::choir::ChoirDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect",
                           "mlir::arith::ArithDialect"];
}

def PlanSchedule : Pass<"accy-choir-plan-schedule", "mlir::ModuleOp"> {
  let summary = "Choose each dispatch's schedule and tile/launch sizes per "
                "target profile";
  let description = [{
    For every dispatch root (see `accy-choir-form-dispatches`; an op without
    `choir.member` is given one) chooses a schedule:
      - `elementwise`: all loops parallel; one thread per point, 1-D blocks;
      - `row_reduction`: reduction whose innermost loop reduces with a
        combiner of 32-bit values that has a neutral element (add, mul,
        max, min, and, or, xor); one block per output point, threads stride
        the reduction and combine through subgroup shuffles and shared
        memory. A static row shorter than the profile's block gets a block
        of the row rounded up to the subgroup. Rows whose length is known
        only at run time also record `rows_per_block` (block / subgroup) and
        `subgroup_rows_up_to` (16 elements a lane): the launch function
        takes a subgroup per row, `rows_per_block` rows a block, for rows up
        to that length, unless the row pipeline stores a mapped row that a
        later op reads (it waits for the whole block in its middle);
      - `thread_reduction`: any other reduction; one thread per output point
        reduces serially;
      - `tiled_contraction`: a contraction of two inputs with one K
        dimension (plus batch dimensions: of several M or N dimensions, the
        one the output varies fastest along is M or N, the others batch);
        square output tiles per block, K staged through shared memory;
        with f16 or bf16 inputs accumulated in f32, on a target with
        matrix instructions, on tensor cores (`mma`, `stages`);
      - `scan`: a scan from the tensor stage (`choir.scan`, a reduction loop
        masked by `j <= i` on the axis loop) whose combiner has a neutral
        element; one block per line, threads take consecutive elements of
        a chunk of the line, subgroup shuffles and shared memory scan the
        chunk, a carry runs from chunk to chunk (linear work). The plan
        records the combiner and, per GPU target, `shuffle_up = true`
        (NVIDIA; AMD gets `idx` shuffles, MLIR 19 lowers no `up` there); its shared
        memory holds one value per subgroup. Along an axis that is not the
        output's innermost, with at least `multiprocessors * subgroup`
        lines, `lines_per_block = block` records a thread per line walking
        it serially (neighbouring threads, neighbouring lines: coalesced);
        fewer lines keep a block per line, lest most of the GPU idle. With
        fewer lines than multiprocessors and lines of at least two blocks
        of 16 chunks, `line_tile = 16 * block` elements of a line take a
        block of their own (reduce, then scan, in three launches). Static
        sizes decide here; where the line count or length is dynamic the
        plan records the possible variants with their thresholds
        (`thread_lines_from`, `split_lines_below`) and the kernel stage
        chooses on the actual sizes at run time;
    and, per GPU target of `targets`, the block size, tiles, shared memory
    and subgroup size, recorded on the root (inits and epilogues get none)
    as `choir.plan = #choir.plan<SCHEDULE, combiner = "...", targets =
    {sm_90 = #choir.launch<block = [x, y, z], tile = [...], subgroup = S,
    workgroup_memory = B, ...>, host = #choir.serial_loops}>` (the
    dialect verifies it; ChoirPlanAttrs.td). The kernel module gets
    `accy.targets = ["sm_90", ...]` (canonical order). All of it is a pure
    function of the IR and the option.
  }];
  let options = [
    Option<"targets", "targets", "std::string",
           /*default=*/"\"sm_90,gfx942,host\"",
           "Comma-separated target profiles (sm_80, sm_90, gfx90a, gfx942, "
           "host)">,
  ];
  let dependentDialects = ["::accy::choir::ChoirDialect"];
}

def BuildDispatchRegions : Pass<"accy-choir-build-dispatch-regions",
                                "mlir::ModuleOp"> {
  let summary = "Move each planned dispatch into a choir.dispatch region";
  let description = [{
    The last pass of the dispatch stage, and of the memory stage (on
    buffers). The ops of each dispatch (its
    `choir.member`s: root, init fills, epilogues) move, in program order,
    into a `choir.dispatch` region placed where the root was, with the
    root's `choir.plan` as the region's plan. The region is isolated from
    above: the values its ops read from outside become operands (constants
    are cloned in instead); the destination each result's chain of
    destination-style ops starts from is its `outs` operand. A result is
    every value of the dispatch used after it. An epilogue operand computed
    between the root and the epilogue moves before the root where it is
    free of memory effects (`accy-choir-form-dispatches` only fuses such
    epilogues).

    On buffers a region has no results and its `outs` are the buffers its
    ops write. An epilogue joins its root's region only where it can still
    run in the root's kernel (`canRunInRootKernel`: nothing between them
    writes what it reads or touches what it writes, after in-place
    bufferization and buffer reuse); otherwise it becomes the root of a
    region of its own, with its own plan and its dispatch's id. Other
    members keep no plan of their own inside a region.
  }];
  let dependentDialects = ["::accy::choir::ChoirDialect"];
}

#endif // ACCY_STAGES_DISPATCH_PASSES
