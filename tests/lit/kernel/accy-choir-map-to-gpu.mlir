// RUN: accy-opt %s --split-input-file --pass-pipeline='builtin.module(accy-choir-dispatch{targets=sm_90},accy-choir-memory,builtin.module(accy-split-targets,accy-choir-map-to-gpu))' | FileCheck %s
// RUN: accy-opt %s --split-input-file --pass-pipeline='builtin.module(accy-choir-dispatch{targets=gfx942},accy-choir-memory,builtin.module(accy-split-targets,accy-choir-map-to-gpu))' | FileCheck %s --check-prefix=AMD

// Tiled contraction, dynamic sizes: 16x16 threads per block, one block per
// 128x128 output tile, each thread 8x8 accumulators carried through the K
// loop (64 iter_args, and the 4 + 4 tile elements it fetched for the next
// step: one K of four rows of A, eight threads taking a row's eight K;
// one column of B at four K). A and B
// tiles are staged K-major, 8 x (128 + 4), between barriers; the next
// tile's elements are loaded before the loop over the 8 steps, K clamped
// only when the next tile is not whole; each step reads 8 values of each
// tile and does 64 fused multiply-adds. The tiles are one loop: its steps
// go to min(8, K - k0), so that a partial last tile is no copy of the
// steps; each output is stored under its own bounds check. The zero fill becomes
// the accumulators' start.

module {
  module @mm attributes {accy.kernel = "mm"} {
    func.func @mm(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %out0: tensor<?x?xf32> {accy.result = 0 : i64}) -> tensor<?x?xf32> attributes {accy.entry} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %m = tensor.dim %a, %c0 : tensor<?x?xf32>
      %n = tensor.dim %b, %c1 : tensor<?x?xf32>
      %zero = arith.constant 0.0 : f32
      %e = tensor.empty(%m, %n) : tensor<?x?xf32>
      %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
      %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
      %res = bufferization.materialize_in_destination %r in %out0 : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
      return %res : tensor<?x?xf32>
    }
  }
}

// CHECK-LABEL: func.func @mm__sm_90(
// CHECK-SAME:    %[[A:[^:]+]]: memref<?x?xf32>, %[[B:[^:]+]]: memref<?x?xf32>, %[[C:[^:]+]]: memref<?x?xf32>
// CHECK-SAME:    accy.launches = [{dispatch = 0 : i64, launch = #choir.launch<{{[^>]*}}>, schedule = "tiled_contraction"}]
// CHECK-NOT:     linalg.
// CHECK:         %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}}) threads({{.*}}) in (%{{.+}} = %c16{{.*}}, %{{.+}} = %c16{{.*}}, %{{.+}} = %c1{{.*}}) workgroup(%[[WG:.+]] : memref<8448xi8, #gpu.address_space<workgroup>>)
// CHECK:           %[[AT:.+]] = memref.view %[[WG]][%c0{{.*}}][] : memref<8448xi8, #gpu.address_space<workgroup>> to memref<8x132xf32, #gpu.address_space<workgroup>>
// CHECK:           %[[BT:.+]] = memref.view %[[WG]][%c4224{{.*}}][] : memref<8448xi8, #gpu.address_space<workgroup>> to memref<8x132xf32, #gpu.address_space<workgroup>>
// CHECK:           %[[FIRST:.+]]:8 = scf.if %{{.+}} -> (f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK-COUNT-4:     memref.load %[[A]]
// CHECK-COUNT-4:     memref.load %[[B]]
// CHECK:           %[[TILES:.+]]:72 = scf.for %[[K0:.+]] = %{{.+}} to %[[K:.+]] step %c8{{.*}} iter_args(%{{.+}} = %[[ZERO]], {{.*}} = %[[FIRST]]#7) -> ({{(f32, ){71}f32}})
// CHECK-COUNT-4:     memref.store %{{.+}}, %[[AT]]
// CHECK-COUNT-4:     memref.store %{{.+}}, %[[BT]]
// CHECK:             gpu.barrier
// CHECK:             %{{.+}}:8 = scf.if %{{.+}} -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NOT:           arith.minui
// CHECK-COUNT-4:       memref.load %[[A]]
// CHECK-NOT:           arith.minui
// CHECK:               memref.load %[[B]][%{{.+}}, %[[COL:[a-z0-9_]+]]]
// CHECK-COUNT-3:       memref.load %[[B]][%{{.+}}, %[[COL]]]
// CHECK:             } else {
// CHECK-COUNT-4:       arith.minui
// CHECK:             %[[LEFT:.+]] = arith.subi %[[K]], %[[K0]]
// CHECK:             %[[COUNT:.+]] = arith.minui %c8{{.*}}, %[[LEFT]]
// CHECK:             %[[STEPS:.+]]:64 = scf.for %[[KK:.+]] = %{{.+}} to %[[COUNT]] step %c1{{.*}} iter_args({{.*}}) -> ({{(f32, ){63}f32}})
// CHECK-COUNT-8:       memref.load %[[AT]][%[[KK]]
// CHECK-COUNT-8:       memref.load %[[BT]][%[[KK]]
// CHECK-COUNT-64:      arith.mulf {{.*}} fastmath<contract>
// CHECK-NOT:           arith.mulf
// CHECK:               scf.yield
// CHECK-NEXT:        }
// CHECK-NEXT:        gpu.barrier
// CHECK-NEXT:        scf.yield %[[STEPS]]#0,
// CHECK-NOT:       scf.for {{.*}} -> ({{(f32, ){63}f32}})
// The outputs go through the staging rows, in the bytes of the operand
// tiles once every thread is past them, a row of the micro-tiles at a
// time: a loop over the eight rows, each a barrier, the row's eight puts
// (a switch on the row picks its accumulators), a barrier and eight
// guarded stores of staged values.
// CHECK:             %[[ST:.+]] = memref.view %[[WG]][%c0{{.*}}][] : memref<8448xi8, #gpu.address_space<workgroup>> to memref<16x129xf32, #gpu.address_space<workgroup>>
// CHECK:             scf.for %[[ROW:.+]] = %{{.+}} to %c8{{.*}} step %c1
// CHECK-NEXT:          gpu.barrier
// CHECK-NEXT:          scf.index_switch %[[ROW]]
// CHECK-NEXT:          case 0 {
// CHECK-COUNT-8:         memref.store %[[TILES]]#{{[0-7]}}, %[[ST]][
// CHECK:               case 6 {
// CHECK-COUNT-8:         memref.store %[[TILES]]#{{(4[89]|5[0-5])}}, %[[ST]][
// CHECK:               default {
// CHECK-COUNT-8:         memref.store %[[TILES]]#{{(5[6-9]|6[0-3])}}, %[[ST]][
// CHECK:               gpu.barrier
// CHECK:               %[[STAGED:.+]] = memref.load %[[ST]]
// CHECK:               scf.if
// CHECK-NEXT:            memref.store %[[STAGED]], %[[C]]
// CHECK-COUNT-7:       memref.store %{{.+}}, %[[C]]
// CHECK-NEXT:          }
// CHECK-NEXT:        }
// CHECK-NOT:         memref.store %{{.+}}, %[[C]]
// CHECK:           gpu.terminator

