// RUN: accy-opt %s --split-input-file --verify-diagnostics

// One case per choir verifier message.

// -----
// Elementwise broadcasting.
func.func @no_broadcast(%a: tensor<3xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'choir.add' op operand shapes [3] and [4] do not broadcast: sizes must be equal or 1}}
  %r = choir.add %a, %b : tensor<3xf32>, tensor<4xf32> -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----
func.func @wrong_result(%a: tensor<2x1xf32>, %b: tensor<3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'choir.mul' op result shape [2, 1] should be the broadcast shape [2, 3]}}
  %r = choir.mul %a, %b : tensor<2x1xf32>, tensor<3xf32> -> tensor<2x1xf32>
  return %r : tensor<2x1xf32>
}

// -----
func.func @mixed_types(%a: tensor<3xf32>, %b: tensor<3xf16>) -> tensor<3xf32> {
  // expected-error @+1 {{'choir.sub' op operand element type 'f16' differs from the result element type 'f32'; insert a choir.cast}}
  %r = choir.sub %a, %b : tensor<3xf32>, tensor<3xf16> -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----
func.func @cmp_types(%a: tensor<3xf32>, %b: tensor<3xi32>) -> tensor<3xi1> {
  // expected-error @+1 {{'choir.cmp' op compares 'f32' with 'i32'; both operands need one element type}}
  %r = choir.cmp lt, %a, %b : tensor<3xf32>, tensor<3xi32> -> tensor<3xi1>
  return %r : tensor<3xi1>
}

// -----
func.func @select_branches(%c: tensor<3xi1>, %a: tensor<3xf32>, %b: tensor<3xi32>) -> tensor<3xf32> {
  // expected-error @+1 {{'choir.select' op branches have element types 'f32' and 'i32'}}
  %r = choir.select %c, %a, %b : tensor<3xi1>, tensor<3xf32>, tensor<3xi32> -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----
func.func @select_result(%c: tensor<3xi1>, %a: tensor<3xf32>) -> tensor<3xf16> {
  // expected-error @+1 {{'choir.select' op result element type must be the branches' 'f32'}}
  %r = choir.select %c, %a, %a : tensor<3xi1>, tensor<3xf32>, tensor<3xf32> -> tensor<3xf16>
  return %r : tensor<3xf16>
}

// -----
func.func @cast_shape(%a: tensor<3xf32>) -> tensor<4xi32> {
  // expected-error @+1 {{'choir.cast' op changes the shape from [3] to [4]; a cast keeps the shape}}
  %r = choir.cast %a : tensor<3xf32> -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----
// Reductions, row ops, scans.
func.func @axis_range(%a: tensor<3x4xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'choir.reduce' op axis 2 is out of range for rank 2 (expected 0 to 1)}}
  %r = choir.reduce sum %a {axes = array<i64: 2>, keepdims = false} : tensor<3x4xf32> -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----
func.func @axes_sorted(%a: tensor<3x4xf32>) -> tensor<f32> {
  // expected-error @+1 {{'choir.reduce' op axes must be sorted and unique, got [1, 0]}}
  %r = choir.reduce sum %a {axes = array<i64: 1, 0>, keepdims = false} : tensor<3x4xf32> -> tensor<f32>
  return %r : tensor<f32>
}

// -----
func.func @reduce_shape(%a: tensor<3x4xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'choir.reduce' op result shape [3] should be [3, 1] for axes [1] with keepdims}}
  %r = choir.reduce max %a {axes = array<i64: 1>, keepdims = true} : tensor<3x4xf32> -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----
func.func @reduce_type(%a: tensor<3x4xf32>) -> tensor<3xf16> {
  // expected-error @+1 {{'choir.reduce' op result element type must be the input's 'f32'}}
  %r = choir.reduce sum %a {axes = array<i64: 1>, keepdims = false} : tensor<3x4xf32> -> tensor<3xf16>
  return %r : tensor<3xf16>
}

// -----
func.func @softmax_int(%a: tensor<3xi32>) -> tensor<3xi32> {
  // expected-error @+1 {{'choir.softmax' op needs a floating-point input, got 'i32'}}
  %r = choir.softmax %a {axis = 0 : i64} : tensor<3xi32>
  return %r : tensor<3xi32>
}

// -----
func.func @log_softmax_axis(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'choir.log_softmax' op axis 1 is out of range for rank 1 (expected 0 to 0)}}
  %r = choir.log_softmax %a {axis = 1 : i64} : tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----
