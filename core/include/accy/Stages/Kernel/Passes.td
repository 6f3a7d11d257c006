//===- Passes.td - Passes of the kernel stage --------------*- tablegen -*-===//
//
// The kernel stage maps every planned dispatch to GPU blocks and threads,
// outlines the kernels into one gpu.module per target, and keeps a host (CPU)
// version of the kernel.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_STAGES_KERNEL_PASSES
#define ACCY_STAGES_KERNEL_PASSES

include "mlir/Pass/PassBase.td"

def SplitTargets : Pass<"accy-split-targets", "mlir::ModuleOp"> {
  let summary = "Make one launch function per GPU target and the host version";
  let description = [{
    For each GPU target in `accy.targets`, clones the bufferized entry into a
    launch function `@<kernel>__<target>` (`accy.launch_target`), where
    intermediate buffers become `gpu.alloc`/`gpu.dealloc`. When `host` is a
    target, the entry moves into a nested `builtin.module @host` as the host
    version: `func.func @<kernel>` with `llvm.emit_c_interface`, its
    dispatch regions dissolved and its linalg ops left for the pipeline's
    `accy-choir-scan-loops` and `convert-linalg-to-loops`; otherwise the
    entry is erased. The launch functions keep the regions for
    `accy-choir-map-to-gpu`.
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect",
                           "mlir::LLVM::LLVMDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::memref::MemRefDialect"];
}

def MapToGPU : Pass<"accy-choir-map-to-gpu", "mlir::ModuleOp"> {
  let summary = "Map every dispatch of the launch functions to GPU blocks and "
                "threads per its plan";
  let description = [{
    In each launch function, the `choir.dispatch` regions dissolve (each
    region's epilogues are those its root's kernel runs), and every linalg
    op is replaced per the schedule in its `choir.plan` for the function's
    target:
      - `elementwise` over buffers that are all contiguous, known to be
        16-byte aligned (`memref.assume_alignment` on arguments, device
        allocations) and read and written at the point itself, with a
        payload that reads no `linalg.index`: a `gpu.launch` in which each
        thread takes a run of 16 bytes of the widest element (4 f32, 8 f16,
        2 f64) of the flattened buffers, all loads first, then the payloads,
        then the stores, the buffers asserted 16-byte aligned in the kernel,
        so that the backends make each input's loads and each output's
        stores one 128-bit access; the last run that is not whole is done
        element by element;
      - other `elementwise`: upstream `linalgOpToParallelLoops`, the loops
        collapsed to one dimension and tiled by the block size
        (`tileParallelLoop`), and mapped to blocks and threads with
        `#gpu.loop_dim_map`; the upstream `convert-parallel-loops-to-gpu`
        that follows makes the `gpu.launch`;
      - `row_reduction`: a `gpu.launch` with a block per row, each thread
        folding a strided part of it, `gpu.subgroup_reduce` and a
        shared-memory slot per subgroup combining the parts; rows contiguous
        in 16-byte aligned buffers are taken in runs of 16 bytes per thread
        (merged into 128-bit accesses) when the row is a whole number of
        runs. With `rows_per_block`, a host-side branch on the row's length
        launches a subgroup per row for short rows instead (two launches);
      - `thread_reduction`: a `gpu.launch` with one thread per output point,
        reducing serially;
      - `tiled_contraction`: a `gpu.launch` with a block per output tile,
        each thread a micro-tile of accumulators in registers, K staged
        through shared-memory tiles; with `mma`, each subgroup a part of
        the tile in fragments of `nvgpu.mma.sync` (read with
        `nvgpu.ldmatrix`) or `amdgpu.mfma`;
      - `scan`: a `gpu.launch` with one block per line, which walks the line
        in chunks of the block's threads: an inclusive subgroup scan with
        shuffles (`up`, or `idx` where the plan has no `shuffle_up`), the subgroups'
        totals through shared memory, and a carry from the chunks before.
        With `lines_per_block`, a thread per line walks it serially; with
        `line_tile` (and an output starting at the neutral element), three
        launches; where the plan records thresholds, host-side branches on
        the sizes choose between these.
    Zero-dimensional elementwise ops use the thread schedule. A `linalg.fill`
    that initialises a reduction or contraction (role `init`) is folded
    into that kernel. An epilogue in its root's region runs in its root's
    kernel, where the root's result is stored (or along the row, in a row
    reduction's); the memory stage put it there when it reads what that
    kernel holds where it holds it, uses nothing defined after the root,
    and no op in between writes what it reads or touches what it writes
    (`canRunInRootKernel`). An epilogue outside a region (its own root, or
    a hand-written input without regions) is a launch of its own. A device buffer that only a thread-reduction or contraction
    kernel (its root, folded fills and epilogues) uses is not stored. The
    launch function records what each launch is, in launch order, as
    `accy.launches = [{dispatch, schedule}, ...]` for
    `accy-group-kernels`. A `memref.load`, `memref.store`,
    `memref.copy` or op with regions outside the dispatches is reported.
  }];
  let dependentDialects = ["::accy::choir::ChoirDialect",
                           "mlir::gpu::GPUDialect", "mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::affine::AffineDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::amdgpu::AMDGPUDialect",
                           "mlir::nvgpu::NVGPUDialect",
                           "mlir::vector::VectorDialect"];
}

def ScanLoops : Pass<"accy-choir-scan-loops", "mlir::func::FuncOp"> {
  let summary = "Lower the scans of the host version to loops with a carry";
  let description = [{
    Replaces every scan on buffers (a `linalg.generic` tagged `choir.scan`,
    the tensor stage's form with a reduction loop masked by `j <= i`, whose
    `choir.plan` has the scan schedule: the axis and masked loops and the
    combiner are read from the plan, not found again) with an
    `scf.for` over its lines and, inside, an `scf.for` along the line that
    carries the running sum or maximum: linear in the line's length where the
    generic's loops are quadratic. Each element is the generic's payload at
    `j = i` over the combiner's neutral element (an f16 element is combined
    in f32, as the payload does), and the stored value is combined with the
    output's start as the generic's. Runs on the host version before
    `convert-linalg-to-loops`.
  }];
  let dependentDialects = ["mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::affine::AffineDialect",
                           "mlir::memref::MemRefDialect"];
}

