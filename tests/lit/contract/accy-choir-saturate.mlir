// RUN: accy-opt %s --split-input-file --accy-choir-saturate | FileCheck %s
// RUN: accy-opt %s --split-input-file --accy-choir-saturate=emit-remarks 2>&1 >/dev/null | FileCheck %s --check-prefix=COUNT

// The number of rewrites that fired, per case.
// COUNT: remark: accy-choir-saturate: 2 rewrites fired (0 einsum merges)
// COUNT: remark: accy-choir-saturate: 2 rewrites fired (0 einsum merges)
// COUNT: remark: accy-choir-saturate: 1 rewrites fired (0 einsum merges)
// COUNT: remark: accy-choir-saturate: 2 rewrites fired (0 einsum merges)
// COUNT: remark: accy-choir-saturate: 3 rewrites fired (0 einsum merges)
// COUNT: remark: accy-choir-saturate: 0 rewrites fired (0 einsum merges)
// COUNT: remark: accy-choir-saturate: 1 rewrites fired (1 einsum merges)
// COUNT: remark: accy-choir-saturate: 1 rewrites fired (1 einsum merges)

// Transposes compose; a composition that is the identity disappears.
// CHECK-LABEL: func.func @transpose_chain
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK: %[[T:.*]] = choir.transpose %[[X]] {perm = array<i64: 2, 0, 1>} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
// CHECK-NOT: choir.transpose
// CHECK: return %[[T]], %[[X]]
func.func @transpose_chain(%x: tensor<2x3x4xf32>) -> (tensor<4x2x3xf32>, tensor<2x3x4xf32>) {
  %a = choir.transpose %x {perm = array<i64: 1, 0, 2>} : tensor<2x3x4xf32> -> tensor<3x2x4xf32>
  %b = choir.transpose %a {perm = array<i64: 2, 1, 0>} : tensor<3x2x4xf32> -> tensor<4x2x3xf32>
  %c = choir.transpose %a {perm = array<i64: 1, 0, 2>} : tensor<3x2x4xf32> -> tensor<2x3x4xf32>
  return %b, %c : tensor<4x2x3xf32>, tensor<2x3x4xf32>
}

// -----

// Reshape and broadcast chains collapse to one op.
// CHECK-LABEL: func.func @chains
// CHECK-SAME: (%[[X:.*]]: tensor<2x6xf32>, %[[Y:.*]]: tensor<4xf32>
// CHECK: %[[R:.*]] = choir.reshape %[[X]] : tensor<2x6xf32> -> tensor<12xf32>
// CHECK: %[[B:.*]] = choir.broadcast %[[Y]] sizes(%{{.*}}) : tensor<4xf32> -> tensor<?x3x4xf32>
// CHECK: return %[[R]], %[[B]]
func.func @chains(%x: tensor<2x6xf32>, %y: tensor<4xf32>, %n: index) -> (tensor<12xf32>, tensor<?x3x4xf32>) {
  %a = choir.reshape %x : tensor<2x6xf32> -> tensor<3x4xf32>
  %b = choir.reshape %a : tensor<3x4xf32> -> tensor<12xf32>
  %c = choir.broadcast %y : tensor<4xf32> -> tensor<3x4xf32>
  %d = choir.broadcast %c sizes(%n) : tensor<3x4xf32> -> tensor<?x3x4xf32>
  return %b, %d : tensor<12xf32>, tensor<?x3x4xf32>
}

// -----

// exp(log x) = x.
// CHECK-LABEL: func.func @exp_log
// CHECK-SAME: (%[[X:.*]]: tensor<?xf32>)
// CHECK-NOT: choir.exp
// CHECK: return %[[X]]
func.func @exp_log(%x: tensor<?xf32>) -> tensor<?xf32> {
  %a = choir.log %x : tensor<?xf32>
  %b = choir.exp %a : tensor<?xf32>
  return %b : tensor<?xf32>
}

// -----

// softmax(x + c) = softmax(x) when c does not vary along the axis; not when
// it does.
// CHECK-LABEL: func.func @softmax_shift
// CHECK-SAME: (%[[X:.*]]: tensor<?x8xf32>, %[[C:.*]]: tensor<?x1xf32>, %[[V:.*]]: tensor<8xf32>)
// CHECK: %[[S:.*]] = choir.softmax %[[X]] {axis = 1 : i64}
// CHECK: %[[L:.*]] = choir.log_softmax %[[X]] {axis = 1 : i64}
// CHECK: %[[ADD:.*]] = choir.add %[[X]], %[[V]]
// CHECK: %[[K:.*]] = choir.softmax %[[ADD]] {axis = 1 : i64}
// CHECK: return %[[S]], %[[L]], %[[K]]
func.func @softmax_shift(%x: tensor<?x8xf32>, %c: tensor<?x1xf32>, %v: tensor<8xf32>) -> (tensor<?x8xf32>, tensor<?x8xf32>, tensor<?x8xf32>) {
  %a = choir.add %c, %x : tensor<?x1xf32>, tensor<?x8xf32> -> tensor<?x8xf32>
  %s = choir.softmax %a {axis = 1 : i64} : tensor<?x8xf32>
  %b = choir.sub %x, %c : tensor<?x8xf32>, tensor<?x1xf32> -> tensor<?x8xf32>
  %l = choir.log_softmax %b {axis = 1 : i64} : tensor<?x8xf32>
  %d = choir.add %x, %v : tensor<?x8xf32>, tensor<8xf32> -> tensor<?x8xf32>
  %k = choir.softmax %d {axis = 1 : i64} : tensor<?x8xf32>
  return %s, %l, %k : tensor<?x8xf32>, tensor<?x8xf32>, tensor<?x8xf32>
}

