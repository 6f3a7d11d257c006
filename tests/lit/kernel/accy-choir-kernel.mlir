// RUN: accy-opt %s --accy-choir-dispatch="targets=sm_90,gfx942,host" --accy-choir-memory --accy-choir-kernel | FileCheck %s

// softmax through the kernel stage: one launch function and one gpu.module
// per GPU target, the kernels named in launch order, the host version in
// `module @host`, and the kernel summary. softmax is one kernel, a row
// pipeline: the row's maximum, the sum of exp(x - max) over the same row,
// and the normalized row, one block per row, with a shared-memory slot per
// subgroup for each of the two reductions.

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
module {
  module @softmax attributes {accy.kernel = "softmax"} {
    func.func @softmax(%x: tensor<?x?xf32>, %out0: tensor<?x?xf32> {accy.result = 0 : i64}) -> tensor<?x?xf32> attributes {accy.entry} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = tensor.dim %x, %c0 : tensor<?x?xf32>
      %d = tensor.dim %x, %c1 : tensor<?x?xf32>
      %ninf = arith.constant 0xFF800000 : f32
      %zero = arith.constant 0.0 : f32
      %e0 = tensor.empty(%n) : tensor<?xf32>
      %f0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<?xf32>) -> tensor<?xf32>
      %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<?x?xf32>) outs(%f0 : tensor<?xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %m = arith.maximumf %a, %acc : f32
        linalg.yield %m : f32
      } -> tensor<?xf32>
      %e1 = tensor.empty(%n, %d) : tensor<?x?xf32>
      %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %max : tensor<?x?xf32>, tensor<?xf32>) outs(%e1 : tensor<?x?xf32>) {
      ^bb0(%a: f32, %m: f32, %o: f32):
        %s = arith.subf %a, %m : f32
        %e = math.exp %s : f32
        linalg.yield %e : f32
      } -> tensor<?x?xf32>
      %e2 = tensor.empty(%n) : tensor<?xf32>
      %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<?xf32>) -> tensor<?xf32>
      %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%ex : tensor<?x?xf32>) outs(%f2 : tensor<?xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %s = arith.addf %a, %acc : f32
        linalg.yield %s : f32
      } -> tensor<?xf32>
      %e3 = tensor.empty(%n, %d) : tensor<?x?xf32>
      %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%ex, %sum : tensor<?x?xf32>, tensor<?xf32>) outs(%e3 : tensor<?x?xf32>) {
      ^bb0(%a: f32, %s: f32, %o: f32):
        %q = arith.divf %a, %s : f32
        linalg.yield %q : f32
      } -> tensor<?x?xf32>
      %res = bufferization.materialize_in_destination %r in %out0 : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
      return %res : tensor<?x?xf32>
    }
  }
}

// Grids: rows of at most 16 elements a lane (s1, the row's length: 512 on
// sm_90, 1024 on gfx942) take a subgroup each, 8 (or 4) rows a block; longer
// rows a block each. Symbols are the dimensions of (x, out).
// CHECK-DAG: #[[ROWS:.+]] = affine_map<()[s0, s1, s2, s3] -> (s0, 1, 1)>
// CHECK-DAG: #[[ROWS4:.+]] = affine_map<()[s0, s1, s2, s3] -> (s0 ceildiv 4, 1, 1)>
// CHECK-DAG: #[[ROWS8:.+]] = affine_map<()[s0, s1, s2, s3] -> (s0 ceildiv 8, 1, 1)>
// CHECK-DAG: #[[SHORT64:.+]] = affine_map<()[s0, s1, s2, s3] -> (-s1 + 1024)>
// CHECK-DAG: #[[LONG64:.+]] = affine_map<()[s0, s1, s2, s3] -> (s1 - 1025)>
// CHECK-DAG: #[[SHORT32:.+]] = affine_map<()[s0, s1, s2, s3] -> (-s1 + 512)>
// CHECK-DAG: #[[LONG32:.+]] = affine_map<()[s0, s1, s2, s3] -> (s1 - 513)>

