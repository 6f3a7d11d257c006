// RUN: accy-opt %s --split-input-file --accy-choir-shape-layout-propagate | FileCheck %s
// RUN: accy-opt %s --split-input-file --accy-choir-shape-layout-propagate --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s --check-prefix=LOC

// A bias add broadcasts explicitly; the batch size comes from tensor.dim of
// the argument that binds "B", once, at the entry.
// CHECK-LABEL: func.func @mlp_bias
// CHECK-SAME: (%[[X:.*]]: tensor<?x256xf32> {{.*}}, %[[B:.*]]: tensor<256xf32>
// CHECK-SAME: choir.layout = "row-major"
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[N:.*]] = tensor.dim %[[X]], %[[C0]]
// CHECK: %[[BB:.*]] = choir.broadcast %[[B]] sizes(%[[N]]) : tensor<256xf32> -> tensor<?x256xf32>
// CHECK: choir.add %[[X]], %[[BB]] : tensor<?x256xf32>, tensor<?x256xf32> -> tensor<?x256xf32>
func.func @mlp_bias(%x: tensor<?x256xf32> {choir.dims = ["B", 256]}, %b: tensor<256xf32> {choir.dims = [256]})
    -> (tensor<?x256xf32> {choir.dims = ["B", 256]}) attributes {choir.kernel} {
  %r = choir.add %x, %b : tensor<?x256xf32>, tensor<256xf32> -> tensor<?x256xf32>
  return %r : tensor<?x256xf32>
}

// -----

// keepdims statistics broadcast along the row; a rank-0 scalar broadcasts
// to the whole shape; locations stay on the ops that need the broadcasts.
// CHECK-LABEL: func.func @softmax_rows
// CHECK-SAME: (%[[X:.*]]: tensor<?x?xf32>
// CHECK-DAG: %[[D:.*]] = tensor.dim %[[X]], %c1
// CHECK-DAG: %[[N:.*]] = tensor.dim %[[X]], %c0
// CHECK: %[[M:.*]] = choir.reduce  max %[[X]]
// CHECK: %[[MB:.*]] = choir.broadcast %[[M]] sizes(%[[N]], %[[D]]) : tensor<?x1xf32> -> tensor<?x?xf32>
// CHECK: %[[S:.*]] = choir.sub %[[X]], %[[MB]] : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
// CHECK: %[[TWO:.*]] = choir.broadcast %{{.*}} sizes(%[[N]], %[[D]]) : tensor<f32> -> tensor<?x?xf32>
// CHECK: choir.mul %[[S]], %[[TWO]] : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
// LOC-LABEL: func.func @softmax_rows
// LOC: choir.broadcast {{.*}} loc("softmax#5")
// LOC: choir.sub {{.*}} loc("softmax#5")
// LOC: choir.broadcast {{.*}} loc("softmax#7")
// LOC: choir.mul {{.*}} loc("softmax#7")
func.func @softmax_rows(%x: tensor<?x?xf32> {choir.dims = ["N", "D"]}) -> (tensor<?x?xf32> {choir.dims = ["N", "D"]}) attributes {choir.kernel} {
  %m = choir.reduce max %x {axes = array<i64: 1>, keepdims = true} : tensor<?x?xf32> -> tensor<?x1xf32> loc("softmax#3")
  %d = choir.sub %x, %m : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32> loc("softmax#5")
  %two = choir.constant dense<2.0> : tensor<f32> loc("softmax#6")
  %r = choir.mul %d, %two : tensor<?x?xf32>, tensor<f32> -> tensor<?x?xf32> loc("softmax#7")
  return %r : tensor<?x?xf32>
}

// -----

