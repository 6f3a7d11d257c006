// RUN: accy-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(builtin.module(accy-choir-build-dispatch-regions))' | FileCheck %s

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#plan = #choir.plan<row_reduction, combiner = "addf", targets = {sm_90 = #choir.launch<block = [256, 1, 1], tile = [1], subgroup = 32, workgroup_memory = 64>}>
#map_plan = #choir.plan<elementwise, targets = {sm_90 = #choir.launch<block = [256, 1, 1], tile = [256], subgroup = 32, workgroup_memory = 0>}>

// A row sum with an epilogue dividing by the row length, and a second
// dispatch that reads the sums. The epilogue's output and the scalar its
// body reads (%len) are computed after the root: they move before it. Both
// the root's sums (read by dispatch 1) and the epilogue's means (returned)
// leave dispatch 0, each written into its own destination; the constant is
// cloned into the region, %len becomes an operand.
module {
  module @mean attributes {accy.kernel = "mean"} {
    func.func @mean(%x: tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?xf32>) attributes {accy.entry} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      %n = tensor.dim %x, %c0 : tensor<?x?xf32>
      %e0 = tensor.empty(%n) : tensor<?xf32>
      %f = linalg.fill {choir.member = #choir.member<0, init>} ins(%zero : f32) outs(%e0 : tensor<?xf32>) -> tensor<?xf32>
      %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"], choir.member = #choir.member<0>, choir.plan = #plan} ins(%x : tensor<?x?xf32>) outs(%f : tensor<?xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %s = arith.addf %a, %acc : f32
        linalg.yield %s : f32
      } -> tensor<?xf32>
      %d = tensor.dim %x, %c1 : tensor<?x?xf32>
      %di = arith.index_cast %d : index to i64
      %len = arith.sitofp %di : i64 to f32
      %e1 = tensor.empty(%n) : tensor<?xf32>
      %mean = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"], choir.member = #choir.member<0, epilogue>} ins(%sum : tensor<?xf32>) outs(%e1 : tensor<?xf32>) {
      ^bb0(%s: f32, %o: f32):
        %q = arith.divf %s, %len : f32
        linalg.yield %q : f32
      } -> tensor<?xf32>
      %e2 = tensor.empty(%n) : tensor<?xf32>
      %neg = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"], choir.member = #choir.member<1>, choir.plan = #map_plan} ins(%sum : tensor<?xf32>) outs(%e2 : tensor<?xf32>) {
      ^bb0(%s: f32, %o: f32):
        %m = arith.negf %s : f32
        linalg.yield %m : f32
      } -> tensor<?xf32>
      return %mean, %neg : tensor<?xf32>, tensor<?xf32>
    }
  }
}

// CHECK-LABEL: func.func @mean
// CHECK-SAME:    (%[[X:.+]]: tensor<?x?xf32>)
// CHECK:         %[[E0:.+]] = tensor.empty
// CHECK:         %[[LEN:.+]] = arith.sitofp
// CHECK:         %[[E1:.+]] = tensor.empty
// CHECK:         %[[D0:.+]]:2 = choir.dispatch ins(%[[X]], %[[LEN]] : tensor<?x?xf32>, f32) outs(%[[E0]], %[[E1]] : tensor<?xf32>, tensor<?xf32>)
// CHECK-SAME:      plan <row_reduction, combiner = "addf"
// CHECK-NEXT:    ^bb0(%[[X_A:.+]]: tensor<?x?xf32>, %[[LEN_A:.+]]: f32, %[[E0_A:.+]]: tensor<?xf32>, %[[E1_A:.+]]: tensor<?xf32>):
// CHECK-NEXT:      %[[ZERO:.+]] = arith.constant 0.0
// CHECK-NEXT:      %[[F:.+]] = linalg.fill {choir.member = #choir.member<0, init>} ins(%[[ZERO]] : f32) outs(%[[E0_A]] : tensor<?xf32>)
// CHECK-NEXT:      %[[SUM:.+]] = linalg.generic
// CHECK-SAME:        ins(%[[X_A]] : tensor<?x?xf32>) outs(%[[F]] : tensor<?xf32>)
// CHECK-SAME:        {choir.member = #choir.member<0>}
// CHECK-NOT:         choir.plan
// CHECK:           %[[MEAN:.+]] = linalg.generic
// CHECK-SAME:        ins(%[[SUM]] : tensor<?xf32>) outs(%[[E1_A]] : tensor<?xf32>)
// CHECK:             arith.divf %{{.+}}, %[[LEN_A]]
// CHECK:           choir.yield %[[SUM]], %[[MEAN]] : tensor<?xf32>, tensor<?xf32>
// CHECK:         %[[E2:.+]] = tensor.empty
// CHECK:         %[[D1:.+]] = choir.dispatch ins(%[[D0]]#0 : tensor<?xf32>) outs(%[[E2]] : tensor<?xf32>)
// CHECK-SAME:      plan <elementwise
// CHECK:           arith.negf
// CHECK:         return %[[D0]]#1, %[[D1]]

// -----

module {
  module @unplanned attributes {accy.kernel = "unplanned"} {
    func.func @unplanned(%x: tensor<4xf32>) -> tensor<4xf32> attributes {accy.entry} {
      %e = tensor.empty() : tensor<4xf32>
      // expected-error @+1 {{dispatch 0 has no planned root (run accy-choir-plan-schedule first)}}
      %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"], choir.member = #choir.member<0>} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
      ^bb0(%a: f32, %o: f32):
        linalg.yield %a : f32
      } -> tensor<4xf32>
      return %y : tensor<4xf32>
    }
  }
}
