// RUN: accy-opt %s --split-input-file --accy-choir-elementwise-lower | FileCheck %s

// An add of operands of its own type: one parallel linalg.generic; the
// dynamic size comes from tensor.dim of an operand.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @add
// CHECK-SAME: (%[[X:.*]]: tensor<?x8xf32>, %[[Y:.*]]: tensor<?x8xf32>)
// CHECK: %[[N:.*]] = tensor.dim %[[X]], %c0
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x8xf32>
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[Y]] : tensor<?x8xf32>, tensor<?x8xf32>) outs(%[[E]] : tensor<?x8xf32>)
// CHECK: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK: linalg.yield %[[S]] : f32
// CHECK: return %[[R]]
func.func @add(%x: tensor<?x8xf32>, %y: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %r = choir.add %x, %y : tensor<?x8xf32>, tensor<?x8xf32> -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}

// -----

// An implicit broadcast left in the input is read through the indexing
// maps: the size-1 dimension is collapsed away first.
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @broadcasting
// CHECK: %[[C:.*]] = tensor.collapse_shape %arg0 {{\[}}[0, 1]] : tensor<?x1xf32> into tensor<?xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ROW]], #[[COL]], #[[ID]]], {{.*}} ins(%[[C]], %arg1 : tensor<?xf32>, tensor<8xf32>)
// CHECK: arith.subf
func.func @broadcasting(%x: tensor<?x1xf32>, %y: tensor<8xf32>) -> tensor<?x8xf32> {
  %r = choir.sub %x, %y : tensor<?x1xf32>, tensor<8xf32> -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}

// -----

// mul and div on floats and integers; integer division never traps: the
// divisor given to divsi is never 0 or -1 (x / 0 is 0, x / -1 is -x).
// CHECK-LABEL: func.func @mul_div
// CHECK: arith.mulf
// CHECK: arith.divf
// CHECK: arith.muli
// CHECK: ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32, %{{.*}}: i32):
// CHECK: %[[Z:.*]] = arith.cmpi eq, %[[B]], %c0_i32
// CHECK: %[[M:.*]] = arith.cmpi eq, %[[B]], %c-1_i32
// CHECK: %[[S:.*]] = arith.ori %[[Z]], %[[M]]
// CHECK: %[[D:.*]] = arith.select %[[S]], %c1_i32, %[[B]]
// CHECK: %[[Q:.*]] = arith.divsi %[[A]], %[[D]]
// CHECK: %[[N:.*]] = arith.subi %c0_i32, %[[A]]
// CHECK: %[[Q2:.*]] = arith.select %[[M]], %[[N]], %[[Q]]
// CHECK: arith.select %[[Z]], %c0_i32, %[[Q2]]
func.func @mul_div(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %a = choir.mul %x, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %b = choir.div %a, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %c = choir.mul %i, %i : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %d = choir.div %c, %i : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  return %b, %d : tensor<4xf32>, tensor<4xi32>
}

// -----

// Comparisons: ordered float predicates (unordered for !=), signed integer
// ones; an i1 result.
// CHECK-LABEL: func.func @compare
// CHECK: arith.cmpf olt
// CHECK: -> tensor<4xi1>
// CHECK: arith.cmpf une
// CHECK: arith.cmpi sge
func.func @compare(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %a = choir.cmp lt, %x, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
  %b = choir.cmp ne, %x, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
  %c = choir.cmp ge, %i, %i : tensor<4xi32>, tensor<4xi32> -> tensor<4xi1>
  return %a, %b, %c : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

// CHECK-LABEL: func.func @select
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg1, %arg2 : tensor<4xi1>, tensor<4xf32>, tensor<4xf32>)
// CHECK: ^bb0(%[[C:.*]]: i1, %[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK: arith.select %[[C]], %[[A]], %[[B]] : f32
func.func @select(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = choir.select %c, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Casts between float widths, floats and integers, and to bool.
// CHECK-LABEL: func.func @casts
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.fptosi %{{.*}} : f32 to i32
// CHECK: arith.sitofp %{{.*}} : i32 to f32
// CHECK: arith.uitofp %{{.*}} : i1 to f32
// CHECK: arith.cmpf une
func.func @casts(%h: tensor<4xf16>, %b: tensor<4xi1>) -> (tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi1>) {
  %f = choir.cast %h : tensor<4xf16> -> tensor<4xf32>
  %i = choir.cast %f : tensor<4xf32> -> tensor<4xi32>
  %g = choir.cast %i : tensor<4xi32> -> tensor<4xf32>
  %u = choir.cast %b : tensor<4xi1> -> tensor<4xf32>
  %z = choir.cast %g : tensor<4xf32> -> tensor<4xi1>
  return %f, %i, %g, %u, %z : tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi1>
}

// -----

// f16 and bf16 have the same width: a cast between them goes through f32
// (arith.truncf bf16 -> f16 does not verify).
// CHECK-LABEL: func.func @half_casts
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.truncf %{{.*}} : f32 to bf16
func.func @half_casts(%b: tensor<4xbf16>, %h: tensor<4xf16>) -> (tensor<4xf16>, tensor<4xbf16>) {
  %0 = choir.cast %b : tensor<4xbf16> -> tensor<4xf16>
  %1 = choir.cast %h : tensor<4xf16> -> tensor<4xbf16>
  return %0, %1 : tensor<4xf16>, tensor<4xbf16>
}

// -----

// A splat constant and full are fills of an empty tensor; other constants
// are arith.constant.
// CHECK-LABEL: func.func @constants
// CHECK: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK: %[[S:.*]] = linalg.fill ins(%[[TWO]] : f32) outs(%[[E]] : tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: %[[DENSE:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[F0:.*]] = tensor.empty(%arg0) : tensor<?x3xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[F0]] : tensor<?x3xf32>) -> tensor<?x3xf32>
// CHECK: return %[[S]], %[[DENSE]], %[[F]]
func.func @constants(%n: index) -> (tensor<4x4xf32>, tensor<2xf32>, tensor<?x3xf32>) {
  %s = choir.constant dense<2.0> : tensor<4x4xf32>
  %d = choir.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %f = choir.full 0.0 : f32 sizes(%n) : tensor<?x3xf32>
  return %s, %d, %f : tensor<4x4xf32>, tensor<2xf32>, tensor<?x3xf32>
}

// -----

// iota: a generic over linalg.index.
// CHECK-LABEL: func.func @iota
// CHECK: %[[E:.*]] = tensor.empty(%arg0) : tensor<?xi32>
// CHECK: linalg.generic {{.*}} outs(%[[E]] : tensor<?xi32>)
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: %[[V:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK: linalg.yield %[[V]] : i32
func.func @iota(%n: index) -> tensor<?xi32> {
  %i = choir.iota %n : tensor<?xi32>
  return %i : tensor<?xi32>
}