// AMD-LABEL: func.func @mm__gfx942(
// AMD:         gpu.launch {{.*}} threads({{.*}}) in (%{{.+}} = %c16{{.*}}, %{{.+}} = %c16{{.*}}, %{{.+}} = %c1{{.*}}) workgroup(%{{.+}} : memref<8448xi8, #gpu.address_space<workgroup>>)
// AMD:           scf.for {{.*}} -> ({{(f32, ){71}f32}})

// -----

// A small batched contraction (2 x 40x20 by 20x36) gets 32x32 tiles, 2x2
// accumulators per thread, one block per tile and batch element; the bias
// and relu fused after it run at each output the contraction computes, in
// registers. The contraction's own result is a temporary that nothing reads
// after the kernel: it is not stored.

#bias = affine_map<(b, i, j) -> (j)>
#id3 = affine_map<(b, i, j) -> (b, i, j)>
module {
  module @bmm attributes {accy.kernel = "bmm"} {
    func.func @bmm(%a: tensor<2x40x20xf32>, %b: tensor<2x20x36xf32>, %bias: tensor<36xf32>, %out0: tensor<2x40x36xf32> {accy.result = 0 : i64}) -> tensor<2x40x36xf32> attributes {accy.entry} {
      %zero = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<2x40x36xf32>
      %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x40x36xf32>) -> tensor<2x40x36xf32>
      %mm = linalg.batch_matmul ins(%a, %b : tensor<2x40x20xf32>, tensor<2x20x36xf32>) outs(%f : tensor<2x40x36xf32>) -> tensor<2x40x36xf32>
      %e2 = tensor.empty() : tensor<2x40x36xf32>
      %r = linalg.generic {indexing_maps = [#id3, #bias, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm, %bias : tensor<2x40x36xf32>, tensor<36xf32>) outs(%e2 : tensor<2x40x36xf32>) {
      ^bb0(%x: f32, %c: f32, %o: f32):
        %s = arith.addf %x, %c : f32
        %m = arith.maximumf %s, %zero : f32
        linalg.yield %m : f32
      } -> tensor<2x40x36xf32>
      %res = bufferization.materialize_in_destination %r in %out0 : (tensor<2x40x36xf32>, tensor<2x40x36xf32>) -> tensor<2x40x36xf32>
      return %res : tensor<2x40x36xf32>
    }
  }
}