def SinkIntoLaunches : Pass<"accy-sink-into-launches",
                             "mlir::ModuleOp"> {
  let summary = "Recompute scalars inside the kernels instead of passing them";
  let description = [{
    Before outlining: clones into each gpu.launch the backward slice of
    side-effect-free, region-free computations its body uses from above:
    scalars (constants, memref.dim, index arithmetic, casts such as the
    `sitofp` of a dimension a mean divides by) and the views of buffers
    (subview, expand/collapse_shape, cast, reinterpret_cast). Unlike
    upstream's `sinkOperationsIntoLaunchOp`, which it does not use, a slice
    may reach a value the body did not use (the memref a dimension is read
    from): the kernel then takes that buffer, which the kernel summary
    describes, instead of a scalar it could not. Kernels take buffers and
    few scalars.
  }];
}

def OutlineKernels : Pass<"accy-outline-kernels", "mlir::ModuleOp"> {
  let summary = "Outline each gpu.launch into a gpu.func of its own gpu.module";
  let description = [{
    Upstream's `gpu-kernel-outlining` without its search for the symbols a
    kernel uses: each `gpu.launch` of a function becomes `gpu.launch_func`
    of a `gpu.func` (named `<function>_kernel`, the values the body used
    from above its arguments) in a `gpu.module` of the same name, and the
    module is marked `gpu.container_module`. The generated kernels call and
    reference no symbol (calls of math functions are made by the target
    stage); one that does is an error, not a kernel compiled without its
    callee. Upstream walked every attribute of every op of each kernel for
    symbol uses: half of its time.
  }];
  // Upstream's outlining, which a launch with a cluster size still takes,
  // declares the cf dialect too.
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::cf::ControlFlowDialect"];
}

def GroupKernels : Pass<"accy-group-kernels", "mlir::ModuleOp"> {
  let summary = "Gather outlined kernels into one gpu.module per target and "
                "summarise them";
  let description = [{
    After `accy-outline-kernels`: moves the kernels of each launch function
    into `gpu.module @<target>` (named after the target, `accy.target`),
    names them `<kernel>_k<N>` in launch order, sets `gpu.container_module`,
    and records `choir.kernels = #choir.kernel_summary<...>`: per target,
    in launch order, each kernel's name, dispatch, schedule, block size,
    grid size (an affine map over the entry's argument dimensions), shared
    memory, operands (which entry argument, intermediate buffer, dimension
    expression or constant each one is) and, for a launch made under
    host-side branches on the sizes, `when` (maps over the argument
    dimensions, each a conjunction of results >= 0, under any of which it
    runs); `symbols` says which argument dimension each symbol is.
  }];
  let dependentDialects = ["::accy::choir::ChoirDialect"];
}

#endif // ACCY_STAGES_KERNEL_PASSES
