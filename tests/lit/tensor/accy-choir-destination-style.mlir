// RUN: accy-opt %s --split-input-file --accy-choir-destination-style | FileCheck %s

// One out argument per result, after the inputs, carrying the result's
// dims; each returned value is materialized into its out argument.
// CHECK-LABEL: func.func @two_results
// CHECK-SAME: (%[[X:.*]]: tensor<?x?xf32> {choir.dims = ["N", "D"]},
// CHECK-SAME: %[[O0:.*]]: tensor<?x?xf32> {accy.result = 0 : i64, choir.dims = ["N", "D"]},
// CHECK-SAME: %[[O1:.*]]: tensor<f32> {accy.result = 1 : i64, choir.dims = []})
// CHECK-SAME: -> (tensor<?x?xf32>, tensor<f32>) attributes {accy.entry} {
// CHECK: %[[S:.*]] = linalg.fill
// CHECK: %[[R0:.*]] = bufferization.materialize_in_destination %[[X]] in %[[O0]] : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK: %[[R1:.*]] = bufferization.materialize_in_destination %[[S]] in %[[O1]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK: return %[[R0]], %[[R1]] : tensor<?x?xf32>, tensor<f32>
func.func @two_results(%x: tensor<?x?xf32> {choir.dims = ["N", "D"]}) -> (tensor<?x?xf32> {choir.dims = ["N", "D"]}, tensor<f32> {choir.dims = []}) attributes {choir.kernel, choir.layout = "row-major"} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %s = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  return %x, %s : tensor<?x?xf32>, tensor<f32>
}

// -----

// Functions that are not kernels keep their signature.
// CHECK-LABEL: func.func @helper(%{{.*}}: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NOT: materialize_in_destination
func.func @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// In a kernel module.
// CHECK-LABEL: module @k attributes {accy.kernel = "k"}
// CHECK: func.func @k(%{{.*}}: tensor<8xf32> {choir.dims = [8]}, %[[O:.*]]: tensor<8xf32> {accy.result = 0 : i64, choir.dims = [8]}) -> tensor<8xf32> attributes {accy.entry}
// CHECK: bufferization.materialize_in_destination %{{.*}} in %[[O]]
module @k attributes {accy.kernel = "k"} {
  func.func @k(%x: tensor<8xf32> {choir.dims = [8]}) -> (tensor<8xf32> {choir.dims = [8]}) attributes {choir.kernel} {
    return %x : tensor<8xf32>
  }
}

// -----

// Initial values merged by CSE are split again: each op gets its own fill
// of its own empty tensor.
// CHECK-LABEL: func.func @shared_inits
// CHECK: %[[E0:.*]] = tensor.empty() : tensor<f32>
// CHECK: %[[F0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E0]] : tensor<f32>)
// CHECK: linalg.generic {{.*}} outs(%[[F0]] : tensor<f32>)
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<f32>
// CHECK: %[[F1:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E1]] : tensor<f32>)
// CHECK: linalg.generic {{.*}} outs(%[[F1]] : tensor<f32>)
func.func @shared_inits(%x: tensor<4xf32>) -> (tensor<f32>, tensor<f32>) attributes {choir.kernel} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%x : tensor<4xf32>) outs(%f : tensor<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%x : tensor<4xf32>) outs(%f : tensor<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %acc, %in : f32
    linalg.yield %m : f32
  } -> tensor<f32>
  return %a, %b : tensor<f32>, tensor<f32>
}
