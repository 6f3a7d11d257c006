// RUN: accy-opt %s --split-input-file --pass-pipeline='builtin.module(builtin.module(accy-choir-plan-schedule{targets=host,gfx942,sm_80}))' | FileCheck %s

// One op per schedule. Targets are kept in canonical order whatever the
// order of the option.

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
module {
  module @schedules attributes {accy.kernel = "schedules"} {
    func.func @schedules(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>, %o0: tensor<?x?xf32> {accy.result = 0 : i64}, %o1: tensor<?xf32> {accy.result = 1 : i64}, %o2: tensor<?xf32> {accy.result = 2 : i64}, %o3: tensor<?x?xf32> {accy.result = 3 : i64}, %o4: tensor<?xf32> {accy.result = 4 : i64}) -> (tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?x?xf32>, tensor<?xf32>) attributes {accy.entry} {
      %ew = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<?x?xf32>) outs(%o0 : tensor<?x?xf32>) {
      ^bb0(%a: f32, %o: f32):
        %e = math.exp %a : f32
        linalg.yield %e : f32
      } -> tensor<?x?xf32>
      %rows = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<?x?xf32>) outs(%o1 : tensor<?xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %s = arith.addf %a, %acc : f32
        linalg.yield %s : f32
      } -> tensor<?xf32>
      %cols = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]} ins(%x : tensor<?x?xf32>) outs(%o2 : tensor<?xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %s = arith.addf %a, %acc : f32
        linalg.yield %s : f32
      } -> tensor<?xf32>
      %mm = linalg.matmul ins(%x, %y : tensor<?x?xf32>, tensor<?x?xf32>) outs(%o3 : tensor<?x?xf32>) -> tensor<?x?xf32>
      // A running decay has no neutral element: one thread per row.
      %decay = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<?x?xf32>) outs(%o4 : tensor<?xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %h = arith.constant 0.5 : f32
        %m = arith.mulf %acc, %h : f32
        %s = arith.addf %m, %a : f32
        linalg.yield %s : f32
      } -> tensor<?xf32>
      return %ew, %rows, %cols, %mm, %decay : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?x?xf32>, tensor<?xf32>
    }
  }
}

// CHECK-LABEL: module @schedules
// CHECK-SAME:    accy.targets = ["sm_80", "gfx942", "host"]
// CHECK:       linalg.generic
// CHECK-SAME:    choir.member = #choir.member<0>
// CHECK-SAME:    choir.plan = #choir.plan<elementwise, targets = {
// CHECK-SAME:      gfx942 = #choir.launch<block = [256, 1, 1], tile = [256], subgroup = 64, workgroup_memory = 0>
// CHECK-SAME:      host = #choir.serial_loops
// CHECK-SAME:      sm_80 = #choir.launch<block = [256, 1, 1], tile = [256], subgroup = 32, workgroup_memory = 0>
// CHECK:       linalg.generic
// CHECK-SAME:    choir.plan = #choir.plan<row_reduction, combiner = "addf", targets = {
// CHECK-SAME:      gfx942 = #choir.launch<block = [256, 1, 1], tile = [1], subgroup = 64, workgroup_memory = 16, rows_per_block = 4, subgroup_rows_up_to = 1024>
// CHECK-SAME:      sm_80 = #choir.launch<block = [256, 1, 1], tile = [1], subgroup = 32, workgroup_memory = 32, rows_per_block = 8, subgroup_rows_up_to = 512>
// CHECK:       linalg.generic
// CHECK-SAME:    choir.plan = #choir.plan<thread_reduction
// CHECK:       linalg.matmul
// CHECK-SAME:    choir.plan = #choir.plan<tiled_contraction, contraction = <m = 0, n = 1, k = 2, batch = [], lhs = 0, rhs = 1>, targets = {
// CHECK-SAME:      gfx942 = #choir.launch<block = [16, 16, 1], tile = [128, 128, 8], subgroup = 64, workgroup_memory = 8448>
// CHECK-SAME:      sm_80 = #choir.launch<block = [16, 16, 1], tile = [128, 128, 8], subgroup = 32, workgroup_memory = 8448>
// CHECK:       linalg.generic
// CHECK-SAME:    choir.plan = #choir.plan<thread_reduction

// -----

