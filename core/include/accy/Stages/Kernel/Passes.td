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

def SplitTargets : Pass<"accy-choir-split-targets", "mlir::ModuleOp"> {
  let summary = "Make one launch function per GPU target and the host version";
  let description = [{
    For each GPU target in `accy.targets`, clones the bufferized entry into a
    launch function `@<kernel>__<target>` (`accy.launch_target`), where
    intermediate buffers become `gpu.alloc`/`gpu.dealloc`. When `host` is a
    target, the entry moves into a nested `builtin.module @host` as the host
    version: `func.func @<kernel>` with `llvm.emit_c_interface`, its linalg
    ops lowered to loops.
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
    In each launch function, every linalg op is replaced per the schedule in
    its `accy.plan` for the function's target:
      - `elementwise` over buffers that are all contiguous, known to be
        16-byte aligned (`memref.assume_alignment` on arguments, device
        allocations) and read and written at the point itself: a
        `gpu.launch` in which each thread takes a run of 16 bytes of the
        widest element (4 f32, 8 f16, 2 f64) of the flattened buffers, all
        loads first, then the payloads, then the stores, the buffers
        asserted 16-byte aligned in the kernel, so that the backends make
        each input's loads and each output's stores one 128-bit access;
        the last run that is not whole is done element by element;
      - other `elementwise`: upstream `linalgOpToParallelLoops`, the loops
        collapsed to one dimension and tiled by the block size
        (`tileParallelLoop`), and mapped to blocks and threads with
        `#gpu.loop_dim_map`; the upstream `convert-parallel-loops-to-gpu`
        that follows makes the `gpu.launch`;
      - `row-reduction`, `thread-reduction`, `tiled-contraction`: a
        `gpu.launch` built directly (strided per-thread reduction, subgroup
        shuffles and a shared-memory combine; shared-memory staged tiles);
        a row reduction whose rows are contiguous in 16-byte aligned
        buffers takes runs of 16 bytes per thread (merged into 128-bit
        accesses) when the row is a whole number of runs;
      - `scan`: a `gpu.launch` with one block per line, which walks the line
        in chunks of the block's threads: an inclusive subgroup scan with
        shuffles (`up`, or `idx` where the plan says so), the subgroups'
        totals through shared memory, and a carry from the chunks before;
        elementwise epilogues run at each element it stores.
    Zero-dimensional elementwise ops use the thread schedule. A `linalg.fill`
    that initialises a reduction or contraction (`role = "init"`) is folded
    into that kernel. The launch function records what each launch is, in
    launch order, as `accy.launches = [{dispatch, schedule}, ...]` for
    `accy-choir-group-kernels`. Any other op that touches memory in launch
    code is reported.
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect", "mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::affine::AffineDialect",
                           "mlir::memref::MemRefDialect"];
}

def ScanLoops : Pass<"accy-choir-scan-loops", "mlir::func::FuncOp"> {
  let summary = "Lower the scans of the host version to loops with a carry";
  let description = [{
    Replaces every scan on buffers (a `linalg.generic` tagged `accy.scan`,
    the tensor stage's form with a reduction loop masked by `j <= i`) with an
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

def SinkIntoLaunches : Pass<"accy-choir-sink-into-launches",
                             "mlir::ModuleOp"> {
  let summary = "Recompute scalars inside the kernels instead of passing them";
  let description = [{
    Before outlining: clones into each gpu.launch the side-effect-free,
    region-free scalar computations its body uses (constants, memref.dim,
    index arithmetic, casts such as the `sitofp` of a dimension a mean
    divides by), with upstream `sinkOperationsIntoLaunchOp`. Kernels then
    take buffers and few scalars, each described in the kernel summary.
  }];
}

def GroupKernels : Pass<"accy-choir-group-kernels", "mlir::ModuleOp"> {
  let summary = "Gather outlined kernels into one gpu.module per target and "
                "summarise them";
  let description = [{
    After `gpu-kernel-outlining`: moves the kernels of each launch function
    into `gpu.module @<target>` (named after the target, `accy.target`),
    names them `<kernel>_k<N>` in launch order, sets `gpu.container_module`,
    and records `accy.kernels`: per target, in launch order, each kernel's
    name, dispatch, schedule, block size, grid size (an affine map over the
    entry's argument dimensions), shared memory, and arguments (which entry
    argument, intermediate buffer or dimension expression each one is).
  }];
}

#endif // ACCY_STAGES_KERNEL_PASSES
