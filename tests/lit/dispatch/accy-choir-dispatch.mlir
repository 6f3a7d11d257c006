// RUN: accy-opt %s --accy-choir-dispatch="targets=sm_90,gfx942,host" | FileCheck %s
// RUN: accy-opt %s --accy-choir-dispatch="targets=sm_90,gfx942,host" > %t.1.mlir
// RUN: accy-opt %s --accy-choir-dispatch="targets=host,gfx942,sm_90" > %t.2.mlir
// RUN: cmp %t.1.mlir %t.2.mlir

// The stage on a file with two kernels: canonicalization, dispatch regions,
// plans. The product is the same for any order of the target list.

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
module {
  module @rowsum_scaled attributes {accy.kernel = "rowsum_scaled"} {
    func.func @rowsum_scaled(%x: tensor<?x?xf32>, %out0: tensor<?xf32> {accy.result = 0 : i64}) -> tensor<?xf32> attributes {accy.entry} {
      %c0 = arith.constant 0 : index
      %n = tensor.dim %x, %c0 : tensor<?x?xf32>
      %zero = arith.constant 0.0 : f32
      %two = arith.constant 2.0 : f32
      %c1 = arith.constant 1 : index
      %d = tensor.dim %x, %c1 : tensor<?x?xf32>
      %e0 = tensor.empty(%n, %d) : tensor<?x?xf32>
      %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<?x?xf32>) outs(%e0 : tensor<?x?xf32>) {
      ^bb0(%a: f32, %o: f32):
        %m = arith.mulf %a, %two : f32
        linalg.yield %m : f32
      } -> tensor<?x?xf32>
      %e1 = tensor.empty(%n) : tensor<?xf32>
      %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
      %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%s : tensor<?x?xf32>) outs(%f : tensor<?xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %t = arith.addf %a, %acc : f32
        linalg.yield %t : f32
      } -> tensor<?xf32>
      %res = bufferization.materialize_in_destination %r in %out0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      return %res : tensor<?xf32>
    }
  }
  module @scale attributes {accy.kernel = "scale"} {
    func.func @scale(%x: tensor<4x5xf32>, %out0: tensor<4x5xf32> {accy.result = 0 : i64}) -> tensor<4x5xf32> attributes {accy.entry} {
      %one = arith.constant 1.0 : f32
      %e0 = tensor.empty() : tensor<4x5xf32>
      %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x5xf32>) outs(%e0 : tensor<4x5xf32>) {
      ^bb0(%a: f32, %o: f32):
        %m = arith.mulf %a, %one : f32
        linalg.yield %m : f32
      } -> tensor<4x5xf32>
      %res = bufferization.materialize_in_destination %s in %out0 : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
      return %res : tensor<4x5xf32>
    }
  }
}

// The scaling fuses into the row sum: one dispatch, a region isolated from
// above (constants cloned in) that writes the row sums into %[[E]].
// CHECK-LABEL: module @rowsum_scaled
// CHECK-SAME:    accy.targets = ["sm_90", "gfx942", "host"]
// CHECK:         %[[E:.+]] = tensor.empty
// CHECK-NEXT:    %[[D:.+]] = choir.dispatch ins(%arg0 : tensor<?x?xf32>) outs(%[[E]] : tensor<?xf32>)
// CHECK-SAME:      plan <row_reduction, combiner = "addf", targets = {gfx942 = #choir.launch<
// CHECK-NEXT:    ^bb0(%[[X:.+]]: tensor<?x?xf32>, %[[OUT:.+]]: tensor<?xf32>):
// CHECK-DAG:       %[[TWO:.+]] = arith.constant 2.0
// CHECK-DAG:       %[[ZERO:.+]] = arith.constant 0.0
// CHECK:           %[[INIT:.+]] = linalg.fill {choir.member = #choir.member<0, init>} ins(%[[ZERO]] : f32) outs(%[[OUT]] : tensor<?xf32>)
// CHECK:           %[[SUM:.+]] = linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "reduction"]
// CHECK-SAME:        ins(%[[X]] : tensor<?x?xf32>) outs(%[[INIT]] : tensor<?xf32>)
// CHECK-SAME:        choir.member = #choir.member<0>
// CHECK:             arith.mulf %{{.+}}, %[[TWO]]
// CHECK-NEXT:        arith.addf
// CHECK:           choir.yield %[[SUM]] : tensor<?xf32>
// CHECK-NEXT:    } -> tensor<?xf32>
// CHECK-NEXT:    bufferization.materialize_in_destination %[[D]] in %arg1
// CHECK-NOT:     linalg.generic

// x * 1 folds away: no dispatch is left here, only the copy of the input
// into the output, which the memory stage makes a planned linalg.copy.
// CHECK-LABEL: module @scale
// CHECK-NOT:     choir.dispatch
// CHECK-NOT:     linalg
// CHECK:         bufferization.materialize_in_destination %arg0 in %arg1