// CHECK-LABEL: func.func @bmm__sm_90(
// CHECK-SAME:    %[[A:[^:]+]]: memref<2x40x20xf32>, %[[B:[^:]+]]: memref<2x20x36xf32>, %[[BIAS:[^:]+]]: memref<36xf32>, %[[OUT:[^:]+]]: memref<2x40x36xf32>
// CHECK:         %[[TILESM:.+]] = arith.ceildivui %c40, %c32
// CHECK:         %[[TILESN:.+]] = arith.ceildivui %c36, %c32
// CHECK:         %[[TILES:.+]] = arith.muli %[[TILESN]], %[[TILESM]]
// CHECK:         %[[GRID:.+]] = arith.muli %[[TILES]], %c2
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.+}} = %[[GRID]], {{.*}}) threads({{.*}}) in (%{{.+}} = %c16{{.*}}, %{{.+}} = %c16{{.*}}, %{{.+}} = %c1{{.*}}) workgroup(%[[WG:.+]] : memref<2304xi8, #gpu.address_space<workgroup>>)
// CHECK:           %[[AT:.+]] = memref.view %[[WG]][%c0{{.*}}][] : memref<2304xi8, #gpu.address_space<workgroup>> to memref<8x36xf32, #gpu.address_space<workgroup>>
// CHECK:           %[[BT:.+]] = memref.view %[[WG]][%c1152{{.*}}][] : memref<2304xi8, #gpu.address_space<workgroup>> to memref<8x36xf32, #gpu.address_space<workgroup>>
// CHECK:           %[[BTILES:.+]]:6 = scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32)
// CHECK:             %[[COUNT:.+]] = arith.minui %c8{{.*}}, %{{.+}}
// CHECK:             scf.for %[[KK:.+]] = %{{.+}} to %[[COUNT]] step %c1{{.*}} -> (f32, f32, f32, f32)
// CHECK-COUNT-2:       memref.load %[[AT]][%[[KK]]
// CHECK-COUNT-2:       memref.load %[[BT]][%[[KK]]
// CHECK-COUNT-4:       arith.mulf
// CHECK-NOT:           arith.mulf
// CHECK:               scf.yield
// CHECK-NOT:         scf.for
// CHECK:             %[[ST:.+]] = memref.view %[[WG]][%c0{{.*}}][] : memref<2304xi8, #gpu.address_space<workgroup>> to memref<16x33xf32, #gpu.address_space<workgroup>>
// CHECK:             scf.index_switch
// CHECK-NEXT:        case 0 {
// CHECK-COUNT-2:       memref.store %[[BTILES]]#{{[01]}}, %[[ST]]
// CHECK:             default {
// CHECK-COUNT-2:       memref.store %[[BTILES]]#{{[23]}}, %[[ST]]
// CHECK:             gpu.barrier
// CHECK:             %[[STAGED:.+]] = memref.load %[[ST]]
// CHECK:             scf.if
// CHECK-NOT:           memref.store
// CHECK:               memref.load %[[BIAS]]
// CHECK:               arith.addf
// CHECK:               arith.maximumf
// CHECK:               memref.store %{{.+}}, %[[OUT]]
// CHECK:             memref.store %{{.+}}, %[[OUT]]
// CHECK-NOT:       memref.store %{{.+}}, %[[OUT]]
// CHECK:           gpu.terminator

// -----

// The same contraction, its result also the kernel's first result: the
// kernel stores it, and then the fused relu's result.

#id3k = affine_map<(b, i, j) -> (b, i, j)>
module {
  module @bmm_kept attributes {accy.kernel = "bmm_kept"} {
    func.func @bmm_kept(%a: tensor<2x40x20xf32>, %b: tensor<2x20x36xf32>, %out0: tensor<2x40x36xf32> {accy.result = 0 : i64}, %out1: tensor<2x40x36xf32> {accy.result = 1 : i64}) -> (tensor<2x40x36xf32>, tensor<2x40x36xf32>) attributes {accy.entry} {
      %zero = arith.constant 0.0 : f32
      %f = linalg.fill ins(%zero : f32) outs(%out0 : tensor<2x40x36xf32>) -> tensor<2x40x36xf32>
      %mm = linalg.batch_matmul ins(%a, %b : tensor<2x40x20xf32>, tensor<2x20x36xf32>) outs(%f : tensor<2x40x36xf32>) -> tensor<2x40x36xf32>
      %r = linalg.generic {indexing_maps = [#id3k, #id3k], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm : tensor<2x40x36xf32>) outs(%out1 : tensor<2x40x36xf32>) {
      ^bb0(%x: f32, %o: f32):
        %m = arith.maximumf %x, %zero : f32
        linalg.yield %m : f32
      } -> tensor<2x40x36xf32>
      return %mm, %r : tensor<2x40x36xf32>, tensor<2x40x36xf32>
    }
  }
}

// CHECK-LABEL: func.func @bmm_kept__sm_90(
// CHECK-SAME:    %[[A:[^:]+]]: memref<2x40x20xf32>, %[[B:[^:]+]]: memref<2x20x36xf32>, %[[MM:[^:]+]]: memref<2x40x36xf32> {accy.result = 0 : i64}, %[[RELU:[^:]+]]: memref<2x40x36xf32> {accy.result = 1 : i64}
// CHECK:           gpu.launch
// CHECK:           scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32)
// CHECK:               %[[STAGED:.+]] = memref.load {{.+}} : memref<16x33xf32
// CHECK:               memref.store %[[STAGED]], %[[MM]]
// CHECK-NOT:       gpu.terminator
// CHECK:             arith.maximumf
// CHECK:             memref.store %{{.+}}, %[[RELU]]
// CHECK:           gpu.terminator

// -----

// Elementwise with a broadcast operand (rows of x minus the column vector
// y): upstream parallel loops, collapsed to one dimension, tiled by the
// block size and mapped to blocks and threads. A column sum (the reduction
// is not the fastest-varying dimension) gets one thread per column and a
// serial loop.

module {
  module @ew attributes {accy.kernel = "ew"} {
    func.func @ew(%x: tensor<?x?xf32>, %y: tensor<?xf32>, %out0: tensor<?x?xf32> {accy.result = 0 : i64}, %out1: tensor<?xf32> {accy.result = 1 : i64}) -> (tensor<?x?xf32>, tensor<?xf32>) attributes {accy.entry} {
      %zero = arith.constant 0.0 : f32
      %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<?x?xf32>, tensor<?xf32>) outs(%out0 : tensor<?x?xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %d = arith.subf %a, %b : f32
        %e = math.absf %d : f32
        linalg.yield %e : f32
      } -> tensor<?x?xf32>
      %f = linalg.fill ins(%zero : f32) outs(%out1 : tensor<?xf32>) -> tensor<?xf32>
      %c = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>], iterator_types = ["reduction", "parallel"]} ins(%x : tensor<?x?xf32>) outs(%f : tensor<?xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %s = arith.addf %a, %acc : f32
        linalg.yield %s : f32
      } -> tensor<?xf32>
      return %r, %c : tensor<?x?xf32>, tensor<?xf32>
    }
  }
}

