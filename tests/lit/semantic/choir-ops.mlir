// RUN: accy-opt %s | FileCheck %s
// RUN: accy-opt %s | accy-opt | FileCheck %s
// RUN: accy-opt %s --mlir-print-op-generic | accy-opt | FileCheck %s
// RUN: accy-opt %s --emit-bytecode | accy-opt | FileCheck %s

// Every choir op prints back in the form it was parsed from, through text,
// the generic form and bytecode.

// CHECK-LABEL: func.func @elementwise
// CHECK-SAME: (%[[X:.*]]: tensor<?x4xf32>, %[[Y:.*]]: tensor<4xf32>, %[[C:.*]]: tensor<?x4xi1>)
func.func @elementwise(%x: tensor<?x4xf32>, %y: tensor<4xf32>, %c: tensor<?x4xi1>) {
  // CHECK: %[[K:.*]] = choir.constant dense<2.000000e+00> : tensor<f32>
  %k = choir.constant dense<2.0> : tensor<f32>
  // CHECK: choir.constant dense<[1, 2, 3]> : tensor<3xi32>
  %ki = choir.constant dense<[1, 2, 3]> : tensor<3xi32>
  // CHECK: choir.add %[[X]], %[[Y]] : tensor<?x4xf32>, tensor<4xf32> -> tensor<?x4xf32>
  %0 = choir.add %x, %y : tensor<?x4xf32>, tensor<4xf32> -> tensor<?x4xf32>
  // CHECK: choir.sub %[[X]], %[[K]] : tensor<?x4xf32>, tensor<f32> -> tensor<?x4xf32>
  %1 = choir.sub %x, %k : tensor<?x4xf32>, tensor<f32> -> tensor<?x4xf32>
  // CHECK: choir.mul %[[Y]], %[[X]] : tensor<4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  %2 = choir.mul %y, %x : tensor<4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  // CHECK: choir.div %[[X]], %[[X]] : tensor<?x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  %3 = choir.div %x, %x : tensor<?x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  // CHECK: choir.cmp  le, %[[X]], %[[Y]] : tensor<?x4xf32>, tensor<4xf32> -> tensor<?x4xi1>
  %4 = choir.cmp le, %x, %y : tensor<?x4xf32>, tensor<4xf32> -> tensor<?x4xi1>
  // CHECK: choir.cmp  ne, %[[X]], %[[X]]
  %5 = choir.cmp ne, %x, %x : tensor<?x4xf32>, tensor<?x4xf32> -> tensor<?x4xi1>
  // CHECK: choir.select %[[C]], %[[X]], %[[K]] : tensor<?x4xi1>, tensor<?x4xf32>, tensor<f32> -> tensor<?x4xf32>
  %6 = choir.select %c, %x, %k : tensor<?x4xi1>, tensor<?x4xf32>, tensor<f32> -> tensor<?x4xf32>
  // CHECK: choir.cast %[[X]] : tensor<?x4xf32> -> tensor<?x4xf16>
  %7 = choir.cast %x : tensor<?x4xf32> -> tensor<?x4xf16>
  return
}

// CHECK-LABEL: func.func @activations
func.func @activations(%x: tensor<8xf32>) {
  // CHECK: choir.neg %{{.*}} : tensor<8xf32>
  %0 = choir.neg %x : tensor<8xf32>
  // CHECK: choir.relu
  %1 = choir.relu %x : tensor<8xf32>
  // CHECK: choir.gelu
  %2 = choir.gelu %x : tensor<8xf32>
  // CHECK: choir.sigmoid
  %3 = choir.sigmoid %x : tensor<8xf32>
  // CHECK: choir.tanh
  %4 = choir.tanh %x : tensor<8xf32>
  // CHECK: choir.silu
  %5 = choir.silu %x : tensor<8xf32>
  // CHECK: choir.exp
  %6 = choir.exp %x : tensor<8xf32>
  // CHECK: choir.log
  %7 = choir.log %x : tensor<8xf32>
  // CHECK: choir.sqrt
  %8 = choir.sqrt %x : tensor<8xf32>
  // CHECK: choir.rsqrt
  %9 = choir.rsqrt %x : tensor<8xf32>
  // CHECK: choir.abs
  %10 = choir.abs %x : tensor<8xf32>
  return
}

// CHECK-LABEL: func.func @rows_and_reductions
func.func @rows_and_reductions(%x: tensor<?x8xf32>) {
  // CHECK: choir.softmax %{{.*}} {axis = 1 : i64} : tensor<?x8xf32>
  %0 = choir.softmax %x {axis = 1 : i64} : tensor<?x8xf32>
  // CHECK: choir.log_softmax %{{.*}} {axis = 0 : i64} : tensor<?x8xf32>
  %1 = choir.log_softmax %x {axis = 0 : i64} : tensor<?x8xf32>
  // CHECK: choir.reduce  sum %{{.*}} {axes = array<i64: 1>, keepdims = false} : tensor<?x8xf32> -> tensor<?xf32>
  %2 = choir.reduce sum %x {axes = array<i64: 1>, keepdims = false} : tensor<?x8xf32> -> tensor<?xf32>
  // CHECK: choir.reduce  mean %{{.*}} {axes = array<i64: 0, 1>, keepdims = true} : tensor<?x8xf32> -> tensor<1x1xf32>
  %3 = choir.reduce mean %x {axes = array<i64: 0, 1>, keepdims = true} : tensor<?x8xf32> -> tensor<1x1xf32>
  // CHECK: choir.reduce  max
  %4 = choir.reduce max %x {axes = array<i64: 0>, keepdims = false} : tensor<?x8xf32> -> tensor<8xf32>
  // CHECK: choir.reduce  min
  %5 = choir.reduce min %x {axes = array<i64: 0>, keepdims = false} : tensor<?x8xf32> -> tensor<8xf32>
  // CHECK: choir.scan  cumsum %{{.*}} {axis = 1 : i64} : tensor<?x8xf32>
  %6 = choir.scan cumsum %x {axis = 1 : i64} : tensor<?x8xf32>
  // CHECK: choir.scan  cummax %{{.*}} {axis = 0 : i64} : tensor<?x8xf32>
  %7 = choir.scan cummax %x {axis = 0 : i64} : tensor<?x8xf32>
  return
}

