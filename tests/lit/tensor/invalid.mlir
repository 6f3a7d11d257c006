// RUN: accy-opt %s --split-input-file --verify-diagnostics --accy-choir-activation-lower --accy-choir-reduction-lower --accy-choir-einsum-lower --accy-choir-indexing-lower --accy-choir-loss-lower --accy-choir-destination-style

// An op a pass owns but cannot lower fails that pass, on the op, with the
// reason in a note. (The elementwise lowering is left out of the RUN line so
// that the last case reaches accy-choir-destination-style with a choir op.)

func.func @exp_of_integers(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+2 {{'choir.exp' is not yet lowered by accy-choir-activation-lower}}
  // expected-note @+1 {{needs a floating-point element type, got i32}}
  %r = choir.exp %x : tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

func.func @sum_of_booleans(%x: tensor<4xi1>) -> tensor<i1> {
  // expected-error @+2 {{'choir.reduce' is not yet lowered by accy-choir-reduction-lower}}
  // expected-note @+1 {{sum and mean of booleans need a cast to a number type first}}
  %r = choir.reduce sum %x {axes = array<i64: 0>, keepdims = false} : tensor<4xi1> -> tensor<i1>
  return %r : tensor<i1>
}

// -----

func.func @einsum_of_booleans(%x: tensor<4x4xi1>) -> tensor<4xi1> {
  // expected-error @+2 {{'choir.einsum' is not yet lowered by accy-choir-einsum-lower}}
  // expected-note @+1 {{needs a float or (non-bool) integer element type}}
  %r = choir.einsum "ij->i" %x : (tensor<4x4xi1>) -> tensor<4xi1>
  return %r : tensor<4xi1>
}

// -----

func.func @scan_of_booleans(%x: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+2 {{'choir.scan' is not yet lowered by accy-choir-indexing-lower}}
  // expected-note @+1 {{scans need a float or (non-bool) integer element type}}
  %r = choir.scan cummax %x {axis = 0 : i64} : tensor<4xi1>
  return %r : tensor<4xi1>
}

// -----

func.func @mse_of_integers(%x: tensor<4xi32>) -> tensor<f32> {
  // expected-error @+2 {{'choir.mse' is not yet lowered by accy-choir-loss-lower}}
  // expected-note @+1 {{mse needs floating-point operands}}
  %r = choir.mse %x, %x : tensor<4xi32>, tensor<4xi32> -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// The last pass of the stage refuses choir ops that no lowering pass took.
func.func @leftover(%x: tensor<4xf32>) -> tensor<4xf32> attributes {choir.kernel} {
  // expected-error @+1 {{'choir.add' is not lowered by the tensor stage (the choir lowering passes must run before accy-choir-destination-style)}}
  %r = choir.add %x, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %r : tensor<4xf32>
}