// CHECK-LABEL: func.func @ew__sm_90(
// CHECK-SAME:    accy.launches = [{dispatch = 0 : i64, launch = #choir.launch<{{[^>]*}}>, schedule = "elementwise"}, {dispatch = 1 : i64, launch = #choir.launch<{{[^>]*}}>, schedule = "thread_reduction"}]
// CHECK:         %[[B:.+]] = arith.muli %{{.+}}, %c256{{(_[0-9]+)?}} : index
// CHECK:         scf.parallel (%{{.+}}) = (%{{.+}}) to (%{{.+}}) step (%[[B]]) {
// CHECK:           scf.parallel (%{{.+}}) = (%{{.+}}) to (%[[B]]) step (%{{.+}}) {
// CHECK:             math.absf
// CHECK:           } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK:         gpu.launch
// CHECK:           %[[G:.+]] = arith.addi
// CHECK:           scf.if
// CHECK:             scf.for {{.*}} iter_args(%{{.+}} = %cst
// CHECK:               memref.load %{{.+}}[%{{.+}}, %[[G]]]
// CHECK-NOT:     linalg.
// -----

// Elementwise over contiguous, 16-byte aligned buffers read at the point
// itself: one launch in which each thread takes 4 consecutive f32 of the
// flattened buffers (8 for f16), all loads, then the payloads, then all
// stores, at addresses asserted 16-byte aligned: the backends merge each
// group into one 128-bit access. The thread holding the last elements that
// do not make a whole run does them one by one.

module {
  module @axpy attributes {accy.kernel = "axpy"} {
    func.func @axpy(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>, %out0: tensor<?x?xf32> {accy.result = 0 : i64}) -> tensor<?x?xf32> attributes {accy.entry} {
      %two = arith.constant 2.0 : f32
      %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<?x?xf32>, tensor<?x?xf32>) outs(%out0 : tensor<?x?xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %m = arith.mulf %a, %two : f32
        %s = arith.addf %m, %b : f32
        linalg.yield %s : f32
      } -> tensor<?x?xf32>
      return %r : tensor<?x?xf32>
    }
  }
}

// CHECK-LABEL: module @axpy
// CHECK-LABEL: func.func @axpy__sm_90(
// CHECK-SAME:    %[[X:[^:]+]]: memref<?x?xf32>, %[[Y:[^:]+]]: memref<?x?xf32>, %[[OUT:[^:]+]]: memref<?x?xf32> {accy.result = 0 : i64}
// CHECK-SAME:    accy.launches = [{dispatch = 0 : i64, launch = #choir.launch<{{[^>]*}}>, schedule = "elementwise"}]
// CHECK-NOT:     scf.parallel
// CHECK:         %[[RUNS:.+]] = arith.ceildivui %{{.+}}, %c4
// CHECK:         %[[BLOCKS:.+]] = arith.ceildivui %[[RUNS]], %c256
// CHECK:         gpu.launch blocks(%[[BID:[^,]+]], {{.*}}) in (%{{.+}} = %[[BLOCKS]], {{.*}}) threads(%[[TID:[^,]+]], {{.*}}) in (%{{.+}} = %c256
// CHECK:           %[[TOTAL:.+]] = arith.muli
// CHECK:           %[[T:.+]] = arith.muli %[[BID]], %c256
// CHECK:           %[[G:.+]] = arith.addi %[[T]], %[[TID]]
// CHECK:           %[[FIRST:.+]] = arith.muli %[[G]], %c4
// CHECK:           %[[XF:.+]] = memref.collapse_shape %[[X]] {{\[\[}}0, 1]]
// CHECK:           memref.assume_alignment %[[XF]], 16
// CHECK:           %[[YF:.+]] = memref.collapse_shape %[[Y]]
// CHECK:           %[[OF:.+]] = memref.collapse_shape %[[OUT]]
// CHECK:           %[[END:.+]] = arith.addi %[[FIRST]], %c4
// CHECK:           %[[WHOLE:.+]] = arith.cmpi ule, %[[END]], %[[TOTAL]]
// CHECK:           scf.if %[[WHOLE]] {
// CHECK-COUNT-4:     memref.load %[[XF]]
// CHECK-COUNT-4:     memref.load %[[YF]]
// CHECK-COUNT-4:     arith.addf
// CHECK-COUNT-4:     memref.store %{{.+}}, %[[OF]]
// CHECK:           } else {
// CHECK:             scf.for %[[E:.+]] = %[[FIRST]] to %[[TOTAL]] step
// CHECK:               memref.load %[[XF]][%[[E]]]
// CHECK:               memref.load %[[YF]][%[[E]]]
// CHECK:               memref.store %{{.+}}, %[[OF]][%[[E]]]
// CHECK:           gpu.terminator
// CHECK-NOT:     gpu.launch
// -----

// Epilogues run in their root's kernel: every thread of each row's block
// ends the reduction with the row's sum, computes the mean from it in
// registers and the shift of the mean after it; thread 0 stores the three.
// One launch for the three ops; the mean's buffer is allocated before it.