// Contraction tiles follow the shape: 128x128 (8x8 per thread) where there
// are tiles enough; 64x64 (4x4) where M fills half a tile; halved again
// where the tiles (times the batch) are fewer than the multiprocessors
// (108 on sm_80, 304 on gfx942), down to 32x32 (2x2); 64-bit accumulators
// take 4x4 per thread at most. The 16x16 threads and BK = 8 stay;
// workgroup memory is 8 x (T + 4) elements of A and of B, or 16 x (T + 1)
// of the output (its staging rows, in the same bytes) where that is more.

module {
  module @tiles attributes {accy.kernel = "tiles"} {
    func.func @tiles(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>, %x: tensor<64x256xf32>, %w: tensor<256x8192xf32>, %p: tensor<8x256x64xf16>, %q: tensor<8x64x256xf16>, %d: tensor<?x?xf64>, %o0: tensor<4096x4096xf32> {accy.result = 0 : i64}, %o1: tensor<64x8192xf32> {accy.result = 1 : i64}, %o2: tensor<8x256x256xf32> {accy.result = 2 : i64}, %o3: tensor<?x?xf64> {accy.result = 3 : i64}) -> (tensor<4096x4096xf32>, tensor<64x8192xf32>, tensor<8x256x256xf32>, tensor<?x?xf64>) attributes {accy.entry} {
      %big = linalg.matmul ins(%a, %b : tensor<4096x4096xf32>, tensor<4096x4096xf32>) outs(%o0 : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
      %wide = linalg.matmul ins(%x, %w : tensor<64x256xf32>, tensor<256x8192xf32>) outs(%o1 : tensor<64x8192xf32>) -> tensor<64x8192xf32>
      %batched = linalg.batch_matmul ins(%p, %q : tensor<8x256x64xf16>, tensor<8x64x256xf16>) outs(%o2 : tensor<8x256x256xf32>) -> tensor<8x256x256xf32>
      %f64 = linalg.matmul ins(%d, %d : tensor<?x?xf64>, tensor<?x?xf64>) outs(%o3 : tensor<?x?xf64>) -> tensor<?x?xf64>
      return %big, %wide, %batched, %f64 : tensor<4096x4096xf32>, tensor<64x8192xf32>, tensor<8x256x256xf32>, tensor<?x?xf64>
    }
  }
}

// CHECK-LABEL: module @tiles
// CHECK:       linalg.matmul
// CHECK-SAME:    gfx942 = #choir.launch<block = [16, 16, 1], tile = [128, 128, 8], subgroup = 64, workgroup_memory = 8448>
// CHECK-SAME:    sm_80 = #choir.launch<block = [16, 16, 1], tile = [128, 128, 8], subgroup = 32, workgroup_memory = 8448>
// CHECK:       linalg.matmul
// CHECK-SAME:    gfx942 = #choir.launch<block = [16, 16, 1], tile = [32, 32, 8], subgroup = 64, workgroup_memory = 2304>
// CHECK-SAME:    sm_80 = #choir.launch<block = [16, 16, 1], tile = [64, 64, 8], subgroup = 32, workgroup_memory = 4352>
// f16 inputs accumulated in f32 take the tensor cores: on sm_80 8 subgroups
// of mma.sync, on gfx942 4 of MFMA; K tiles of 32, two stages of the lhs
// tile [T][32 + 8] and the rhs tile [32][T + 8] of f16 (as each lies in
// memory).
// CHECK:       linalg.batch_matmul
// CHECK-SAME:    gfx942 = #choir.launch<block = [64, 4, 1], tile = [32, 32, 32], subgroup = 64, workgroup_memory = 10240, mma = [16, 16, 16], stages = 2>
// CHECK-SAME:    sm_80 = #choir.launch<block = [32, 8, 1], tile = [64, 64, 32], subgroup = 32, workgroup_memory = 19456, mma = [16, 8, 16], stages = 2>
// CHECK:       linalg.matmul
// CHECK-SAME:    gfx942 = #choir.launch<block = [16, 16, 1], tile = [64, 64, 8], subgroup = 64, workgroup_memory = 8704>
// CHECK-SAME:    sm_80 = #choir.launch<block = [16, 16, 1], tile = [64, 64, 8], subgroup = 32, workgroup_memory = 8704>

// -----

// A dense layer over a 3-d activation (x: [B, T, D] @ w: [D, H]) has two M
// loops: T, which the output varies along just before H, is tiled and B
// runs as a batch loop (its 4 count: 8 x 4 tiles of 64 per batch element,
// 128 blocks, are enough for sm_80's 108 multiprocessors).

#x = affine_map<(b, t, h, d) -> (b, t, d)>
#w = affine_map<(b, t, h, d) -> (d, h)>
#y = affine_map<(b, t, h, d) -> (b, t, h)>
module {
  module @dense attributes {accy.kernel = "dense"} {
    func.func @dense(%x: tensor<4x256x64xf32>, %w: tensor<64x512xf32>, %o: tensor<4x256x512xf32> {accy.result = 0 : i64}) -> tensor<4x256x512xf32> attributes {accy.entry} {
      %r = linalg.generic {indexing_maps = [#x, #w, #y], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<4x256x64xf32>, tensor<64x512xf32>) outs(%o : tensor<4x256x512xf32>) {
      ^bb0(%a: f32, %b: f32, %acc: f32):
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %acc, %p : f32
        linalg.yield %s : f32
      } -> tensor<4x256x512xf32>
      return %r : tensor<4x256x512xf32>
    }
  }
}

// CHECK-LABEL: module @dense
// CHECK:       = linalg.generic
// CHECK-SAME:    choir.plan = #choir.plan<tiled_contraction, contraction = <m = 1, n = 2, k = 3, batch = [0], lhs = 0, rhs = 1>, targets = {
// CHECK-SAME:    gfx942 = #choir.launch<block = [16, 16, 1], tile = [32, 32, 8], subgroup = 64, workgroup_memory = 2304>
// CHECK-SAME:    sm_80 = #choir.launch<block = [16, 16, 1], tile = [64, 64, 8], subgroup = 32, workgroup_memory = 4352>

// -----

// Static sizes shrink blocks to the work: 40 reduced elements need 64
// threads on sm_80 (two warps) and gfx942 (one wavefront); 10 points need
// one warp or one wavefront.

module {
  module @small attributes {accy.kernel = "small"} {
    func.func @small(%x: tensor<10x40xf32>, %o0: tensor<10xf32> {accy.result = 0 : i64}, %o1: tensor<10xf32> {accy.result = 1 : i64}) -> (tensor<10xf32>, tensor<10xf32>) attributes {accy.entry} {
      %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<10x40xf32>) outs(%o0 : tensor<10xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %m = arith.maxnumf %a, %acc : f32
        linalg.yield %m : f32
      } -> tensor<10xf32>
      %n = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%r : tensor<10xf32>) outs(%o1 : tensor<10xf32>) {
      ^bb0(%a: f32, %o: f32):
        %m = arith.negf %a : f32
        linalg.yield %m : f32
      } -> tensor<10xf32>
      return %r, %n : tensor<10xf32>, tensor<10xf32>
    }
  }
}

