//===- Passes.td - Passes of the memory stage --------------*- tablegen -*-===//
//
// The memory stage bufferizes the dispatch product with upstream one-shot
// bufferization and plans every buffer: memory space, alignment, reuse and
// deallocation.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_STAGES_MEMORY_PASSES
#define ACCY_STAGES_MEMORY_PASSES

include "mlir/Pass/PassBase.td"

def InlineDispatchRegions : Pass<"accy-choir-inline-dispatch-regions",
                                 "mlir::ModuleOp"> {
  let summary = "Dissolve the choir.dispatch regions before bufferization";
  let description = [{
    The first pass of the memory stage (one-shot bufferization has no
    model of the region): the ops of each `choir.dispatch` move before it,
    reading the region's operands where they read its arguments, and its
    results become the values its `choir.yield` yields. The region's plan
    goes on its root (`choir.plan`); the ops keep their `choir.member`
    roles. (`accy-choir-build-dispatch-regions` makes the regions again on
    buffers; the kernel stage dissolves those as it maps them.)
  }];
}

def PrepareBufferization : Pass<"accy-prepare-bufferization",
                                 "mlir::ModuleOp"> {
  let summary = "Mark kernel inputs read-only, materialize every result in "
                "its output, unshare tensor.empty ops";
  let description = [{
    Sets `bufferization.writable = false` on every argument of the kernel
    entry (`accy.entry`) that is not an output (`accy.result`), so that
    one-shot bufferization never writes into a caller's input buffer; makes
    every returned value go through `bufferization.materialize_in_destination`
    into the output argument holding that result (the argument with
    `accy.result = i` for result i), so that it is computed in place (a
    value returned as several results is written into the first one's
    output and copied from there into the others); and gives every
    `tensor.empty` a single use (CSE merges them), so that empty tensor
    elimination can place each result in its own output. The
    `tensor.empty` that a `tensor.reshape` reads (back through the ops
    writing into their init) becomes a `bufferization.alloc_tensor`, which
    elimination leaves alone: a reshape keeps the type while it changes the
    sizes, so the tensor it reads needs a buffer of its own.
  }];
  let dependentDialects = ["mlir::tensor::TensorDialect",
                           "mlir::bufferization::BufferizationDialect"];
}

def PlanBuffers : Pass<"accy-choir-plan-buffers", "mlir::ModuleOp"> {
  let summary = "Plan memory spaces, alignment, reuse and deallocation of "
                "every buffer";
  let description = [{
    Runs on bufferized kernel entries (`(memref ins..., memref outs...) ->
    ()`):
      - a `memref.reshape` whose shape is a small buffer of stored index
        values (a bufferized `tensor.reshape`) becomes a
        `memref.reinterpret_cast` view of its contiguous source;
      - `memref.copy` becomes `linalg.copy` (a copy onto itself is erased),
        and every linalg op without a plan (such a copy, or an op that
        bufferization made) gets a dispatch id and a plan, so that every
        data movement is a planned kernel;
      - the allocation of an epilogue's output moves before the epilogue's
        root where its sizes can be computed there (the epilogue runs in
        the root's kernel);
      - every argument gets `memref.assume_alignment` (`argument-alignment`
        bytes, the ABI guarantee documented in docs/abi.md);
      - every intermediate `memref.alloc` gets `alignment =
        buffer-alignment`; an allocation whose live range starts after
        another one of the same type and size ended reuses it (first fit, in
        program order);
      - a `memref.dealloc` follows the last use of each allocation.
    The plan is recorded as `accy.buffer = N : i64` on each allocation and
    `choir.memory = #choir.memory_plan<arguments = [...], buffers = [...],
    symbols = [...]>` on the kernel module, each buffer's size an affine map over the entry's
    argument dimensions (`symbols`); allocations must sit in the entry block
    (the tensor contract has no control flow) and have such sizes, anything
    else is reported as an error.
  }];
  let options = [
    Option<"argumentAlignment", "argument-alignment", "unsigned",
           /*default=*/"16", "Alignment in bytes asserted on arguments">,
    Option<"bufferAlignment", "buffer-alignment", "unsigned",
           /*default=*/"64", "Alignment in bytes of intermediate buffers">,
  ];
  let dependentDialects = ["::accy::choir::ChoirDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::memref::MemRefDialect"];
}

#endif // ACCY_STAGES_MEMORY_PASSES