// CHECK-LABEL: func.func @contractions
func.func @contractions(%a: tensor<?x784xf32>, %w: tensor<784x256xf32>, %b: tensor<2x3x4xf32>) {
  // CHECK: choir.einsum "bi,ij->bj" %{{.*}}, %{{.*}} : (tensor<?x784xf32>, tensor<784x256xf32>) -> tensor<?x256xf32>
  %0 = choir.einsum "bi,ij->bj" %a, %w : (tensor<?x784xf32>, tensor<784x256xf32>) -> tensor<?x256xf32>
  // CHECK: choir.einsum "...ij,...jk->...ik"
  %1 = choir.einsum "...ij,...jk->...ik" %a, %w : (tensor<?x784xf32>, tensor<784x256xf32>) -> tensor<?x256xf32>
  // CHECK: choir.einsum "bij->" %{{.*}} : (tensor<2x3x4xf32>) -> tensor<f32>
  %2 = choir.einsum "bij->" %b : (tensor<2x3x4xf32>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @shapes
// CHECK-SAME: (%[[X:.*]]: tensor<?x4xf32>, %[[I:.*]]: tensor<?xi32>, %[[N:.*]]: index)
func.func @shapes(%x: tensor<?x4xf32>, %i: tensor<?xi32>, %n: index) {
  // CHECK: choir.broadcast %[[X]] sizes(%[[N]], %[[N]]) : tensor<?x4xf32> -> tensor<?x?x4xf32>
  %0 = choir.broadcast %x sizes(%n, %n) : tensor<?x4xf32> -> tensor<?x?x4xf32>
  // CHECK: choir.transpose %[[X]] {perm = array<i64: 1, 0>} : tensor<?x4xf32> -> tensor<4x?xf32>
  %1 = choir.transpose %x {perm = array<i64: 1, 0>} : tensor<?x4xf32> -> tensor<4x?xf32>
  // CHECK: choir.reshape %[[X]] sizes(%[[N]]) : tensor<?x4xf32> -> tensor<?x2x2xf32>
  %2 = choir.reshape %x sizes(%n) : tensor<?x4xf32> -> tensor<?x2x2xf32>
  // CHECK: choir.slice %[[X]] [%[[N]], 1] [2, 3] : tensor<?x4xf32> -> tensor<2x3xf32>
  %3 = choir.slice %x [%n, 1] [2, 3] : tensor<?x4xf32> -> tensor<2x3xf32>
  // CHECK: choir.take %[[X]], %[[I]] {axis = 0 : i64} : tensor<?x4xf32>, tensor<?xi32> -> tensor<?x4xf32>
  %4 = choir.take %x, %i {axis = 0 : i64} : tensor<?x4xf32>, tensor<?xi32> -> tensor<?x4xf32>
  // CHECK: choir.concat %[[X]], %[[X]] {axis = 1 : i64} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x8xf32>
  %5 = choir.concat %x, %x {axis = 1 : i64} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x8xf32>
  // CHECK: choir.full 1.500000e+00 : f32 sizes(%[[N]]) : tensor<?x3xf32>
  %6 = choir.full 1.5 : f32 sizes(%n) : tensor<?x3xf32>
  // CHECK: choir.full 7 : i32 : tensor<2xi32>
  %7 = choir.full 7 : i32 : tensor<2xi32>
  // CHECK: choir.iota %[[N]] : tensor<?xi32>
  %8 = choir.iota %n : tensor<?xi32>
  // CHECK: choir.iota : tensor<5xi32>
  %9 = choir.iota : tensor<5xi32>
  return
}

// CHECK-LABEL: func.func @losses
func.func @losses(%p: tensor<?x10xf32>, %t: tensor<10xf32>, %l: tensor<?xi32>) {
  // CHECK: choir.mse %{{.*}}, %{{.*}} : tensor<?x10xf32>, tensor<10xf32> -> tensor<f32>
  %0 = choir.mse %p, %t : tensor<?x10xf32>, tensor<10xf32> -> tensor<f32>
  // CHECK: choir.cross_entropy %{{.*}}, %{{.*}} : tensor<?x10xf32>, tensor<?xi32> -> tensor<f32>
  %1 = choir.cross_entropy %p, %l : tensor<?x10xf32>, tensor<?xi32> -> tensor<f32>
  // CHECK: choir.nll %{{.*}}, %{{.*}} : tensor<?x10xf32>, tensor<?xi32> -> tensor<f32>
  %2 = choir.nll %p, %l : tensor<?x10xf32>, tensor<?xi32> -> tensor<f32>
  return
}