// CHECK-LABEL: module @small
// CHECK:       choir.plan = #choir.plan<row_reduction, combiner = "maxnumf", targets = {
// CHECK-SAME:    gfx942 = #choir.launch<block = [64, 1, 1], tile = [1], subgroup = 64, workgroup_memory = 4>
// CHECK-SAME:    sm_80 = #choir.launch<block = [64, 1, 1], tile = [1], subgroup = 32, workgroup_memory = 8>
// CHECK:       choir.plan = #choir.plan<elementwise, targets = {
// CHECK-SAME:    gfx942 = #choir.launch<block = [64, 1, 1]
// CHECK-SAME:    sm_80 = #choir.launch<block = [32, 1, 1]

// -----

// A scan from the tensor stage (`choir.scan`, a reduction loop j masked by
// j <= i): one block per line, as many threads as the line has elements
// rounded up to the subgroup (at most the profile's block), one shared slot
// per subgroup; NVIDIA shuffles `up`, AMD reads lanes with `idx`. Without
// the tag the same generic is a row reduction.

#in = affine_map<(n, i, j) -> (n, j)>
#out = affine_map<(n, i, j) -> (n, i)>
module {
  module @scans attributes {accy.kernel = "scans"} {
    func.func @scans(%x: tensor<?x100xf32>, %o0: tensor<?x100xf32> {accy.result = 0 : i64}, %o1: tensor<?x100xf32> {accy.result = 1 : i64}) -> (tensor<?x100xf32>, tensor<?x100xf32>) attributes {accy.entry} {
      %zero = arith.constant 0.0 : f32
      %scan = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<?x100xf32>) outs(%o0 : tensor<?x100xf32>) attrs = {choir.scan = #choir<scan_kind cumsum>} {
      ^bb0(%a: f32, %acc: f32):
        %i = linalg.index 1 : index
        %j = linalg.index 2 : index
        %in = arith.cmpi ule, %j, %i : index
        %v = arith.select %in, %a, %zero : f32
        %s = arith.addf %acc, %v : f32
        linalg.yield %s : f32
      } -> tensor<?x100xf32>
      %untagged = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<?x100xf32>) outs(%o1 : tensor<?x100xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %i = linalg.index 1 : index
        %j = linalg.index 2 : index
        %in = arith.cmpi ule, %j, %i : index
        %v = arith.select %in, %a, %zero : f32
        %s = arith.addf %acc, %v : f32
        linalg.yield %s : f32
      } -> tensor<?x100xf32>
      return %scan, %untagged : tensor<?x100xf32>, tensor<?x100xf32>
    }
  }
}

