// RUN: accy-opt %s --pass-pipeline='builtin.module(builtin.module(accy-choir-inline-dispatch-regions))' | FileCheck %s
// RUN: accy-opt %s --pass-pipeline='builtin.module(builtin.module(accy-choir-inline-dispatch-regions))' | accy-opt --pass-pipeline='builtin.module(builtin.module(accy-choir-build-dispatch-regions))' | FileCheck %s --check-prefix=ROUNDTRIP

// The memory stage dissolves each dispatch region before bufferization:
// its ops read the region's operands, its results are what it yields, the
// plan goes back on the root; building the regions again gives the input.

#id = affine_map<(i) -> (i)>
module {
  module @scale attributes {accy.kernel = "scale"} {
    func.func @scale(%x: tensor<?xf32>) -> tensor<?xf32> attributes {accy.entry} {
      %c0 = arith.constant 0 : index
      %n = tensor.dim %x, %c0 : tensor<?xf32>
      %e = tensor.empty(%n) : tensor<?xf32>
      %r = choir.dispatch ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) plan <elementwise, targets = {host = #choir.serial_loops}> {
      ^bb0(%a: tensor<?xf32>, %o: tensor<?xf32>):
        %two = arith.constant 2.0 : f32
        %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"], choir.member = #choir.member<0>} ins(%a : tensor<?xf32>) outs(%o : tensor<?xf32>) {
        ^bb0(%v: f32, %w: f32):
          %m = arith.mulf %v, %two : f32
          linalg.yield %m : f32
        } -> tensor<?xf32>
        choir.yield %y : tensor<?xf32>
      } -> tensor<?xf32>
      return %r : tensor<?xf32>
    }
  }
}

// CHECK-LABEL: func.func @scale
// CHECK-SAME:    (%[[X:.+]]: tensor<?xf32>)
// CHECK:         %[[E:.+]] = tensor.empty
// CHECK-NOT:     choir.dispatch
// CHECK:         %[[TWO:.+]] = arith.constant 2.0
// CHECK:         %[[Y:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[X]] : tensor<?xf32>) outs(%[[E]] : tensor<?xf32>)
// CHECK-SAME:      choir.member = #choir.member<0>
// CHECK-SAME:      choir.plan = #choir.plan<elementwise, targets = {host = #choir.serial_loops}>
// CHECK:           arith.mulf %{{.+}}, %[[TWO]]
// CHECK:         return %[[Y]]

// ROUNDTRIP-LABEL: func.func @scale
// ROUNDTRIP:         %[[R:.+]] = choir.dispatch ins(%arg0 : tensor<?xf32>) outs(%{{.+}} : tensor<?xf32>) plan <elementwise, targets = {host = #choir.serial_loops}>
// ROUNDTRIP:           arith.constant 2.0
// ROUNDTRIP:           linalg.generic
// ROUNDTRIP-SAME:        {choir.member = #choir.member<0>}
// ROUNDTRIP:           choir.yield
// ROUNDTRIP:         return %[[R]]
