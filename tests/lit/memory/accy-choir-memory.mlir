// RUN: accy-opt %s --accy-choir-dispatch="targets=sm_90,host" --accy-choir-memory | FileCheck %s

// softmax after the memory stage: `(memref ins, memref outs) -> ()`, the
// result written in place into the output argument, the row maximum and
// the row sum in two planned device buffers. softmax is one dispatch (a row
// pipeline), so both live within dispatch 0, and the sum's buffer is
// allocated before the maximum, where the pipeline runs.

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

// CHECK-DAG:   #[[SHAPE:.+]] = affine_map<()[s0, s1, s2, s3] -> (s0)>
// CHECK-DAG:   #[[BYTES:.+]] = affine_map<()[s0, s1, s2, s3] -> (s0 * 4)>
// CHECK-LABEL: module @softmax
// CHECK-SAME:    buffers = [#choir.buffer<id = 0, element = f32, shape = #[[SHAPE]], bytes = #[[BYTES]], alignment = 64, live = [0, 0], reuses = 0, space = global>, #choir.buffer<id = 1, element = f32, shape = #[[SHAPE]], bytes = #[[BYTES]], alignment = 64, live = [0, 0], reuses = 0, space = global>]
// CHECK-SAME:    symbols = [array<i64: 0, 0>, array<i64: 0, 1>, array<i64: 1, 0>, array<i64: 1, 1>]
// CHECK:       func.func @softmax(%[[X:.+]]: memref<?x?xf32>, %[[OUT:.+]]: memref<?x?xf32> {accy.result = 0 : i64}) attributes {accy.entry} {
// CHECK:         %[[MAX:.+]] = memref.alloc(%{{.+}}) {accy.buffer = 0 : i64, alignment = 64 : i64} : memref<?xf32>
// CHECK:         %[[SUM:.+]] = memref.alloc(%{{.+}}) {accy.buffer = 1 : i64, alignment = 64 : i64} : memref<?xf32>
// The dispatch as a region on buffers: it reads x and writes both buffers
// and the output.
// CHECK:         choir.dispatch ins(%[[X]] : memref<?x?xf32>) outs(%[[MAX]], %[[SUM]], %[[OUT]] : memref<?xf32>, memref<?xf32>, memref<?x?xf32>) plan <row_reduction, combiner = "maximumf"
// CHECK-NEXT:    ^bb0(%[[X_A:.+]]: memref<?x?xf32>, %[[MAX_A:.+]]: memref<?xf32>, %[[SUM_A:.+]]: memref<?xf32>, %[[OUT_A:.+]]: memref<?x?xf32>):
// CHECK:           linalg.fill {{.*}} outs(%[[MAX_A]] :
// CHECK:           linalg.fill {{.*}} outs(%[[SUM_A]] :
// CHECK:           linalg.generic {{.*}} ins(%[[X_A]] : memref<?x?xf32>) outs(%[[MAX_A]] : memref<?xf32>) attrs = {choir.member = #choir.member<0>}
// CHECK:           linalg.generic {{.*}} ins(%[[X_A]], %[[MAX_A]] : {{.*}}) outs(%[[SUM_A]] : memref<?xf32>) attrs = {choir.member = #choir.member<0, epilogue>}
// CHECK:           linalg.generic {{.*}} ins(%[[X_A]], %[[MAX_A]], %[[SUM_A]] : {{.*}}) outs(%[[OUT_A]] : memref<?x?xf32>) attrs = {choir.member = #choir.member<0, epilogue>}
// CHECK:           choir.yield
// CHECK-NEXT:    }
// CHECK-DAG:     memref.dealloc %[[MAX]] :
// CHECK-DAG:     memref.dealloc %[[SUM]] :
// CHECK:         return