func.func @scan_axis(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'choir.scan' op axis -1 is out of range for rank 1 (expected 0 to 0)}}
  %r = choir.scan cumsum %a {axis = -1 : i64} : tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----
// Einsum: specs, label sizes, result shape, element types.
func.func @einsum_arrow(%a: tensor<3x4xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'choir.einsum' op einsum "ij": '->' is required}}
  %r = choir.einsum "ij" %a : (tensor<3x4xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----
func.func @einsum_letter(%a: tensor<3x4xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'choir.einsum' op einsum "iJ->i": 'J' is not a lower-case letter}}
  %r = choir.einsum "iJ->i" %a : (tensor<3x4xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----
func.func @einsum_count(%a: tensor<3x4xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'choir.einsum' op einsum "ij,jk->i": names 2 operands but 1 given}}
  %r = choir.einsum "ij,jk->i" %a : (tensor<3x4xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----
func.func @einsum_rank(%a: tensor<3x4xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'choir.einsum' op einsum "ijk->i": operand 0 has rank 2 but 'ijk' names 3 dimensions}}
  %r = choir.einsum "ijk->i" %a : (tensor<3x4xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----
func.func @einsum_ellipsis_rank(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'choir.einsum' op einsum "...ij->...i": '...ij' needs rank >= 2 but the operand has rank 1}}
  %r = choir.einsum "...ij->...i" %a : (tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----
func.func @einsum_two_ellipses(%a: tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32> {
  // expected-error @+1 {{'choir.einsum' op einsum "......->...": '...' appears twice in '......'}}
  %r = choir.einsum "......->..." %a : (tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
  return %r : tensor<2x3x4x5xf32>
}

// -----
func.func @einsum_output_twice(%a: tensor<3x4xf32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{'choir.einsum' op einsum "ij->ii": 'i' appears twice in the output}}
  %r = choir.einsum "ij->ii" %a : (tensor<3x4xf32>) -> tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}

// -----
func.func @einsum_output_unknown(%a: tensor<3x4xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'choir.einsum' op einsum "ij->k": output label 'k' appears in no operand}}
  %r = choir.einsum "ij->k" %a : (tensor<3x4xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----
func.func @einsum_sizes(%a: tensor<3x784xf32>, %b: tensor<512x10xf32>) -> tensor<3x10xf32> {
  // expected-error @+1 {{'choir.einsum' op einsum "bi,ij->bj": 'i' is 784 in an earlier operand but 512 in operand 1}}
  %r = choir.einsum "bi,ij->bj" %a, %b : (tensor<3x784xf32>, tensor<512x10xf32>) -> tensor<3x10xf32>
  return %r : tensor<3x10xf32>
}

// -----
func.func @einsum_result(%a: tensor<3x4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'choir.einsum' op result shape [4] should be [3] for "ij->i"}}
  %r = choir.einsum "ij->i" %a : (tensor<3x4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----
func.func @einsum_types(%a: tensor<3x4xf16>) -> tensor<3xf32> {
  // expected-error @+1 {{'choir.einsum' op operand element type 'f16' differs from the result's 'f32'}}
  %r = choir.einsum "ij->i" %a : (tensor<3x4xf16>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----
// Broadcast, transpose, reshape.
func.func @broadcast_sizes(%a: tensor<3xf32>) -> tensor<?x3xf32> {
  // expected-error @+1 {{'choir.broadcast' op expects one size operand per dynamic result dimension (1), but 0 were given}}
  %r = choir.broadcast %a : tensor<3xf32> -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}

// -----
func.func @broadcast_rank(%a: tensor<2x3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'choir.broadcast' op cannot broadcast rank 2 to the smaller rank 1}}
  %r = choir.broadcast %a : tensor<2x3xf32> -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----
func.func @broadcast_dim(%a: tensor<2x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'choir.broadcast' op cannot broadcast [2, 3] to [4, 3]: dimension 0 is 2, expected 1 or 4}}
  %r = choir.broadcast %a : tensor<2x3xf32> -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// -----
func.func @broadcast_type(%a: tensor<3xf32>) -> tensor<2x3xf16> {
  // expected-error @+1 {{'choir.broadcast' op changes the element type}}
  %r = choir.broadcast %a : tensor<3xf32> -> tensor<2x3xf16>
  return %r : tensor<2x3xf16>
}

// -----
func.func @perm_length(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'choir.transpose' op perm [0] has 1 entries for rank 2}}
  %r = choir.transpose %a {perm = array<i64: 0>} : tensor<2x3xf32> -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

// -----
func.func @perm_values(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'choir.transpose' op perm [1, 1] is not a permutation of 0..1}}
  %r = choir.transpose %a {perm = array<i64: 1, 1>} : tensor<2x3xf32> -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

