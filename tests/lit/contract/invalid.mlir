// RUN: accy-opt %s --split-input-file --verify-diagnostics --accy-choir-shape-layout-propagate

// Two different symbols meet in a broadcast.
func.func @symbols(%x: tensor<?xf32> {choir.dims = ["N"]}, %y: tensor<?xf32> {choir.dims = ["M"]}) -> (tensor<?xf32> {choir.dims = ["N"]}) attributes {choir.kernel} {
  // expected-error @+1 {{'choir.add' op cannot broadcast dimension 0: 'N' against 'M' (sizes must be equal or 1)}}
  %r = choir.add %x, %y : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// A symbol against a constant other than 1.
func.func @symbol_constant(%x: tensor<?x4xf32> {choir.dims = ["N", 4]}, %y: tensor<3x4xf32> {choir.dims = [3, 4]}) -> (tensor<?x4xf32> {choir.dims = ["N", 4]}) attributes {choir.kernel} {
  // expected-error @+1 {{'choir.sub' op cannot broadcast dimension 0: 'N' against 3 (sizes must be equal or 1)}}
  %r = choir.sub %x, %y : tensor<?x4xf32>, tensor<3x4xf32> -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}

// -----

// The mismatch is reported at the op that joins the two sizes, not at an
// earlier one.
func.func @later_op(%x: tensor<?xf32> {choir.dims = ["N"]}, %y: tensor<?xf32> {choir.dims = ["N"]}, %z: tensor<?xf32> {choir.dims = ["M"]}) -> (tensor<?xf32> {choir.dims = ["N"]}) attributes {choir.kernel} {
  %a = choir.add %x, %y : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
  %e = choir.exp %a : tensor<?xf32>
  // expected-error @+1 {{'choir.mul' op cannot broadcast dimension 0: 'N' against 'M'}}
  %b = choir.mul %e, %z : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
  return %b : tensor<?xf32>
}

// -----

// An einsum label bound to two symbols.
func.func @einsum_label(%x: tensor<?x?xf32> {choir.dims = ["B", "K"]}, %w: tensor<?x8xf32> {choir.dims = ["J", 8]}) -> (tensor<?x8xf32> {choir.dims = ["B", 8]}) attributes {choir.kernel} {
  // expected-error @+1 {{'choir.einsum' op einsum "bi,ij->bj": 'i' is 'K' in one operand but 'J' in another}}
  %r = choir.einsum "bi,ij->bj" %x, %w : (tensor<?x?xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}

// -----

// The batch dimensions of a matmul ('...') do not agree.
func.func @matmul_batch(%a: tensor<?x4x8xf32> {choir.dims = ["B", 4, 8]}, %b: tensor<?x8x2xf32> {choir.dims = ["C", 8, 2]}) -> (tensor<?x4x2xf32> {choir.dims = ["B", 4, 2]}) attributes {choir.kernel} {
  // expected-error @+1 {{'choir.einsum' op einsum "...ij,...jk->...ik": a batch dimension of '...' is 'B' in one operand but 'C' in another}}
  %r = choir.einsum "...ij,...jk->...ik" %a, %b : (tensor<?x4x8xf32>, tensor<?x8x2xf32>) -> tensor<?x4x2xf32>
  return %r : tensor<?x4x2xf32>
}

// -----

// The returned value does not have the declared result dimensions.
func.func @result(%x: tensor<?xf32> {choir.dims = ["N"]}, %y: tensor<?xf32> {choir.dims = ["M"]}) -> (tensor<?xf32> {choir.dims = ["M"]}) attributes {choir.kernel} {
  %e = choir.exp %x : tensor<?xf32>
  // expected-error @+1 {{'func.return' op result 0 dimension 0 is 'N' but the kernel declares 'M'}}
  return %e : tensor<?xf32>
}

// -----

// A gather's batch and label counts (cross_entropy) must agree.
func.func @loss(%x: tensor<?x10xf32> {choir.dims = ["B", 10]}, %l: tensor<?xi32> {choir.dims = ["N"]}) -> (tensor<f32> {choir.dims = []}) attributes {choir.kernel} {
  // expected-error @+1 {{'choir.cross_entropy' op has 'B' rows of scores but 'N' labels}}
  %r = choir.cross_entropy %x, %l : tensor<?x10xf32>, tensor<?xi32> -> tensor<f32>
  return %r : tensor<f32>
}