module {
  module @row_mean attributes {accy.kernel = "row_mean"} {
    func.func @row_mean(%x: tensor<?x?xf32>, %out0: tensor<?xf32> {accy.result = 0 : i64}, %out1: tensor<?xf32> {accy.result = 1 : i64}) -> (tensor<?xf32>, tensor<?xf32>) attributes {accy.entry} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = tensor.dim %x, %c0 : tensor<?x?xf32>
      %zero = arith.constant 0.0 : f32
      %e = tensor.empty(%n) : tensor<?xf32>
      %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
      %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<?x?xf32>) outs(%fill : tensor<?xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %s = arith.addf %a, %acc : f32
        linalg.yield %s : f32
      } -> tensor<?xf32>
      %d = tensor.dim %x, %c1 : tensor<?x?xf32>
      %di = arith.index_cast %d : index to i64
      %df = arith.sitofp %di : i64 to f32
      %e1 = tensor.empty(%n) : tensor<?xf32>
      %mean = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%sum : tensor<?xf32>) outs(%e1 : tensor<?xf32>) {
      ^bb0(%a: f32, %o: f32):
        %q = arith.divf %a, %df : f32
        linalg.yield %q : f32
      } -> tensor<?xf32>
      %e2 = tensor.empty(%n) : tensor<?xf32>
      %shift = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%mean : tensor<?xf32>) outs(%e2 : tensor<?xf32>) {
      ^bb0(%a: f32, %o: f32):
        %p = arith.addf %a, %df : f32
        linalg.yield %p : f32
      } -> tensor<?xf32>
      %r0 = bufferization.materialize_in_destination %mean in %out0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      %r1 = bufferization.materialize_in_destination %shift in %out1 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      return %r0, %r1 : tensor<?xf32>, tensor<?xf32>
    }
  }
}

// CHECK-LABEL: module @row_mean
// CHECK-LABEL: func.func @row_mean__sm_90(
// CHECK-SAME:    %[[X:[^:]+]]: memref<?x?xf32>, %[[MEAN:[^:]+]]: memref<?xf32> {accy.result = 0 : i64}, %[[SHIFT:[^:]+]]: memref<?xf32> {accy.result = 1 : i64}
// CHECK-SAME:    accy.launches = [{dispatch = 0 : i64, launch = #choir.launch<{{[^>]*}}>, schedule = "row_reduction"}, {dispatch = 0 : i64, launch = #choir.launch<{{[^>]*}}>, schedule = "row_reduction"}]
// CHECK:         %[[SUM:.+]] = gpu.alloc
// CHECK:         %[[D:.+]] = arith.sitofp
// Rows of at most 512 elements: a warp per row, eight rows a block, the
// rows past the last skipped; shuffles only, no barrier.
// CHECK:         %[[SHORT:.+]] = arith.cmpi ule, %{{.+}}, %c512 : index
// CHECK:         scf.if %[[SHORT]] {
// CHECK:           gpu.launch blocks(%[[WBLOCK:[^,]+]],
// CHECK:             %[[LANE:.+]] = arith.remui %[[WTID:.+]], %c32
// CHECK:             %[[WARP:.+]] = arith.divui %[[WTID]], %c32
// CHECK:             %[[WROW:.+]] = arith.addi %{{.+}}, %[[WARP]]
// CHECK:             %[[HASROW:.+]] = arith.cmpi ult, %[[WROW]], %{{.+}}
// CHECK:             scf.if %[[HASROW]] {
// CHECK-NOT:           gpu.barrier
// CHECK:               gpu.subgroup_reduce  add %{{.+}} uniform : (f32) -> f32
// CHECK-NOT:           gpu.barrier
// CHECK:               memref.store %{{.+}}, %[[SHIFT]][%[[WROW]]]
// CHECK-NOT:         gpu.barrier
// CHECK:             gpu.terminator
// Longer rows: a block per row.
// CHECK:         } else {
// CHECK:         gpu.launch blocks(%[[ROW:[^,]+]],
// CHECK:           gpu.barrier
// CHECK:           scf.if %[[FIRST:.+]] {
// CHECK-NEXT:        memref.store %[[TOTAL:.+]], %[[SUM]][%[[ROW]]]
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[M:.+]] = arith.divf %[[TOTAL]], %[[D]]
// CHECK-NEXT:      scf.if %[[FIRST]] {
// CHECK-NEXT:        memref.store %[[M]], %[[MEAN]][%[[ROW]]]
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[S:.+]] = arith.addf %[[M]], %[[D]]
// CHECK-NEXT:      scf.if %[[FIRST]] {
// CHECK-NEXT:        memref.store %[[S]], %[[SHIFT]][%[[ROW]]]
// CHECK-NEXT:      }
// CHECK:           gpu.terminator
// CHECK-NOT:     gpu.launch
// CHECK:         return

// -----

// cumsum of f16 rows, accumulated in f32: one block per row walks the row in
// chunks of 256 elements, a carry (iter_arg) running from chunk to chunk.
// Each chunk: the element is the payload at j = i (f16 extended to f32),
// an inclusive warp scan with `up` shuffles, the eight warps' totals through
// workgroup memory between barriers, then the carry and the warps before
// are added; the thread stores its element and rounds it to f16 (the
// epilogue). The carry grows by the chunk's total. On gfx942 the plan's
// `idx` shuffles read computed lanes of 64-wide wavefronts. The shapes are
// dynamic: the three launches of few long lines come first, under a
// host-side branch on the sizes, and the block per line is its else.