// -----
func.func @transpose_shape(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'choir.transpose' op result shape [2, 3] should be [3, 2]}}
  %r = choir.transpose %a {perm = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----
func.func @reshape_count(%a: tensor<2x3xf32>) -> tensor<5xf32> {
  // expected-error @+1 {{'choir.reshape' op cannot reshape [2, 3] (6 elements) to [5] (5 elements)}}
  %r = choir.reshape %a : tensor<2x3xf32> -> tensor<5xf32>
  return %r : tensor<5xf32>
}

// -----
func.func @reshape_type(%a: tensor<2x3xf32>) -> tensor<6xi32> {
  // expected-error @+1 {{'choir.reshape' op changes the element type}}
  %r = choir.reshape %a : tensor<2x3xf32> -> tensor<6xi32>
  return %r : tensor<6xi32>
}

// -----
func.func @reshape_sizes(%a: tensor<2x3xf32>, %n: index) -> tensor<6xf32> {
  // expected-error @+1 {{'choir.reshape' op expects one size operand per dynamic result dimension (0), but 1 were given}}
  %r = choir.reshape %a sizes(%n) : tensor<2x3xf32> -> tensor<6xf32>
  return %r : tensor<6xf32>
}

// -----
// Slices, gathers, concatenation.
func.func @slice_count(%a: tensor<4x4xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'choir.slice' op needs one start and one size per dimension (2)}}
  %r = choir.slice %a [0] [2] : tensor<4x4xf32> -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----
func.func @slice_operand(%a: tensor<4xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'choir.slice' op has a dynamic start or size without its operand}}
  %r = "choir.slice"(%a) <{static_starts = array<i64: -9223372036854775808>, static_sizes = array<i64: 2>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<4xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----
func.func @slice_range(%a: tensor<4xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'choir.slice' op slice [2, 5) of dimension 0 is out of range for size 4}}
  %r = choir.slice %a [2] [3] : tensor<4xf32> -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----
func.func @slice_shape(%a: tensor<4xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'choir.slice' op result shape [3] should be [2]}}
  %r = choir.slice %a [0] [2] : tensor<4xf32> -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----
func.func @take_axis(%a: tensor<4xf32>, %i: tensor<2xi32>) -> tensor<2xf32> {
  // expected-error @+1 {{'choir.take' op axis 1 is out of range for rank 1 (expected 0 to 0)}}
  %r = choir.take %a, %i {axis = 1 : i64} : tensor<4xf32>, tensor<2xi32> -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----
func.func @take_shape(%a: tensor<4x5xf32>, %i: tensor<2xi32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'choir.take' op result shape [4, 5] should be [4, 2]}}
  %r = choir.take %a, %i {axis = 1 : i64} : tensor<4x5xf32>, tensor<2xi32> -> tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}

