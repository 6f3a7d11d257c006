// RUN: accy-opt %s --split-input-file --verify-diagnostics --accy-choir-plan-buffers | FileCheck %s

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
      linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : memref<?xf32>) outs(%a : memref<?xf32>) attrs = {accy.dispatch = {id = 0 : i64}} {
      ^bb0(%v: f32, %o: f32):
        %t = math.exp %v : f32
        linalg.yield %t : f32
      }
      linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : memref<?xf32>) outs(%out0 : memref<?xf32>) attrs = {accy.dispatch = {id = 1 : i64}} {
      ^bb0(%v: f32, %o: f32):
        %t = math.log %v : f32
        linalg.yield %t : f32
      }
      %b = memref.alloc(%n) : memref<?xf32>
      linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%out0 : memref<?xf32>) outs(%b : memref<?xf32>) attrs = {accy.dispatch = {id = 2 : i64}} {
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
// CHECK-SAME:    accy.memory = {arguments = [
// CHECK-SAME:      {alignment = 16 : i64, index = 0 : i64, role = "input", space = "global"}
// CHECK-SAME:      {alignment = 16 : i64, index = 1 : i64, result = 0 : i64, role = "output", space = "global"}
// CHECK-SAME:    buffers = [{alignment = 64 : i64, bytes = #[[BYTES:.+]], element = f32, id = 0 : i64, live = array<i64: 0, 3>, reuses = 1 : i64, shape = #[[SHAPE:.+]], space = "global"}]
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
// CHECK:         linalg.copy {accy.dispatch = {id = 3 : i64}, accy.plan = {schedule = "elementwise"{{.*}}} ins(%[[A]] : memref<?xf32>) outs(%[[O1]] : memref<?xf32>)
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