// One symbol in two arguments: the operands already agree, nothing to
// broadcast. A comparison and a select broadcast each operand to the result.
// CHECK-LABEL: func.func @shared_symbol
// CHECK-SAME: (%[[X:.*]]: tensor<?xf32> {{.*}}, %[[Y:.*]]: tensor<?xf32>
// CHECK-NOT: choir.broadcast %[[X]]
// CHECK-NOT: choir.broadcast %[[Y]]
// CHECK: %[[A:.*]] = choir.add %[[X]], %[[Y]] : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
// CHECK: %[[ZERO:.*]] = choir.broadcast %{{.*}} sizes(%{{.*}}) : tensor<f32> -> tensor<?xf32>
// CHECK: %[[C:.*]] = choir.cmp  gt, %[[A]], %[[ZERO]] : tensor<?xf32>, tensor<?xf32> -> tensor<?xi1>
// CHECK: choir.select %[[C]], %[[A]], %[[ZERO]] : tensor<?xi1>, tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
func.func @shared_symbol(%x: tensor<?xf32> {choir.dims = ["N"]}, %y: tensor<?xf32> {choir.dims = ["N"]}) -> (tensor<?xf32> {choir.dims = ["N"]}) attributes {choir.kernel} {
  %a = choir.add %x, %y : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
  %zero = choir.constant dense<0.0> : tensor<f32>
  %c = choir.cmp gt, %a, %zero : tensor<?xf32>, tensor<f32> -> tensor<?xi1>
  %r = choir.select %c, %a, %zero : tensor<?xi1>, tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// A dynamic size unified with a static one tightens the result types; the
// declared result type is kept with a tensor.cast for the return.
// CHECK-LABEL: func.func @tighten
// CHECK-SAME: (%[[X:.*]]: tensor<?x4xf32>, %[[Y:.*]]: tensor<3x4xf32>)
// CHECK: %[[XC:.*]] = tensor.cast %[[X]] : tensor<?x4xf32> to tensor<3x4xf32>
// CHECK: %[[A:.*]] = choir.add %[[XC]], %[[Y]] : tensor<3x4xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
// CHECK: %[[E:.*]] = choir.exp %[[A]] : tensor<3x4xf32>
// CHECK: %[[BACK:.*]] = tensor.cast %[[E]] : tensor<3x4xf32> to tensor<?x4xf32>
// CHECK: return %[[BACK]]
func.func @tighten(%x: tensor<?x4xf32>, %y: tensor<3x4xf32>) -> tensor<?x4xf32> {
  %a = choir.add %x, %y : tensor<?x4xf32>, tensor<3x4xf32> -> tensor<?x4xf32>
  %e = choir.exp %a : tensor<?x4xf32>
  return %e : tensor<?x4xf32>
}

// -----

// A size operand that is a constant makes the result static (and the
// operand goes).
// CHECK-LABEL: func.func @tighten_sized
// CHECK: choir.full 1.000000e+00 : f32 : tensor<4x8xf32>
// CHECK: choir.reshape %{{.*}} : tensor<4x8xf32> -> tensor<32xf32>
func.func @tighten_sized() -> tensor<?xf32> {
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %f = choir.full 1.0 : f32 sizes(%c4) : tensor<?x8xf32>
  %r = choir.reshape %f sizes(%c32) : tensor<?x8xf32> -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// A transpose read by an einsum is a layout change folded into the spec,
// not a copy.
// CHECK-LABEL: func.func @transpose_into_einsum
// CHECK-SAME: (%[[X:.*]]: tensor<?x64xf32> {{.*}}, %[[W:.*]]: tensor<32x64xf32>
// CHECK-NOT: choir.transpose
// CHECK: choir.einsum "bi,ji->bj" %[[X]], %[[W]] : (tensor<?x64xf32>, tensor<32x64xf32>) -> tensor<?x32xf32>
func.func @transpose_into_einsum(%x: tensor<?x64xf32> {choir.dims = ["B", 64]}, %w: tensor<32x64xf32> {choir.dims = [32, 64]})
    -> (tensor<?x32xf32> {choir.dims = ["B", 32]}) attributes {choir.kernel} {
  %t = choir.transpose %w {perm = array<i64: 1, 0>} : tensor<32x64xf32> -> tensor<64x32xf32>
  %r = choir.einsum "bi,ij->bj" %x, %t : (tensor<?x64xf32>, tensor<64x32xf32>) -> tensor<?x32xf32>
  return %r : tensor<?x32xf32>
}

// -----

// With an ellipsis the spec is rewritten in letters; a transpose with
// another user stays for that user.
// CHECK-LABEL: func.func @transpose_batched
// CHECK: %[[T:.*]] = choir.transpose
// CHECK: choir.einsum "aij,ajk->aik" %arg0, %arg1 : (tensor<2x3x4xf32>, tensor<2x4x5xf32>)
// CHECK: choir.exp %[[T]]
func.func @transpose_batched(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> (tensor<2x3x5xf32>, tensor<2x5x4xf32>) {
  %t = choir.transpose %b {perm = array<i64: 0, 2, 1>} : tensor<2x4x5xf32> -> tensor<2x5x4xf32>
  %r = choir.einsum "...ij,...kj->...ik" %a, %t : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5xf32>
  %e = choir.exp %t : tensor<2x5x4xf32>
  return %r, %e : tensor<2x3x5xf32>, tensor<2x5x4xf32>
}

// -----

// Broadcasting inside kernel modules: the pass walks nested modules.
// CHECK-LABEL: module @k
// CHECK: choir.broadcast
module @k attributes {accy.kernel = "k"} {
  func.func @k(%x: tensor<?x3xf32> {choir.dims = ["N", 3]}, %y: tensor<?x1xf32> {choir.dims = ["N", 1]}) -> (tensor<?x3xf32> {choir.dims = ["N", 3]}) attributes {choir.kernel} {
    %r = choir.div %x, %y : tensor<?x3xf32>, tensor<?x1xf32> -> tensor<?x3xf32>
    return %r : tensor<?x3xf32>
  }
}