// CHECK-LABEL: module @scans
// CHECK:       = linalg.generic
// CHECK-SAME:    choir.member = #choir.member<0>
// CHECK-SAME:    choir.plan = #choir.plan<scan, combiner = "addf", scan = <axis = 1, masked = 2>, targets = {
// CHECK-SAME:      gfx942 = #choir.launch<block = [128, 1, 1], tile = [1], subgroup = 64, workgroup_memory = 8>
// CHECK-SAME:      host = #choir.serial_loops
// CHECK-SAME:      sm_80 = #choir.launch<block = [128, 1, 1], tile = [1], subgroup = 32, workgroup_memory = 16, shuffle_up = true>
// CHECK-SAME:    choir.scan = #choir<scan_kind cumsum>
// CHECK:       = linalg.generic
// CHECK-SAME:    choir.plan = #choir.plan<row_reduction, combiner = "addf"

// -----

// Fewer lines than multiprocessors, each at least two blocks of 16 chunks
// long: the plan lets 4096 elements of a line take a block (line_tile).

#in = affine_map<(n, i, j) -> (n, j)>
#out = affine_map<(n, i, j) -> (n, i)>
module {
  module @long_lines attributes {accy.kernel = "long_lines"} {
    func.func @long_lines(%x: tensor<4x100000xf32>, %o0: tensor<4x100000xf32> {accy.result = 0 : i64}) -> tensor<4x100000xf32> attributes {accy.entry} {
      %zero = arith.constant 0.0 : f32
      %scan = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x100000xf32>) outs(%o0 : tensor<4x100000xf32>) attrs = {choir.scan = #choir<scan_kind cumsum>} {
      ^bb0(%a: f32, %acc: f32):
        %i = linalg.index 1 : index
        %j = linalg.index 2 : index
        %in = arith.cmpi ule, %j, %i : index
        %v = arith.select %in, %a, %zero : f32
        %s = arith.addf %acc, %v : f32
        linalg.yield %s : f32
      } -> tensor<4x100000xf32>
      return %scan : tensor<4x100000xf32>
    }
  }
}

// CHECK-LABEL: module @long_lines
// CHECK:       = linalg.generic
// CHECK-SAME:    choir.plan = #choir.plan<scan, combiner = "addf", scan = <axis = 1, masked = 2>, targets = {
// CHECK-SAME:      gfx942 = #choir.launch<block = [256, 1, 1], tile = [1], subgroup = 64, workgroup_memory = 16, line_tile = 4096>
// CHECK-SAME:      host = #choir.serial_loops
// CHECK-SAME:      sm_80 = #choir.launch<block = [256, 1, 1], tile = [1], subgroup = 32, workgroup_memory = 32, line_tile = 4096, shuffle_up = true>

// -----

// Along an outer axis (the output's innermost dimension is another loop),
// with at least a subgroup of lines per multiprocessor (sm_80: 108 * 32 =
// 3456 of the 8192 columns), a thread per line: lines_per_block is the
// block, without shared memory. gfx942 wants 304 * 64 = 19456 lines and
// keeps a block per line (as many threads as the line's 64 elements).

