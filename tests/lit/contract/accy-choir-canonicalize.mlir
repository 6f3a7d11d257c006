// RUN: accy-opt %s --split-input-file --accy-choir-canonicalize | FileCheck %s

// x + 0 and x * 1 of one type fold to x; 0 + x too (add is commutative).
// CHECK-LABEL: func.func @identity_operands
// CHECK-SAME: (%[[X:.*]]: tensor<?x4xf32>
// CHECK-NOT: choir.add
// CHECK-NOT: choir.mul
// CHECK-NOT: choir.sub
// CHECK-NOT: choir.div
// CHECK: return %[[X]]
func.func @identity_operands(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %zero = choir.constant dense<0.0> : tensor<f32>
  %one = choir.constant dense<1.0> : tensor<f32>
  %a = choir.add %x, %zero : tensor<?x4xf32>, tensor<f32> -> tensor<?x4xf32>
  %b = choir.mul %one, %a : tensor<f32>, tensor<?x4xf32> -> tensor<?x4xf32>
  %c = choir.sub %b, %zero : tensor<?x4xf32>, tensor<f32> -> tensor<?x4xf32>
  %d = choir.div %c, %one : tensor<?x4xf32>, tensor<f32> -> tensor<?x4xf32>
  return %d : tensor<?x4xf32>
}

// -----

// When the identity constant is the larger operand, x + 0 is a broadcast.
// CHECK-LABEL: func.func @identity_widens
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK: %[[B:.*]] = choir.broadcast %[[X]] : tensor<4xf32> -> tensor<3x4xf32>
// CHECK-NOT: choir.add
// CHECK: return %[[B]]
func.func @identity_widens(%x: tensor<4xf32>) -> tensor<3x4xf32> {
  %zero = choir.constant dense<0.0> : tensor<3x4xf32>
  %a = choir.add %x, %zero : tensor<4xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
  return %a : tensor<3x4xf32>
}

// -----

// x * 0 is not x: it stays (NaN * 0 is NaN).
// CHECK-LABEL: func.func @not_identity
// CHECK: choir.mul
// CHECK: choir.sub
func.func @not_identity(%x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = choir.constant dense<0.0> : tensor<f32>
  %a = choir.mul %x, %zero : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  %b = choir.sub %zero, %a : tensor<f32>, tensor<4xf32> -> tensor<4xf32>
  return %b : tensor<4xf32>
}

// -----

// Double negation.
// CHECK-LABEL: func.func @double_neg
// CHECK-SAME: (%[[X:.*]]: tensor<8xf32>)
// CHECK-NOT: choir.neg
// CHECK: return %[[X]]
func.func @double_neg(%x: tensor<8xf32>) -> tensor<8xf32> {
  %a = choir.neg %x : tensor<8xf32>
  %b = choir.neg %a : tensor<8xf32>
  return %b : tensor<8xf32>
}

// -----

// Identity transpose, reshape, broadcast and cast.
// CHECK-LABEL: func.func @identity_shape_ops
// CHECK-SAME: (%[[X:.*]]: tensor<?x4xf32>, %[[Y:.*]]: tensor<?x?xf32>
// CHECK-NOT: choir.transpose
// CHECK-NOT: choir.reshape
// CHECK-NOT: choir.broadcast
// CHECK-NOT: choir.cast
// CHECK: return %[[X]], %[[Y]]
func.func @identity_shape_ops(%x: tensor<?x4xf32>, %y: tensor<?x?xf32>) -> (tensor<?x4xf32>, tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = choir.transpose %x {perm = array<i64: 0, 1>} : tensor<?x4xf32> -> tensor<?x4xf32>
  %n = tensor.dim %t, %c0 : tensor<?x4xf32>
  %r = choir.reshape %t sizes(%n) : tensor<?x4xf32> -> tensor<?x4xf32>
  %b = choir.broadcast %r sizes(%n) : tensor<?x4xf32> -> tensor<?x4xf32>
  %c = choir.cast %b : tensor<?x4xf32> -> tensor<?x4xf32>
  %d0 = tensor.dim %y, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %y, %c1 : tensor<?x?xf32>
  %ry = choir.reshape %y sizes(%d0, %d1) : tensor<?x?xf32> -> tensor<?x?xf32>
  return %c, %ry : tensor<?x4xf32>, tensor<?x?xf32>
}

// -----

// A reshape of [?, ?] to [?, ?] with other sizes is a real reshape.
// CHECK-LABEL: func.func @real_reshape
// CHECK: choir.reshape
func.func @real_reshape(%y: tensor<?x?xf32>, %a: index, %b: index) -> tensor<?x?xf32> {
  %r = choir.reshape %y sizes(%a, %b) : tensor<?x?xf32> -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// A broadcast of a size-1 dimension is real; one that only refines a type
// is a tensor.cast.
// CHECK-LABEL: func.func @broadcasts
// CHECK: choir.broadcast %{{.*}} : tensor<1x4xf32> -> tensor<3x4xf32>
// CHECK: tensor.cast %{{.*}} : tensor<?x4xf32> to tensor<3x4xf32>
func.func @broadcasts(%x: tensor<1x4xf32>, %y: tensor<?x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  %a = choir.broadcast %x : tensor<1x4xf32> -> tensor<3x4xf32>
  %b = choir.broadcast %y : tensor<?x4xf32> -> tensor<3x4xf32>
  return %a, %b : tensor<3x4xf32>, tensor<3x4xf32>
}

// -----

// select on a constant condition is the chosen branch.
// CHECK-LABEL: func.func @constant_select
// CHECK-SAME: (%[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK-NOT: choir.select
// CHECK: return %[[B]]
func.func @constant_select(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %false = choir.constant dense<false> : tensor<i1>
  %s = choir.select %false, %a, %b : tensor<i1>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// CSE merges equal ops; locations of the kept op stay.
// CHECK-LABEL: func.func @cse
// CHECK: %[[E:.*]] = choir.exp
// CHECK-NOT: choir.exp
// CHECK: choir.add %[[E]], %[[E]]
func.func @cse(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = choir.exp %x : tensor<4xf32>
  %b = choir.exp %x : tensor<4xf32>
  %c = choir.add %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// Symbolic sizes: tensor.dim of a tensor.cast folds to the source.
// CHECK-LABEL: func.func @dims
// CHECK: tensor.dim %arg0
func.func @dims(%x: tensor<?x4xf32>) -> index {
  %c0 = arith.constant 0 : index
  %c = tensor.cast %x : tensor<?x4xf32> to tensor<?x?xf32>
  %d = tensor.dim %c, %c0 : tensor<?x?xf32>
  return %d : index
}
