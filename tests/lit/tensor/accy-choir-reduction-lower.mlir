// RUN: accy-opt %s --split-input-file --accy-choir-reduction-lower | FileCheck %s

// sum over the last axis: a reduction generic into a zero fill.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @sum
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<?xf32>)
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<?x8xf32>) outs(%[[F]] : tensor<?xf32>)
// CHECK: ^bb0(%[[X:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK: %[[S:.*]] = arith.addf %[[ACC]], %[[X]] : f32
// CHECK: linalg.yield %[[S]]
// CHECK: return %[[R]]
func.func @sum(%x: tensor<?x8xf32>) -> tensor<?xf32> {
  %r = choir.reduce sum %x {axes = array<i64: 1>, keepdims = false} : tensor<?x8xf32> -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// keepdims: the unit dimension comes back with expand_shape.
// CHECK-LABEL: func.func @max_keepdims
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: %[[R:.*]] = linalg.generic
// CHECK: arith.maximumf
// CHECK: %[[K:.*]] = tensor.expand_shape %[[R]] {{\[}}[0, 1]] output_shape [%{{.*}}, 1] : tensor<?xf32> into tensor<?x1xf32>
// CHECK: return %[[K]]
func.func @max_keepdims(%x: tensor<?x?xf32>) -> tensor<?x1xf32> {
  %r = choir.reduce max %x {axes = array<i64: 1>, keepdims = true} : tensor<?x?xf32> -> tensor<?x1xf32>
  return %r : tensor<?x1xf32>
}

// -----

// mean over several axes divides by the product of their sizes.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @mean
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["reduction", "parallel", "reduction"]}
// CHECK: %[[A:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[B:.*]] = tensor.dim %arg0, %c2
// The count is built inside the body from the sizes (each one an argument
// dimension, which a kernel launch can capture).
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<3xf32>)
// CHECK: ^bb0(%[[S:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[AI:.*]] = arith.index_cast %[[A]] : index to i64
// CHECK: %[[AF:.*]] = arith.sitofp %[[AI]] : i64 to f32
// CHECK: %[[BI:.*]] = arith.index_cast %[[B]] : index to i64
// CHECK: %[[BF:.*]] = arith.sitofp %[[BI]] : i64 to f32
// CHECK: %[[COUNT:.*]] = arith.mulf %[[AF]], %[[BF]] : f32
// CHECK: arith.divf %[[S]], %[[COUNT]]
func.func @mean(%x: tensor<?x3x?xf32>) -> tensor<3xf32> {
  %r = choir.reduce mean %x {axes = array<i64: 0, 2>, keepdims = false} : tensor<?x3x?xf32> -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

// All axes, with keepdims: rank 0, then [1, 1].
// CHECK-LABEL: func.func @min_all
// CHECK: arith.constant 0x7F800000 : f32
// CHECK: %[[R:.*]] = linalg.generic {{.*}}iterator_types = ["reduction", "reduction"]{{.*}} outs(%{{.*}} : tensor<f32>)
// CHECK: arith.minimumf
// CHECK: tensor.expand_shape %[[R]] [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
func.func @min_all(%x: tensor<4x4xf32>) -> tensor<1x1xf32> {
  %r = choir.reduce min %x {axes = array<i64: 0, 1>, keepdims = true} : tensor<4x4xf32> -> tensor<1x1xf32>
  return %r : tensor<1x1xf32>
}

// -----

// f16 and bf16 sums accumulate in f32; integer sums use addi.
// CHECK-LABEL: func.func @types
// CHECK: ^bb0(%[[X:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK: %[[W:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK: arith.addf %[[ACC]], %[[W]] : f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: ^bb0(%{{.*}}: bf16, %{{.*}}: f32):
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: arith.constant -2147483648 : i32
// CHECK: arith.maxsi
// CHECK: arith.addi
func.func @types(%h: tensor<8xf16>, %b: tensor<8xbf16>, %i: tensor<8xi32>) -> (tensor<f16>, tensor<bf16>, tensor<i32>, tensor<i32>) {
  %a = choir.reduce sum %h {axes = array<i64: 0>, keepdims = false} : tensor<8xf16> -> tensor<f16>
  %m = choir.reduce mean %b {axes = array<i64: 0>, keepdims = false} : tensor<8xbf16> -> tensor<bf16>
  %x = choir.reduce max %i {axes = array<i64: 0>, keepdims = false} : tensor<8xi32> -> tensor<i32>
  %s = choir.reduce sum %i {axes = array<i64: 0>, keepdims = false} : tensor<8xi32> -> tensor<i32>
  return %a, %m, %x, %s : tensor<f16>, tensor<bf16>, tensor<i32>, tensor<i32>
}