#in = affine_map<(i, n, j) -> (j, n)>
#out = affine_map<(i, n, j) -> (i, n)>
module {
  module @outer_axis attributes {accy.kernel = "outer_axis"} {
    func.func @outer_axis(%x: tensor<64x8192xf32>, %o0: tensor<64x8192xf32> {accy.result = 0 : i64}) -> tensor<64x8192xf32> attributes {accy.entry} {
      %zero = arith.constant 0.0 : f32
      %scan = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<64x8192xf32>) outs(%o0 : tensor<64x8192xf32>) attrs = {choir.scan = #choir<scan_kind cumsum>} {
      ^bb0(%a: f32, %acc: f32):
        %i = linalg.index 0 : index
        %j = linalg.index 2 : index
        %in = arith.cmpi ule, %j, %i : index
        %v = arith.select %in, %a, %zero : f32
        %s = arith.addf %acc, %v : f32
        linalg.yield %s : f32
      } -> tensor<64x8192xf32>
      return %scan : tensor<64x8192xf32>
    }
  }
}

// CHECK-LABEL: module @outer_axis
// CHECK:       choir.plan = #choir.plan<scan, combiner = "addf", scan = <axis = 0, masked = 2>, targets = {
// CHECK-SAME:    gfx942 = #choir.launch<block = [64, 1, 1], tile = [1], subgroup = 64, workgroup_memory = 0, lines_per_block = 256, line_chunks = 32>
// CHECK-SAME:    sm_80 = #choir.launch<block = [256, 1, 1], tile = [1], subgroup = 32, workgroup_memory = 0, lines_per_block = 256, shuffle_up = true>

// -----

// Too few lines along an outer axis to fill the GPU (128 columns; and
// 8192 above on gfx942): each line in 32 chunks, a thread each, consecutive
// threads on consecutive lines (line_chunks; no thread_lines_from: the
// count is known). A block per line would read a sector per element.

#in = affine_map<(i, n, j) -> (j, n)>
#out = affine_map<(i, n, j) -> (i, n)>
module {
  module @outer_axis_few_lines attributes {accy.kernel = "outer_axis_few_lines"} {
    func.func @outer_axis_few_lines(%x: tensor<1000x128xf32>, %o0: tensor<1000x128xf32> {accy.result = 0 : i64}) -> tensor<1000x128xf32> attributes {accy.entry} {
      %zero = arith.constant 0.0 : f32
      %scan = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<1000x128xf32>) outs(%o0 : tensor<1000x128xf32>) attrs = {choir.scan = #choir<scan_kind cumsum>} {
      ^bb0(%a: f32, %acc: f32):
        %i = linalg.index 0 : index
        %j = linalg.index 2 : index
        %in = arith.cmpi ule, %j, %i : index
        %v = arith.select %in, %a, %zero : f32
        %s = arith.addf %acc, %v : f32
        linalg.yield %s : f32
      } -> tensor<1000x128xf32>
      return %scan : tensor<1000x128xf32>
    }
  }
}

// CHECK-LABEL: module @outer_axis_few_lines
// CHECK:       choir.plan = #choir.plan<scan, combiner = "addf", scan = <axis = 0, masked = 2>, targets = {
// CHECK-SAME:    gfx942 = #choir.launch<block = [256, 1, 1], tile = [1], subgroup = 64, workgroup_memory = 16, lines_per_block = 128, line_chunks = 32>
// CHECK-SAME:    sm_80 = #choir.launch<block = [256, 1, 1], tile = [1], subgroup = 32, workgroup_memory = 32, lines_per_block = 128, line_chunks = 32, shuffle_up = true>

// -----

// Dynamic shapes along an outer axis: every variant may apply, and the plan
// records the thresholds the kernel stage tests at run time (a thread per
// line from thread_lines_from lines, below that line_chunks threads a line
// where the output starts neutral; else several blocks a line below
// split_lines_below lines of at least 2 * line_tile elements).

#in = affine_map<(i, n, j) -> (j, n)>
#out = affine_map<(i, n, j) -> (i, n)>
module {
  module @outer_axis_dynamic attributes {accy.kernel = "outer_axis_dynamic"} {
    func.func @outer_axis_dynamic(%x: tensor<?x?xf32>, %o0: tensor<?x?xf32> {accy.result = 0 : i64}) -> tensor<?x?xf32> attributes {accy.entry} {
      %zero = arith.constant 0.0 : f32
      %scan = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<?x?xf32>) outs(%o0 : tensor<?x?xf32>) attrs = {choir.scan = #choir<scan_kind cumsum>} {
      ^bb0(%a: f32, %acc: f32):
        %i = linalg.index 0 : index
        %j = linalg.index 2 : index
        %in = arith.cmpi ule, %j, %i : index
        %v = arith.select %in, %a, %zero : f32
        %s = arith.addf %acc, %v : f32
        linalg.yield %s : f32
      } -> tensor<?x?xf32>
      return %scan : tensor<?x?xf32>
    }
  }
}