// CHECK-LABEL: module @softmax
// The summary has shared memory for both reductions of the pipeline.
// CHECK-SAME:    choir.kernels = #choir.kernel_summary<symbols = [array<i64: 0, 0>, array<i64: 0, 1>, array<i64: 1, 0>, array<i64: 1, 1>], targets = {
// CHECK-SAME:      gfx942 = [#choir.kernel_launch<name = "softmax_k0", dispatch = 0, schedule = row_reduction, block = [256, 1, 1], grid = #[[ROWS4]], shared_memory = 0, arguments = [#choir.kernel_operand<argument 1>, #choir.kernel_operand<argument 0>, #choir.kernel_operand<buffer 0>, #choir.kernel_operand<buffer 1>], when = [#[[SHORT64]]]>, #choir.kernel_launch<name = "softmax_k1", dispatch = 0, schedule = row_reduction, block = [256, 1, 1], grid = #[[ROWS]], shared_memory = 32, arguments = [#choir.kernel_operand<argument 1>, #choir.kernel_operand<argument 0>, #choir.kernel_operand<buffer 0>, #choir.kernel_operand<buffer 1>], when = [#[[LONG64]]]>]
// CHECK-SAME:      sm_90 = [#choir.kernel_launch<name = "softmax_k0", dispatch = 0, schedule = row_reduction, block = [256, 1, 1], grid = #[[ROWS8]], shared_memory = 0, arguments = [#choir.kernel_operand<argument 1>, #choir.kernel_operand<argument 0>, #choir.kernel_operand<buffer 0>, #choir.kernel_operand<buffer 1>], when = [#[[SHORT32]]]>, #choir.kernel_launch<name = "softmax_k1", dispatch = 0, schedule = row_reduction, block = [256, 1, 1], grid = #[[ROWS]], shared_memory = 64, arguments = [#choir.kernel_operand<argument 1>, #choir.kernel_operand<argument 0>, #choir.kernel_operand<buffer 0>, #choir.kernel_operand<buffer 1>], when = [#[[LONG32]]]>]
// CHECK-SAME:    gpu.container_module

// CHECK:       func.func @softmax__sm_90(%[[X:.+]]: memref<?x?xf32>, %[[OUT:.+]]: memref<?x?xf32> {accy.result = 0 : i64}) attributes {accy.launch_target = "sm_90"}
// CHECK:         %[[MAX:.+]] = gpu.alloc (%{{.+}}) {accy.buffer = 0 : i64} : memref<?xf32>
// CHECK:         %[[SUM:.+]] = gpu.alloc (%{{.+}}) {accy.buffer = 1 : i64} : memref<?xf32>
// CHECK:         %[[SHORT:.+]] = arith.cmpi ule, %{{.+}}, %c512 : index
// CHECK:         scf.if %[[SHORT]] {
// CHECK:           gpu.launch_func @sm_90::@softmax_k0 blocks in (%{{.+}}, %c1, %c1) threads in (%c256, %c1, %c1) args(%[[OUT]] : memref<?x?xf32>, %[[X]] : memref<?x?xf32>, %[[MAX]] : memref<?xf32>, %[[SUM]] : memref<?xf32>)
// CHECK:         } else {
// CHECK:           gpu.launch_func @sm_90::@softmax_k1 blocks in (%{{.+}}, %c1, %c1) threads in (%c256, %c1, %c1) args(%[[OUT]] : memref<?x?xf32>, %[[X]] : memref<?x?xf32>, %[[MAX]] : memref<?xf32>, %[[SUM]] : memref<?xf32>)
// CHECK-NOT:     gpu.launch_func
// CHECK-DAG:     gpu.dealloc %[[MAX]] :
// CHECK-DAG:     gpu.dealloc %[[SUM]] :
// CHECK:       func.func @softmax__gfx942(
// CHECK-COUNT-2: gpu.launch_func @gfx942::@softmax_k
// CHECK-NOT:     gpu.launch_func
// CHECK:       module @host {
// CHECK:         func.func @softmax(%{{.+}}: memref<?x?xf32>, %{{.+}}: memref<?x?xf32> {accy.result = 0 : i64}) attributes {accy.entry, llvm.emit_c_interface}
// CHECK-NOT:       linalg.
// CHECK:           scf.for