// -----
func.func @concat_empty() -> tensor<0xf32> {
  // expected-error @+1 {{'choir.concat' op needs at least one input}}
  %r = choir.concat {axis = 0 : i64} : () -> tensor<0xf32>
  return %r : tensor<0xf32>
}

// -----
func.func @concat_axis(%a: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'choir.concat' op axis 1 is out of range for rank 1 (expected 0 to 0)}}
  %r = choir.concat %a, %a {axis = 1 : i64} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----
func.func @concat_input(%a: tensor<2xf32>, %b: tensor<2x2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'choir.concat' op input 'tensor<2x2xf32>' does not match the result rank and element type}}
  %r = choir.concat %a, %b {axis = 0 : i64} : (tensor<2xf32>, tensor<2x2xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----
func.func @concat_dims(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'choir.concat' op inputs differ in dimension 1, which is not the concatenation axis 0}}
  %r = choir.concat %a, %b {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// -----
// full and iota.
func.func @full_type() -> tensor<2xf32> {
  // expected-error @+1 {{'choir.full' op value type 'i32' differs from the element type 'f32'}}
  %r = choir.full 1 : i32 : tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----
func.func @full_sizes() -> tensor<?xf32> {
  // expected-error @+1 {{'choir.full' op expects one size operand per dynamic result dimension (1), but 0 were given}}
  %r = choir.full 1.0 : f32 : tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----
func.func @iota_rank() -> tensor<2x2xi32> {
  // expected-error @+1 {{'choir.iota' op result must have rank 1}}
  %r = choir.iota : tensor<2x2xi32>
  return %r : tensor<2x2xi32>
}

// -----
func.func @iota_size() -> tensor<?xi32> {
  // expected-error @+1 {{'choir.iota' op expects one size operand per dynamic result dimension (1), but 0 were given}}
  %r = choir.iota : tensor<?xi32>
  return %r : tensor<?xi32>
}

// -----
// Losses.
func.func @mse_shapes(%a: tensor<3xf32>, %b: tensor<4xf32>) -> tensor<f32> {
  // expected-error @+1 {{'choir.mse' op operand shapes [3] and [4] do not broadcast: sizes must be equal or 1}}
  %r = choir.mse %a, %b : tensor<3xf32>, tensor<4xf32> -> tensor<f32>
  return %r : tensor<f32>
}

// -----
func.func @mse_scalar(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'choir.mse' op result must be a scalar (rank 0)}}
  %r = choir.mse %a, %a : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----
func.func @xent_scores(%a: tensor<3xf32>, %l: tensor<3xi32>) -> tensor<f32> {
  // expected-error @+1 {{'choir.cross_entropy' op needs floating-point scores of shape [B, C], got 'tensor<3xf32>'}}
  %r = choir.cross_entropy %a, %l : tensor<3xf32>, tensor<3xi32> -> tensor<f32>
  return %r : tensor<f32>
}

// -----
func.func @xent_labels(%a: tensor<3x4xf32>, %l: tensor<3xi64>) -> tensor<f32> {
  // expected-error @+1 {{'choir.cross_entropy' op needs i32 labels of shape [B], got 'tensor<3xi64>'}}
  %r = choir.cross_entropy %a, %l : tensor<3x4xf32>, tensor<3xi64> -> tensor<f32>
  return %r : tensor<f32>
}

// -----
func.func @nll_rows(%a: tensor<3x4xf32>, %l: tensor<2xi32>) -> tensor<f32> {
  // expected-error @+1 {{'choir.nll' op has 3 rows of scores but 2 labels}}
  %r = choir.nll %a, %l : tensor<3x4xf32>, tensor<2xi32> -> tensor<f32>
  return %r : tensor<f32>
}

// -----
func.func @nll_scalar(%a: tensor<3x4xf32>, %l: tensor<3xi32>) -> tensor<3xf32> {
  // expected-error @+1 {{'choir.nll' op result must be a scalar (rank 0)}}
  %r = choir.nll %a, %l : tensor<3x4xf32>, tensor<3xi32> -> tensor<3xf32>
  return %r : tensor<3xf32>
}