// CHECK-LABEL: module @outer_axis_dynamic
// CHECK:       choir.plan = #choir.plan<scan, combiner = "addf", scan = <axis = 0, masked = 2>, targets = {
// CHECK-SAME:    gfx942 = #choir.launch<block = [256, 1, 1], tile = [1], subgroup = 64, workgroup_memory = 16, lines_per_block = 256, thread_lines_from = 19456, line_tile = 4096, split_lines_below = 304, line_chunks = 32>
// CHECK-SAME:    sm_80 = #choir.launch<block = [256, 1, 1], tile = [1], subgroup = 32, workgroup_memory = 32, lines_per_block = 256, thread_lines_from = 3456, line_tile = 4096, split_lines_below = 108, line_chunks = 32, shuffle_up = true>

// -----

// One line of dynamic length: several blocks share it when it is long
// enough, decided at run time (the one line is fewer than any target's
// multiprocessors).

#in = affine_map<(i, j) -> (j)>
#out = affine_map<(i, j) -> (i)>
module {
  module @long_dynamic_line attributes {accy.kernel = "long_dynamic_line"} {
    func.func @long_dynamic_line(%x: tensor<?xf32>, %o0: tensor<?xf32> {accy.result = 0 : i64}) -> tensor<?xf32> attributes {accy.entry} {
      %zero = arith.constant 0.0 : f32
      %scan = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<?xf32>) outs(%o0 : tensor<?xf32>) attrs = {choir.scan = #choir<scan_kind cumsum>} {
      ^bb0(%a: f32, %acc: f32):
        %i = linalg.index 0 : index
        %j = linalg.index 1 : index
        %in = arith.cmpi ule, %j, %i : index
        %v = arith.select %in, %a, %zero : f32
        %s = arith.addf %acc, %v : f32
        linalg.yield %s : f32
      } -> tensor<?xf32>
      return %scan : tensor<?xf32>
    }
  }
}

// CHECK-LABEL: module @long_dynamic_line
// CHECK:       choir.plan = #choir.plan<scan, combiner = "addf", scan = <axis = 0, masked = 1>, targets = {
// CHECK-SAME:    gfx942 = #choir.launch<block = [256, 1, 1], tile = [1], subgroup = 64, workgroup_memory = 16, line_tile = 4096, split_lines_below = 304>
// CHECK-SAME:    sm_80 = #choir.launch<block = [256, 1, 1], tile = [1], subgroup = 32, workgroup_memory = 32, line_tile = 4096, split_lines_below = 108, shuffle_up = true>

// -----

// A scan of a broadcast row (the broadcast fused into it): no operand is
// read along the axis, and the mask j <= i still names the axis.