#in = affine_map<(n, i, j) -> (n, j)>
#out = affine_map<(n, i, j) -> (n, i)>
#id = affine_map<(n, d) -> (n, d)>
module {
  module @cumsum_f16 attributes {accy.kernel = "cumsum_f16"} {
    func.func @cumsum_f16(%x: tensor<?x?xf16>, %out0: tensor<?x?xf16> {accy.result = 0 : i64}) -> tensor<?x?xf16> attributes {accy.entry} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = tensor.dim %x, %c0 : tensor<?x?xf16>
      %d = tensor.dim %x, %c1 : tensor<?x?xf16>
      %zero = arith.constant 0.0 : f32
      %e0 = tensor.empty(%n, %d) : tensor<?x?xf32>
      %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<?x?xf32>) -> tensor<?x?xf32>
      %scan = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<?x?xf16>) outs(%f : tensor<?x?xf32>) attrs = {choir.scan = #choir<scan_kind cumsum>} {
      ^bb0(%a: f16, %acc: f32):
        %i = linalg.index 1 : index
        %j = linalg.index 2 : index
        %in = arith.cmpi ule, %j, %i : index
        %w = arith.extf %a : f16 to f32
        %v = arith.select %in, %w, %zero : f32
        %s = arith.addf %acc, %v : f32
        linalg.yield %s : f32
      } -> tensor<?x?xf32>
      %e1 = tensor.empty(%n, %d) : tensor<?x?xf16>
      %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%scan : tensor<?x?xf32>) outs(%e1 : tensor<?x?xf16>) {
      ^bb0(%a: f32, %o: f16):
        %t = arith.truncf %a : f32 to f16
        linalg.yield %t : f16
      } -> tensor<?x?xf16>
      %res = bufferization.materialize_in_destination %r in %out0 : (tensor<?x?xf16>, tensor<?x?xf16>) -> tensor<?x?xf16>
      return %res : tensor<?x?xf16>
    }
  }
}

// CHECK-LABEL: func.func @cumsum_f16__sm_90(
// CHECK-SAME:    %[[X:[^:]+]]: memref<?x?xf16>, %[[OUT:[^:]+]]: memref<?x?xf16> {accy.result = 0 : i64}
// CHECK-SAME:    accy.launches = [{dispatch = 0 : i64, launch = #choir.launch<{{[^>]*}}>, schedule = "scan"}, {dispatch = 0 : i64, launch = #choir.launch<{{[^>]*}}>, schedule = "scan"}, {dispatch = 0 : i64, launch = #choir.launch<{{[^>]*}}>, schedule = "scan"}, {dispatch = 0 : i64, launch = #choir.launch<{{[^>]*}}>, schedule = "scan"}]
// CHECK-NOT:     linalg.
// The f32 scan is stored by the three launches, which pass carries
// through it, and not by the block per line, whose epilogue alone reads
// it (in registers).
// CHECK:         %[[ACC:.+]] = gpu.alloc
// CHECK:         scf.if
// CHECK:         gpu.launch blocks
// CHECK:           memref.store %{{.+}}, %[[ACC]]
// CHECK:         gpu.launch blocks
// CHECK:           memref.store %{{.+}}, %[[ACC]]
// CHECK:         gpu.launch blocks
// CHECK:           memref.store %{{.+}}, %[[ACC]]
// CHECK:         gpu.launch blocks(%[[LINE:[^,]+]], {{.*}}) in ({{.*}}) threads(%[[TID:[^,]+]], {{.*}}) in (%{{.+}} = %c256{{.*}}, %{{.+}} = %c1{{.*}}, %{{.+}} = %c1{{.*}}) workgroup(%[[PARTIALS:.+]] : memref<8xf32, #gpu.address_space<workgroup>>)
// CHECK:           %[[LEN:.+]] = memref.dim %[[ACC]], %c1
// CHECK:           %[[LANE:.+]] = arith.remui %[[TID]], %c32
// CHECK:           %[[WARP:.+]] = arith.divui %[[TID]], %c32
// CHECK:           scf.for %[[C0:.+]] = %{{.+}} to %[[LEN]] step %c256{{.*}} iter_args(%[[CARRY:.+]] = %{{.+}}) -> (f32) {
// CHECK:             %[[I:.+]] = arith.addi %[[C0]], %[[TID]]
// CHECK:             %[[IN:.+]] = arith.cmpi ult, %[[I]], %[[LEN]]
// CHECK:             %[[E:.+]] = scf.if %[[IN]] -> (f32) {
// CHECK:               memref.load %[[X]][%[[LINE]], %[[I]]]
// CHECK:               arith.extf
// CHECK:             gpu.shuffle  up %[[E]], %c1_i32
// CHECK:             gpu.shuffle  up %{{.+}}, %c2_i32
// CHECK:             gpu.shuffle  up %{{.+}}, %c4_i32
// CHECK:             gpu.shuffle  up %{{.+}}, %c8_i32
// CHECK:             gpu.shuffle  up %{{.+}}, %c16_i32
// CHECK:             %[[WARPSCAN:.+]] = arith.select
// CHECK:             arith.cmpi eq, %[[LANE]], %c31
// CHECK:               memref.store %[[WARPSCAN]], %[[PARTIALS]][%[[WARP]]]
// CHECK:             gpu.barrier
// CHECK-COUNT-8:     memref.load %[[PARTIALS]]
// CHECK:             %[[TOTAL:.+]] = arith.addf
// CHECK-NEXT:        gpu.barrier
// CHECK-NEXT:        %[[SCANNED:.+]] = arith.addf %{{.+}}, %[[WARPSCAN]]
// CHECK-NEXT:        scf.if %[[IN]] {
// CHECK-NEXT:          %[[V:.+]] = arith.addf %[[CARRY]], %[[SCANNED]]
// CHECK-NEXT:          %[[H:.+]] = arith.truncf %[[V]] : f32 to f16
// CHECK-NEXT:          memref.store %[[H]], %[[OUT]][%[[LINE]], %[[I]]]
// CHECK-NEXT:        }
// CHECK-NEXT:        %[[NEXT:.+]] = arith.addf %[[CARRY]], %[[TOTAL]]
// CHECK-NEXT:        scf.yield %[[NEXT]] : f32
// CHECK:           gpu.terminator
// CHECK-NOT:     gpu.launch
// CHECK:         return