// softmax on sm_90, short rows: a warp per row (lane and warp from the
// thread id), the warps past the last row idle; the row (at most 32 lanes x
// 4 runs x 4 elements) in registers, warp butterflies only, no barrier.
// CHECK:       gpu.module @sm_90 attributes {accy.target = "sm_90"}
// CHECK:         gpu.func @softmax_k0(%{{.+}}: memref<?x?xf32>, %{{.+}}: memref<?x?xf32>, %{{.+}}: memref<?xf32>, %{{.+}}: memref<?xf32>) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// CHECK:           %[[WXFLAT:.+]] = memref.collapse_shape %arg1
// CHECK:           %[[LANE:.+]] = arith.remui %thread_id_x, %c32
// CHECK:           %[[WARP:.+]] = arith.divui %thread_id_x, %c32
// CHECK:           scf.if %{{.+}} {
// CHECK:             arith.cmpi ult, %{{.+}}, %c513 : index
// CHECK-COUNT-16:      memref.load %[[WXFLAT]][
// CHECK-NOT:           gpu.barrier
// CHECK:               gpu.subgroup_reduce  maximumf %{{.+}} uniform : (f32) -> f32
// CHECK-NOT:           gpu.barrier
// CHECK:           gpu.return

// Longer rows: a block per row. A row that fits in registers (at most 256
// threads x 4 runs x 4 elements, a whole number of runs) is loaded once,
// 128 bits at a time, and the three ops of the pipeline (max, sum of exp,
// divide) read it there; the reductions fold every run (zeros past the
// row's end) and keep the fold where the run is in the row, without a
// branch, so exp(x - max) is computed once for the sum and the division. Other rows: each op walks
// the row with a strided loop. Either way: a subgroup reduction (the target
// stage makes it warp butterflies), 8 warp partials in shared memory.
// (Its workgroup buffers are declared 16-byte aligned: `llvm.align`.)
// CHECK:         gpu.func @softmax_k1(%{{.+}}: memref<?x?xf32>, %{{.+}}: memref<?x?xf32>, %{{.+}}: memref<?xf32>, %{{.+}}: memref<?xf32>) workgroup(%[[PART:.+]] : memref<8xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[PART2:.+]] : memref<8xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// CHECK:           %[[OUTFLAT:.+]] = memref.collapse_shape
// CHECK:           %[[XFLAT:.+]] = memref.collapse_shape
// CHECK:           arith.cmpi ult, %{{.+}}, %c4097 : index
// CHECK:           scf.if %{{.+}} {
// CHECK-COUNT-16:    memref.load %[[XFLAT]][
// CHECK-NOT:         memref.load %[[XFLAT]][
// CHECK:             arith.maximumf
// CHECK:             arith.select
// CHECK-NOT:         memref.load %[[XFLAT]][
// CHECK-COUNT-16:    math.exp
// CHECK-NOT:         math.exp
// CHECK-NOT:         memref.load %[[XFLAT]][
// CHECK:             arith.divf
// CHECK:             memref.store %{{.+}}, %[[OUTFLAT]][
// CHECK-NOT:         memref.load %[[XFLAT]][
// CHECK:           } else {
// CHECK:           scf.for %{{.+}} = %thread_id_x to %{{.+}} step %c256
// CHECK:             arith.maximumf
// CHECK:           gpu.subgroup_reduce  maximumf %{{.+}} uniform : (f32) -> f32
// CHECK:           memref.store %{{.+}}, %[[PART]]
// CHECK:           gpu.barrier
// CHECK:           scf.for %{{.+}} = %thread_id_x to %{{.+}} step %c256
// CHECK:             math.exp
// CHECK:           memref.store %{{.+}}, %[[PART2]]
// CHECK:           gpu.barrier
// CHECK:           scf.for %{{.+}} = %thread_id_x to %{{.+}} step %c256
// CHECK:             arith.divf
// CHECK:           gpu.return
// CHECK-NOT:     gpu.func

// CHECK:       gpu.module @gfx942 attributes {accy.target = "gfx942"}
// CHECK:         gpu.func @softmax_k0({{.*}}) kernel
// CHECK:         gpu.func @softmax_k1({{.*}}) workgroup(%{{.+}} : memref<4xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK:           gpu.subgroup_reduce  maximumf %{{.+}} uniform : (f32) -> f32