#row = affine_map<(n, i, j) -> (j)>
#out = affine_map<(n, i, j) -> (n, i)>
module {
  module @scan_of_broadcast attributes {accy.kernel = "scan_of_broadcast"} {
    func.func @scan_of_broadcast(%b: tensor<?xf32>, %o0: tensor<?x?xf32> {accy.result = 0 : i64}) -> tensor<?x?xf32> attributes {accy.entry} {
      %zero = arith.constant 0.0 : f32
      %scan = linalg.generic {indexing_maps = [#row, #out], iterator_types = ["parallel", "parallel", "reduction"]} ins(%b : tensor<?xf32>) outs(%o0 : tensor<?x?xf32>) attrs = {choir.scan = #choir<scan_kind cumsum>} {
      ^bb0(%a: f32, %acc: f32):
        %i = linalg.index 1 : index
        %j = linalg.index 2 : index
        %in = arith.cmpi ule, %j, %i : index
        %v = arith.select %in, %a, %zero : f32
        %s = arith.addf %acc, %v : f32
        linalg.yield %s : f32
      } -> tensor<?x?xf32>
      return %scan : tensor<?x?xf32>
    }
  }
}

// CHECK-LABEL: module @scan_of_broadcast
// CHECK:       = linalg.generic
// CHECK-SAME:    choir.plan = #choir.plan<scan, combiner = "addf"

// -----

// Elementwise ops whose operands are contiguous along two loops: the
// transposed copy (its output contiguous along i, its input along j) and
// `x + transpose(y)` are tiled 32 x 32, a tile of workgroup memory (32 x
// 33 elements) for each operand contiguous along the other loop than the
// first output's and varying along both (for the sum, the transposed
// read of y). A broadcast of a column (the same element for every thread
// along j) and a transpose with a static side below a tile keep the
// one-dimensional mapping.

#ij = affine_map<(i, j) -> (i, j)>
#ji = affine_map<(i, j) -> (j, i)>
#i = affine_map<(i, j) -> (i)>
module {
  module @layouts attributes {accy.kernel = "layouts"} {
    func.func @layouts(%x: tensor<?x?xf32>, %y: tensor<?x?xf64>, %v: tensor<?xf32>, %s: tensor<16x4096xf32>, %o0: tensor<?x?xf32> {accy.result = 0 : i64}, %o1: tensor<?x?xf64> {accy.result = 1 : i64}, %o2: tensor<?x?xf32> {accy.result = 2 : i64}, %o3: tensor<4096x16xf32> {accy.result = 3 : i64}) -> (tensor<?x?xf32>, tensor<?x?xf64>, tensor<?x?xf32>, tensor<4096x16xf32>) attributes {accy.entry} {
      %t = linalg.generic {indexing_maps = [#ij, #ji], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<?x?xf32>) outs(%o0 : tensor<?x?xf32>) {
      ^bb0(%a: f32, %o: f32):
        linalg.yield %a : f32
      } -> tensor<?x?xf32>
      %sum = linalg.generic {indexing_maps = [#ij, #ji, #ij], iterator_types = ["parallel", "parallel"]} ins(%y, %y : tensor<?x?xf64>, tensor<?x?xf64>) outs(%o1 : tensor<?x?xf64>) {
      ^bb0(%a: f64, %b: f64, %o: f64):
        %r = arith.addf %a, %b : f64
        linalg.yield %r : f64
      } -> tensor<?x?xf64>
      %col = linalg.generic {indexing_maps = [#i, #ij], iterator_types = ["parallel", "parallel"]} ins(%v : tensor<?xf32>) outs(%o2 : tensor<?x?xf32>) {
      ^bb0(%a: f32, %o: f32):
        linalg.yield %a : f32
      } -> tensor<?x?xf32>
      %narrow = linalg.generic {indexing_maps = [#ij, #ji], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<16x4096xf32>) outs(%o3 : tensor<4096x16xf32>) {
      ^bb0(%a: f32, %o: f32):
        linalg.yield %a : f32
      } -> tensor<4096x16xf32>
      return %t, %sum, %col, %narrow : tensor<?x?xf32>, tensor<?x?xf64>, tensor<?x?xf32>, tensor<4096x16xf32>
    }
  }
}

// CHECK-LABEL: module @layouts
// CHECK:       linalg.generic
// CHECK-SAME:    choir.plan = #choir.plan<elementwise, targets = {
// CHECK-SAME:      gfx942 = #choir.launch<block = [256, 1, 1], tile = [32, 32], subgroup = 64, workgroup_memory = 4224>
// CHECK-SAME:      sm_80 = #choir.launch<block = [256, 1, 1], tile = [32, 32], subgroup = 32, workgroup_memory = 4224>
// CHECK:       linalg.generic
// CHECK-SAME:    sm_80 = #choir.launch<block = [256, 1, 1], tile = [32, 32], subgroup = 32, workgroup_memory = 8448>
// CHECK:       linalg.generic
// CHECK-SAME:    sm_80 = #choir.launch<block = [256, 1, 1], tile = [256], subgroup = 32, workgroup_memory = 0>
// CHECK:       linalg.generic
// CHECK-SAME:    sm_80 = #choir.launch<block = [256, 1, 1], tile = [256], subgroup = 32, workgroup_memory = 0>

// -----

// Rows reduce in subgroups whatever the width of the combined values from
// 8 to 64 bits (narrower ones widened into 32-bit shuffles, 64-bit ones in
// two): f16 max and i64 sum are row reductions; booleans (i1) keep a
// thread per row.

#rows = affine_map<(n, d) -> (n, d)>
#row = affine_map<(n, d) -> (n)>
module {
  module @widths attributes {accy.kernel = "widths"} {
    func.func @widths(%h: tensor<?x?xf16>, %l: tensor<?x?xi64>, %b: tensor<?x?xi1>, %o0: tensor<?xf16> {accy.result = 0 : i64}, %o1: tensor<?xi64> {accy.result = 1 : i64}, %o2: tensor<?xi1> {accy.result = 2 : i64}) -> (tensor<?xf16>, tensor<?xi64>, tensor<?xi1>) attributes {accy.entry} {
      %max = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]} ins(%h : tensor<?x?xf16>) outs(%o0 : tensor<?xf16>) {
      ^bb0(%a: f16, %acc: f16):
        %m = arith.maximumf %acc, %a : f16
        linalg.yield %m : f16
      } -> tensor<?xf16>
      %sum = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]} ins(%l : tensor<?x?xi64>) outs(%o1 : tensor<?xi64>) {
      ^bb0(%a: i64, %acc: i64):
        %s = arith.addi %acc, %a : i64
        linalg.yield %s : i64
      } -> tensor<?xi64>
      %any = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]} ins(%b : tensor<?x?xi1>) outs(%o2 : tensor<?xi1>) {
      ^bb0(%a: i1, %acc: i1):
        %o = arith.ori %acc, %a : i1
        linalg.yield %o : i1
      } -> tensor<?xi1>
      return %max, %sum, %any : tensor<?xf16>, tensor<?xi64>, tensor<?xi1>
    }
  }
}