// AMD-LABEL: func.func @cumsum_f16__gfx942(
// AMD:         scf.if
// AMD-COUNT-3: gpu.launch blocks
// AMD:         gpu.launch {{.*}} threads({{.*}}) in (%{{.+}} = %c256{{.*}}) workgroup(%[[PARTIALS:.+]] : memref<4xf32, #gpu.address_space<workgroup>>)
// AMD:           %[[LANE:.+]] = arith.remui %{{.+}}, %c64
// AMD:           scf.for
// AMD:             %[[HAS:.+]] = arith.cmpi uge, %[[LANE]], %c1
// AMD:             %[[FROM:.+]] = arith.subi %[[LANE]], %c1
// AMD:             %[[SRC:.+]] = arith.select %[[HAS]], %[[FROM]], %[[LANE]]
// AMD:             %[[SRC32:.+]] = arith.index_cast %[[SRC]] : index to i32
// AMD:             gpu.shuffle  idx %{{.+}}, %[[SRC32]], %c64_i32
// AMD-COUNT-5:     gpu.shuffle  idx
// AMD-NOT:         gpu.shuffle
// AMD:             memref.store %{{.+}}, %[[PARTIALS]]

// -----

// Four lines of 100000 (fewer than the multiprocessors): blocks of 4096
// elements share each line, 25 per line, in three launches. The first
// reduces each block's elements (a strided loop, then the block's total)
// and thread 0 stores the total at the block's last element; the second,
// one block per line, scans those 25 totals in place; the third scans each
// block's elements from the value at the previous block's last element and
// stores every element but its own last (which the third launch's other
// blocks read).

#in = affine_map<(n, i, j) -> (n, j)>
#out = affine_map<(n, i, j) -> (n, i)>
module {
  module @long_cumsum attributes {accy.kernel = "long_cumsum"} {
    func.func @long_cumsum(%x: tensor<4x100000xf32>, %out0: tensor<4x100000xf32> {accy.result = 0 : i64}) -> tensor<4x100000xf32> attributes {accy.entry} {
      %zero = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<4x100000xf32>
      %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x100000xf32>) -> tensor<4x100000xf32>
      %scan = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x100000xf32>) outs(%f : tensor<4x100000xf32>) attrs = {choir.scan = #choir<scan_kind cumsum>} {
      ^bb0(%a: f32, %acc: f32):
        %i = linalg.index 1 : index
        %j = linalg.index 2 : index
        %in = arith.cmpi ule, %j, %i : index
        %v = arith.select %in, %a, %zero : f32
        %s = arith.addf %acc, %v : f32
        linalg.yield %s : f32
      } -> tensor<4x100000xf32>
      %res = bufferization.materialize_in_destination %scan in %out0 : (tensor<4x100000xf32>, tensor<4x100000xf32>) -> tensor<4x100000xf32>
      return %res : tensor<4x100000xf32>
    }
  }
}

// CHECK-LABEL: func.func @long_cumsum__sm_90(
// CHECK-SAME:    %[[X:[^:]+]]: memref<4x100000xf32>, %[[OUT:[^:]+]]: memref<4x100000xf32> {accy.result = 0 : i64}
// CHECK-SAME:    accy.launches = [{dispatch = 0 : i64, launch = #choir.launch<{{[^>]*}}>, schedule = "scan"}, {dispatch = 0 : i64, launch = #choir.launch<{{[^>]*}}>, schedule = "scan"}, {dispatch = 0 : i64, launch = #choir.launch<{{[^>]*}}>, schedule = "scan"}]
// CHECK:         gpu.launch blocks(%[[B1:[^,]+]],
// CHECK:           %[[IN_LINE:.+]] = arith.remui %[[B1]], %{{.+}}
// CHECK:           %[[BEGIN:.+]] = arith.muli %[[IN_LINE]], %c4096
// CHECK:           scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c256{{.*}} iter_args
// CHECK:             memref.load %[[X]]
// CHECK:           gpu.barrier
// CHECK:           gpu.barrier
// CHECK:           scf.if
// CHECK:             %[[LAST:.+]] = arith.subi %{{.+}}, %c1
// CHECK:             memref.store %{{.+}}, %[[OUT]][%{{.+}}, %[[LAST]]]
// CHECK:           gpu.terminator
// CHECK:         gpu.launch blocks(%[[LINE:[^,]+]], {{.*}}) in (%{{.+}} = %c4{{(_[0-9]+)?}},
// CHECK:             %[[END:.+]] = arith.subi %{{.+}}, %c1
// CHECK:             memref.load %[[OUT]][%[[LINE]], %[[END]]]
// CHECK:           gpu.shuffle  up
// CHECK:           gpu.barrier
// CHECK:             memref.store %{{.+}}, %[[OUT]][%[[LINE]], %{{.+}}]
// CHECK:           gpu.terminator
// CHECK:         gpu.launch blocks
// CHECK:           %[[FIRST:.+]] = arith.cmpi eq, %{{.+}}, %c0
// CHECK:           %[[CARRY:.+]] = scf.if %[[FIRST]] -> (f32) {
// CHECK:           } else {
// CHECK:             %[[PREV:.+]] = arith.subi %{{.+}}, %c1
// CHECK:             memref.load %[[OUT]][%{{.+}}, %[[PREV]]]
// CHECK:           scf.for {{.*}} iter_args(%{{.+}} = %[[CARRY]]) -> (f32) {
// CHECK:             memref.load %[[X]]
// CHECK:             gpu.shuffle  up
// CHECK:             scf.if
// CHECK:               %[[NOT_LAST:.+]] = arith.cmpi ult
// CHECK:               scf.if %[[NOT_LAST]] {
// CHECK-NEXT:            memref.store %{{.+}}, %[[OUT]]
// CHECK:           gpu.terminator
// CHECK-NOT:     gpu.launch
// CHECK:         return

