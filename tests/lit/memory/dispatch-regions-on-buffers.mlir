// RUN: accy-opt %s --pass-pipeline='builtin.module(builtin.module(accy-choir-build-dispatch-regions))' | FileCheck %s

// At the end of the memory stage the dispatches become regions again, on
// buffers: no results, the buffers they write as `outs`. An epilogue runs
// in its root's region only where nothing between them writes what it
// reads (canRunInRootKernel); here dispatch 1, between the row sum and its
// epilogue, writes %b, which the epilogue reads, so the epilogue becomes a
// region of its own, rooted at itself, with its plan and its dispatch's id.

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#vec = affine_map<(i) -> (i)>
#rows = #choir.plan<row_reduction, combiner = "addf", targets = {sm_90 = #choir.launch<block = [32, 1, 1], tile = [1], subgroup = 32, workgroup_memory = 4>}>
#map = #choir.plan<elementwise, targets = {sm_90 = #choir.launch<block = [32, 1, 1], tile = [32], subgroup = 32, workgroup_memory = 0>}>
module {
  module @k attributes {accy.kernel = "k"} {
    func.func @k(%x: memref<4x8xf32>, %out: memref<4xf32>) attributes {accy.entry} {
      %zero = arith.constant 0.0 : f32
      %a = memref.alloc() : memref<4xf32>
      %b = memref.alloc() : memref<4xf32>
      linalg.fill {choir.member = #choir.member<0, init>} ins(%zero : f32) outs(%a : memref<4xf32>)
      linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"], choir.member = #choir.member<0>, choir.plan = #rows} ins(%x : memref<4x8xf32>) outs(%a : memref<4xf32>) {
      ^bb0(%v: f32, %acc: f32):
        %s = arith.addf %v, %acc : f32
        linalg.yield %s : f32
      }
      linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"], choir.member = #choir.member<1>, choir.plan = #map} ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {
      ^bb0(%v: f32, %o: f32):
        %n = arith.negf %v : f32
        linalg.yield %n : f32
      }
      linalg.generic {indexing_maps = [#vec, #vec, #vec], iterator_types = ["parallel"], choir.member = #choir.member<0, epilogue>, choir.plan = #map} ins(%a, %b : memref<4xf32>, memref<4xf32>) outs(%out : memref<4xf32>) {
      ^bb0(%v: f32, %w: f32, %o: f32):
        %m = arith.mulf %v, %w : f32
        linalg.yield %m : f32
      }
      memref.dealloc %b : memref<4xf32>
      memref.dealloc %a : memref<4xf32>
      return
    }
  }
}

// CHECK-LABEL: func.func @k
// CHECK-SAME:    (%[[X:.+]]: memref<4x8xf32>, %[[OUT:.+]]: memref<4xf32>)
// CHECK:         %[[A:.+]] = memref.alloc()
// CHECK:         %[[B:.+]] = memref.alloc()
// CHECK:         choir.dispatch ins(%[[X]] : memref<4x8xf32>) outs(%[[A]] : memref<4xf32>) plan <row_reduction
// CHECK:           linalg.fill {choir.member = #choir.member<0, init>}
// CHECK:           linalg.generic
// CHECK-SAME:        {choir.member = #choir.member<0>}
// CHECK:           choir.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    choir.dispatch ins(%[[A]] : memref<4xf32>) outs(%[[B]] : memref<4xf32>) plan <elementwise
// CHECK:           {choir.member = #choir.member<1>}
// CHECK:         choir.dispatch ins(%[[A]], %[[B]] : memref<4xf32>, memref<4xf32>) outs(%[[OUT]] : memref<4xf32>) plan <elementwise
// CHECK:           {choir.member = #choir.member<0>}
// CHECK:           arith.mulf
// CHECK:         memref.dealloc %[[B]]
// CHECK:         memref.dealloc %[[A]]