// CHECK-LABEL: module @widths
// CHECK:       linalg.generic
// CHECK-SAME:    choir.plan = #choir.plan<row_reduction, combiner = "maximumf"
// CHECK:       linalg.generic
// CHECK-SAME:    choir.plan = #choir.plan<row_reduction, combiner = "addi"
// CHECK:       linalg.generic
// CHECK-SAME:    choir.plan = #choir.plan<thread_reduction

// -----

// Tensor cores take contractions of f16 or bf16 inputs accumulated in f32
// (acc + ext(a) * ext(b)): mma.sync on sm_80, MFMA on gfx942; a payload
// that rounds in between (here f16 accumulation) or f32 inputs keep the
// SIMT schedule, as does the host. The rhs tile lies as the operand does:
// K-contiguous [128][32 + 8] for `nk`, [32][128 + 8] for `kn`.

#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
module {
  module @tensor_cores attributes {accy.kernel = "tensor_cores"} {
    func.func @tensor_cores(%a: tensor<?x?xbf16>, %b: tensor<?x?xbf16>, %h: tensor<?x?xf16>, %o0: tensor<?x?xf32> {accy.result = 0 : i64}, %o1: tensor<?x?xf16> {accy.result = 1 : i64}) -> (tensor<?x?xf32>, tensor<?x?xf16>) attributes {accy.entry} {
      %nt = linalg.generic {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<?x?xbf16>, tensor<?x?xbf16>) outs(%o0 : tensor<?x?xf32>) {
      ^bb0(%x: bf16, %y: bf16, %acc: f32):
        %xe = arith.extf %x : bf16 to f32
        %ye = arith.extf %y : bf16 to f32
        %p = arith.mulf %xe, %ye : f32
        %s = arith.addf %acc, %p : f32
        linalg.yield %s : f32
      } -> tensor<?x?xf32>
      %half = linalg.matmul ins(%h, %h : tensor<?x?xf16>, tensor<?x?xf16>) outs(%o1 : tensor<?x?xf16>) -> tensor<?x?xf16>
      return %nt, %half : tensor<?x?xf32>, tensor<?x?xf16>
    }
  }
}

// CHECK-LABEL: module @tensor_cores
// CHECK:       linalg.generic
// CHECK-SAME:    gfx942 = #choir.launch<block = [64, 4, 1], tile = [128, 128, 32], subgroup = 64, workgroup_memory = 40960, mma = [16, 16, 16], stages = 2>
// CHECK-SAME:    host = #choir.serial_loops
// CHECK-SAME:    sm_80 = #choir.launch<block = [32, 8, 1], tile = [128, 128, 32], subgroup = 32, workgroup_memory = 40960, mma = [16, 8, 16], stages = 2>
// CHECK:       linalg.matmul
// CHECK-SAME:    gfx942 = #choir.launch<block = [16, 16, 1], tile = [128, 128, 8], subgroup = 64, workgroup_memory = 4224>
// CHECK-SAME:    sm_80 = #choir.launch<block = [16, 16, 1], tile = [128, 128, 8], subgroup = 32, workgroup_memory = 4224>}>