// -----

// A row reduction whose rows are contiguous in an aligned buffer: when the
// row is a whole number of runs of 4 f32, each thread takes runs (4 loads
// from the flattened buffer at the row's start rounded to runs, then the 4
// payloads), which the backends merge into one 128-bit load; otherwise the
// single-element loop.

module {
  module @row_sum attributes {accy.kernel = "row_sum"} {
    func.func @row_sum(%x: tensor<?x?xf32>, %out0: tensor<?xf32> {accy.result = 0 : i64}) -> tensor<?xf32> attributes {accy.entry} {
      %zero = arith.constant 0.0 : f32
      %f = linalg.fill ins(%zero : f32) outs(%out0 : tensor<?xf32>) -> tensor<?xf32>
      %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<?x?xf32>) outs(%f : tensor<?xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %r = arith.addf %a, %acc : f32
        linalg.yield %r : f32
      } -> tensor<?xf32>
      return %s : tensor<?xf32>
    }
  }
}

// CHECK-LABEL: module @row_sum
// CHECK-LABEL: func.func @row_sum__sm_90(
// CHECK-SAME:    %[[X:[^:]+]]: memref<?x?xf32>
// The block per row of rows longer than 512 elements (a warp per row
// before it, for shorter ones):
// CHECK:         } else {
// CHECK:         gpu.launch blocks(%[[ROW:[^,]+]], {{.*}}) threads(%[[TID:[^,]+]],
// CHECK:           %[[FLAT:.+]] = memref.collapse_shape %[[X]] {{\[\[}}0, 1]]
// CHECK-NEXT:      memref.assume_alignment %[[FLAT]], 16
// CHECK:           %[[REM:.+]] = arith.remui %[[D:.+]], %c4
// CHECK:           %[[WHOLE:.+]] = arith.cmpi eq, %[[REM]], %c0
// CHECK:           %[[RUNS:.+]] = arith.divui %[[D]], %c4
// CHECK:           %[[ROUNDED:.+]] = arith.muli %[[RUNS]], %c4
// CHECK:           %[[START:.+]] = arith.muli %[[ROW]], %[[ROUNDED]]
// CHECK:           scf.if %[[WHOLE]] -> (f32) {
// CHECK:             %[[FIRST:.+]] = arith.muli %[[TID]], %c4
// CHECK:             scf.for %[[K:.+]] = %[[FIRST]] to %[[D]] step %c1024
// CHECK:               %[[AT:.+]] = arith.addi %[[START]], %{{.+}}
// CHECK-NEXT:          memref.load %[[FLAT]][%[[AT]]]
// CHECK-COUNT-3:       memref.load %[[FLAT]]
// CHECK-COUNT-4:       arith.addf
// CHECK:             scf.yield
// CHECK:           } else {
// CHECK:             scf.for %{{.+}} = %[[TID]] to %[[D]] step %c256
// CHECK:               memref.load %[[X]][%[[ROW]], %{{.+}}]
// CHECK:           gpu.subgroup_reduce  add %{{.+}} uniform : (f32) -> f32
// -----

// An elementwise op whose operands are contiguous along two loops (here
// `x + transpose(y)`, its output and x along j, y along i) takes a block
// of 32 x 8 threads per 32 x 32 tile of (i, j): y is read into a tile of
// workgroup memory with consecutive threads along i (its rows a column
// wider than the tile), then each point is computed with consecutive
// threads along j, y's value read from a column of the tile.

#ij = affine_map<(i, j) -> (i, j)>
#ji = affine_map<(i, j) -> (j, i)>
module {
  module @add_transposed attributes {accy.kernel = "add_transposed"} {
    func.func @add_transposed(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>, %out0: tensor<?x?xf32> {accy.result = 0 : i64}) -> tensor<?x?xf32> attributes {accy.entry} {
      %r = linalg.generic {indexing_maps = [#ij, #ji, #ij], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<?x?xf32>, tensor<?x?xf32>) outs(%out0 : tensor<?x?xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %s = arith.addf %a, %b : f32
        linalg.yield %s : f32
      } -> tensor<?x?xf32>
      return %r : tensor<?x?xf32>
    }
  }
}

// CHECK-LABEL: func.func @add_transposed__sm_90(
// CHECK-SAME:    %[[X:[^:]+]]: memref<?x?xf32>, %[[Y:[^:]+]]: memref<?x?xf32>, %[[OUT:[^:]+]]: memref<?x?xf32>
// CHECK:         gpu.launch {{.*}} threads(%[[TX:.+]], %[[TY:.+]], %{{.+}}) in (%{{.+}} = %c32{{.*}}, %{{.+}} = %c8{{.*}}, %{{.+}} = %c1{{.*}}) workgroup(%[[TILE:.+]] : memref<32x33xf32, #gpu.address_space<workgroup>>)
// CHECK-COUNT-4:   memref.store %{{.+}}, %[[TILE]][%{{.+}}, %[[TX]]]
// CHECK-NOT:       memref.store %{{.+}}, %[[TILE]]
// CHECK:           gpu.barrier
// CHECK-NOT:       gpu.barrier
// CHECK:           scf.if
// CHECK:             memref.load %[[X]]
// CHECK:             memref.load %[[TILE]][%[[TX]], %{{.+}}]
// CHECK:             arith.addf
// CHECK:             memref.store %{{.+}}, %[[OUT]]
// CHECK-COUNT-3:   memref.store %{{.+}}, %[[OUT]]
// CHECK-NOT:       memref.store
// CHECK:           gpu.terminator