// -----

// A sum of a broadcast over the broadcast axes is a scale; mean/max of it is
// the input (even with a dynamic number of copies, which a sum keeps).
// CHECK-LABEL: func.func @reduce_of_broadcast
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[N:.*]]: index)
// CHECK: %[[SCALE:.*]] = choir.constant dense<3.000000e+00> : tensor<f32>
// CHECK: %[[SUM:.*]] = choir.mul %[[X]], %[[SCALE]] : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
// CHECK: %[[R:.*]] = choir.reshape %[[X]] : tensor<4xf32> -> tensor<1x4xf32>
// CHECK: %[[D:.*]] = choir.broadcast %[[X]] sizes(%[[N]])
// CHECK: %[[DYN:.*]] = choir.reduce  sum %[[D]]
// CHECK: return %[[SUM]], %[[R]], %[[DYN]], %[[X]]
func.func @reduce_of_broadcast(%x: tensor<4xf32>, %n: index) -> (tensor<4xf32>, tensor<1x4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %b = choir.broadcast %x : tensor<4xf32> -> tensor<3x4xf32>
  %s = choir.reduce sum %b {axes = array<i64: 0>, keepdims = false} : tensor<3x4xf32> -> tensor<4xf32>
  %m = choir.reduce max %b {axes = array<i64: 0>, keepdims = true} : tensor<3x4xf32> -> tensor<1x4xf32>
  %d = choir.broadcast %x sizes(%n) : tensor<4xf32> -> tensor<?x4xf32>
  %t = choir.reduce sum %d {axes = array<i64: 0>, keepdims = false} : tensor<?x4xf32> -> tensor<4xf32>
  %u = choir.reduce mean %d {axes = array<i64: 0>, keepdims = false} : tensor<?x4xf32> -> tensor<4xf32>
  return %s, %m, %t, %u : tensor<4xf32>, tensor<1x4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// A reduction over an axis the broadcast did not create stays.
// CHECK-LABEL: func.func @reduce_of_broadcast_kept
// CHECK: choir.reduce  sum
func.func @reduce_of_broadcast_kept(%x: tensor<4xf32>) -> tensor<3xf32> {
  %b = choir.broadcast %x : tensor<4xf32> -> tensor<3x4xf32>
  %s = choir.reduce sum %b {axes = array<i64: 1>, keepdims = false} : tensor<3x4xf32> -> tensor<3xf32>
  return %s : tensor<3xf32>
}

// -----

// An elementwise einsum feeding a contraction merges into one einsum (the
// merged iteration space is no larger); a chain of matmuls does not (it
// would multiply the work).
// CHECK-LABEL: func.func @einsum_merge
// CHECK-SAME: (%[[A:.*]]: tensor<16x32xf32>, %[[B:.*]]: tensor<16x32xf32>, %[[V:.*]]: tensor<32xf32>
// CHECK: %[[M:.*]] = choir.einsum "ij,ij,j->i" %[[A]], %[[B]], %[[V]]
// CHECK: %[[P:.*]] = choir.einsum "ij,jk->ik"
// CHECK: %[[Q:.*]] = choir.einsum "ik,kl->il" %[[P]]
// CHECK: return %[[M]], %[[Q]]
func.func @einsum_merge(%a: tensor<16x32xf32>, %b: tensor<16x32xf32>, %v: tensor<32xf32>, %w: tensor<32x64xf32>, %u: tensor<64x8xf32>) -> (tensor<16xf32>, tensor<16x8xf32>) {
  %p = choir.einsum "ij,ij->ij" %a, %b : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
  %m = choir.einsum "ij,j->i" %p, %v : (tensor<16x32xf32>, tensor<32xf32>) -> tensor<16xf32>
  %q = choir.einsum "ij,jk->ik" %a, %w : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
  %r = choir.einsum "ik,kl->il" %q, %u : (tensor<16x64xf32>, tensor<64x8xf32>) -> tensor<16x8xf32>
  return %m, %r : tensor<16xf32>, tensor<16x8xf32>
}

// -----

// A sum over a matmul result merges: the reduction labels get fresh letters.
// CHECK-LABEL: func.func @einsum_merge_reduction
// CHECK: %[[M:.*]] = choir.einsum "ac,cb->" %arg0, %arg1
// CHECK-NOT: choir.einsum
func.func @einsum_merge_reduction(%a: tensor<?x32xf32>, %w: tensor<32x64xf32>) -> tensor<f32> {
  %q = choir.einsum "...ij,...jk->...ik" %a, %w : (tensor<?x32xf32>, tensor<32x64xf32>) -> tensor<?x64xf32>
  %s = choir.einsum "ab->" %q : (tensor<?x64xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
