// RUN: accy-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(builtin.module(accy-choir-plan-buffers))' | FileCheck %s

// Two intermediates of one type whose live ranges do not overlap share a
// buffer; every buffer is freed after its last use; arguments get their
// alignment; the copy into the output becomes a planned linalg.copy.

#id = affine_map<(i) -> (i)>
module {
  module @chain attributes {accy.kernel = "chain", accy.targets = ["sm_90", "host"]} {
    func.func @chain(%x: memref<?xf32>, %out0: memref<?xf32> {accy.result = 0 : i64}, %out1: memref<?xf32> {accy.result = 1 : i64}) attributes {accy.entry} {
      %c0 = arith.constant 0 : index
      %n = memref.dim %x, %c0 : memref<?xf32>
      %a = memref.alloc(%n) : memref<?xf32>
      linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : memref<?xf32>) outs(%a : memref<?xf32>) attrs = {choir.member = #choir.member<0>} {
      ^bb0(%v: f32, %o: f32):
        %t = math.exp %v : f32
        linalg.yield %t : f32
      }
      linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : memref<?xf32>) outs(%out0 : memref<?xf32>) attrs = {choir.member = #choir.member<1>} {
      ^bb0(%v: f32, %o: f32):
        %t = math.log %v : f32
        linalg.yield %t : f32
      }
      %b = memref.alloc(%n) : memref<?xf32>
      linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%out0 : memref<?xf32>) outs(%b : memref<?xf32>) attrs = {choir.member = #choir.member<2>} {
      ^bb0(%v: f32, %o: f32):
        %t = math.tanh %v : f32
        linalg.yield %t : f32
      }
      memref.copy %b, %out1 : memref<?xf32> to memref<?xf32>
      return
    }
  }
}

// CHECK-LABEL: module @chain
// CHECK-SAME:    choir.memory = #choir.memory_plan<arguments = [
// CHECK-SAME:      #choir.entry_argument<index = 0, role = input, alignment = 16, space = global>
// CHECK-SAME:      #choir.entry_argument<index = 1, role = output, result = 0, alignment = 16, space = global>
// CHECK-SAME:    buffers = [#choir.buffer<id = 0, element = f32, shape = #[[SHAPE:[a-z0-9]+]], bytes = #[[BYTES:[a-z0-9]+]], alignment = 64, live = [0, 3], reuses = 1, space = global>]
// CHECK-SAME:    symbols = [array<i64: 0, 0>, array<i64: 1, 0>, array<i64: 2, 0>]
// CHECK:       func.func @chain(%[[X:.+]]: memref<?xf32>, %[[O0:.+]]: memref<?xf32> {{.*}}, %[[O1:.+]]: memref<?xf32> {{.*}})
// CHECK-NEXT:    memref.assume_alignment %[[X]], 16
// CHECK-NEXT:    memref.assume_alignment %[[O0]], 16
// CHECK-NEXT:    memref.assume_alignment %[[O1]], 16
// CHECK:         %[[A:.+]] = memref.alloc(%{{.+}}) {accy.buffer = 0 : i64, alignment = 64 : i64}
// CHECK:         linalg.generic {{.*}} outs(%[[A]] :
// CHECK:         linalg.generic {{.*}} ins(%[[A]] : {{.*}} outs(%[[O0]] :
// CHECK-NOT:     memref.alloc
// CHECK:         linalg.generic {{.*}} outs(%[[A]] :
// CHECK:         linalg.copy {choir.member = #choir.member<3>, choir.plan = #choir.plan<elementwise{{.*}}} ins(%[[A]] : memref<?xf32>) outs(%[[O1]] : memref<?xf32>)
// CHECK-NEXT:    memref.dealloc %[[A]]
// CHECK-NEXT:    return

// -----

module {
  module @nested attributes {accy.kernel = "nested", accy.targets = ["host"]} {
    func.func @nested(%x: memref<4xf32>, %flag: memref<i1>) attributes {accy.entry} {
      %c = memref.load %flag[] : memref<i1>
      scf.if %c {
        // expected-error @+1 {{kernel 'nested': allocation inside a region; the buffer planner expects straight-line code}}
        %a = memref.alloc() : memref<4xf32>
      }
      return
    }
  }
}

// -----

// A buffer sized by the dimensions of a collapsed view: each dimension of
// the collapse_shape is the product of the source dimensions its group
// reassociates (A * B, then C), whichever group it is.

#id2 = affine_map<(i, j) -> (i, j)>
module {
  module @flat attributes {accy.kernel = "flat", accy.targets = ["sm_90"]} {
    func.func @flat(%x: memref<?x?x?xf32>, %out0: memref<?x?xf32> {accy.result = 0 : i64}) attributes {accy.entry} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %v = memref.collapse_shape %x [[0, 1], [2]] : memref<?x?x?xf32> into memref<?x?xf32>
      %rows = memref.dim %v, %c0 : memref<?x?xf32>
      %cols = memref.dim %v, %c1 : memref<?x?xf32>
      %a = memref.alloc(%rows, %cols) : memref<?x?xf32>
      linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%v : memref<?x?xf32>) outs(%a : memref<?x?xf32>) attrs = {choir.member = #choir.member<0>} {
      ^bb0(%in: f32, %o: f32):
        %t = math.exp %in : f32
        linalg.yield %t : f32
      }
      linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : memref<?x?xf32>) outs(%out0 : memref<?x?xf32>) attrs = {choir.member = #choir.member<1>} {
      ^bb0(%in: f32, %o: f32):
        %t = math.log %in : f32
        linalg.yield %t : f32
      }
      return
    }
  }
}

// CHECK-DAG: #[[FLATBYTES:.+]] = affine_map<()[s0, s1, s2, s3, s4] -> (((s0 * s1) * s2) * 4)>
// CHECK-DAG: #[[FLATSHAPE:.+]] = affine_map<()[s0, s1, s2, s3, s4] -> (s0 * s1, s2)>
// CHECK-LABEL: module @flat
// CHECK-SAME:    buffers = [#choir.buffer<id = 0, element = f32, shape = #[[FLATSHAPE]], bytes = #[[FLATBYTES]], alignment = 64, live = [0, 1], reuses = 0, space = global>]
