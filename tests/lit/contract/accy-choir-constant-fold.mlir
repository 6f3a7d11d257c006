// RUN: accy-opt %s --split-input-file --accy-choir-constant-fold | FileCheck %s
// RUN: accy-opt %s --split-input-file --accy-choir-constant-fold=max-elements=8192 | FileCheck %s --check-prefix=BIG
// RUN: accy-opt %s --split-input-file --accy-choir-constant-fold=allow-tables | FileCheck %s --check-prefix=TABLES

// Elementwise arithmetic with broadcasting, then an activation.
// CHECK-LABEL: func.func @elementwise
// CHECK: %[[C:.*]] = choir.constant dense<[3.000000e+00, 4.000000e+00]> : tensor<2xf32>
// CHECK: %[[R:.*]] = choir.constant dense<[0.000000e+00, 1.000000e+00]> : tensor<2xf32>
// CHECK-NOT: choir.add
// CHECK-NOT: choir.relu
// CHECK: return %[[C]], %[[R]]
func.func @elementwise() -> (tensor<2xf32>, tensor<2xf32>) {
  %a = choir.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = choir.constant dense<2.0> : tensor<f32>
  %c = choir.add %a, %b : tensor<2xf32>, tensor<f32> -> tensor<2xf32>
  %m = choir.constant dense<[-1.0, 1.0]> : tensor<2xf32>
  %r = choir.relu %m : tensor<2xf32>
  return %c, %r : tensor<2xf32>, tensor<2xf32>
}

// -----

// full folds to a splat; iota is a generator: it stays (a table of values
// would be new constant data for the later stages to place) unless
// allow-tables, but a reduction of it folds through it.
// CHECK-LABEL: func.func @full_iota_reduce
// CHECK-DAG: %[[I:.*]] = choir.iota : tensor<4xi32>
// CHECK-DAG: %[[S:.*]] = choir.constant dense<6> : tensor<i32>
// CHECK-DAG: %[[F:.*]] = choir.constant dense<1.500000e+00> : tensor<2x2xf32>
// CHECK-DAG: %[[G:.*]] = choir.cmp  ge, %[[I]]
// CHECK-NOT: choir.full
// CHECK-NOT: choir.reduce
// CHECK: return %[[I]], %[[S]], %[[F]], %[[G]]
// TABLES-LABEL: func.func @full_iota_reduce
// TABLES-DAG: choir.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
// TABLES-DAG: choir.constant dense<6> : tensor<i32>
// TABLES-DAG: choir.constant dense<1.500000e+00> : tensor<2x2xf32>
// TABLES-DAG: choir.constant dense<[false, false, true, true]> : tensor<4xi1>
// TABLES-NOT: choir.iota
// TABLES-NOT: choir.cmp
func.func @full_iota_reduce() -> (tensor<4xi32>, tensor<i32>, tensor<2x2xf32>, tensor<4xi1>) {
  %i = choir.iota : tensor<4xi32>
  %s = choir.reduce sum %i {axes = array<i64: 0>, keepdims = false} : tensor<4xi32> -> tensor<i32>
  %f = choir.full 1.5 : f32 : tensor<2x2xf32>
  %two = choir.constant dense<2> : tensor<i32>
  %g = choir.cmp ge, %i, %two : tensor<4xi32>, tensor<i32> -> tensor<4xi1>
  return %i, %s, %f, %g : tensor<4xi32>, tensor<i32>, tensor<2x2xf32>, tensor<4xi1>
}

// -----

// Reductions over some axes, mean, max; transpose, reshape, broadcast,
// slice, concat and take of constants.
// CHECK-LABEL: func.func @data_movement
// CHECK-DAG: choir.constant dense<[2.000000e+00, 5.000000e+00]> : tensor<2xf32>
// CHECK-DAG: choir.constant dense<{{\[}}[3.000000e+00, 6.000000e+00]]> : tensor<1x2xf32>
// CHECK-DAG: choir.constant dense<{{\[}}[1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
// CHECK-DAG: choir.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00]> : tensor<6xf32>
// CHECK-DAG: choir.constant dense<{{\[}}[2.000000e+00, 3.000000e+00], [5.000000e+00, 6.000000e+00]]> : tensor<2x2xf32>
// CHECK-DAG: choir.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<6xf32>
// CHECK-DAG: choir.constant dense<{{\[}}[3.000000e+00, 1.000000e+00, 3.000000e+00], [6.000000e+00, 4.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>
// CHECK-DAG: choir.constant dense<{{\[}}[1.000000e+00, 2.000000e+00, 3.000000e+00], [1.000000e+00, 2.000000e+00, 3.000000e+00]]> : tensor<2x3xf32>
func.func @data_movement() -> (tensor<2xf32>, tensor<1x2xf32>, tensor<3x2xf32>, tensor<6xf32>, tensor<2x2xf32>, tensor<6xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %x = choir.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %mean = choir.reduce mean %x {axes = array<i64: 1>, keepdims = false} : tensor<2x3xf32> -> tensor<2xf32>
  %max = choir.reduce max %x {axes = array<i64: 1>, keepdims = true} : tensor<2x3xf32> -> tensor<2x1xf32>
  %maxt = choir.transpose %max {perm = array<i64: 1, 0>} : tensor<2x1xf32> -> tensor<1x2xf32>
  %t = choir.transpose %x {perm = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<3x2xf32>
  %r = choir.reshape %x : tensor<2x3xf32> -> tensor<6xf32>
  %s = choir.slice %x [0, 1] [2, 2] : tensor<2x3xf32> -> tensor<2x2xf32>
  %row = choir.slice %x [0, 0] [1, 3] : tensor<2x3xf32> -> tensor<1x3xf32>
  %row1 = choir.reshape %row : tensor<1x3xf32> -> tensor<3xf32>
  %cat = choir.concat %row1, %row1 {axis = 0 : i64} : (tensor<3xf32>, tensor<3xf32>) -> tensor<6xf32>
  %idx = choir.constant dense<[2, -5, 7]> : tensor<3xi32>
  %g = choir.take %x, %idx {axis = 1 : i64} : tensor<2x3xf32>, tensor<3xi32> -> tensor<2x3xf32>
  %b = choir.broadcast %row1 : tensor<3xf32> -> tensor<2x3xf32>
  return %mean, %maxt, %t, %r, %s, %cat, %g, %b : tensor<2xf32>, tensor<1x2xf32>, tensor<3x2xf32>, tensor<6xf32>, tensor<2x2xf32>, tensor<6xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Casts round to nearest-even and convert floats to integers by truncation;
// softmax and a scan of constants.
// CHECK-LABEL: func.func @casts_rows_scans
// CHECK-DAG: choir.constant dense<[1, -2]> : tensor<2xi32>
// CHECK-DAG: choir.constant dense<5.000000e-01> : tensor<2xf32>
// CHECK-DAG: choir.constant dense<[1, 3, 6]> : tensor<3xi32>
// CHECK-DAG: choir.constant dense<[1.000000e+00, 3.000000e+00, 3.000000e+00]> : tensor<3xf32>
func.func @casts_rows_scans() -> (tensor<2xi32>, tensor<2xf32>, tensor<3xi32>, tensor<3xf32>) {
  %x = choir.constant dense<[1.7, -2.5]> : tensor<2xf32>
  %i = choir.cast %x : tensor<2xf32> -> tensor<2xi32>
  %same = choir.constant dense<3.0> : tensor<2xf32>
  %s = choir.softmax %same {axis = 0 : i64} : tensor<2xf32>
  %v = choir.constant dense<[1, 2, 3]> : tensor<3xi32>
  %cs = choir.scan cumsum %v {axis = 0 : i64} : tensor<3xi32>
  %w = choir.constant dense<[1.0, 3.0, 2.0]> : tensor<3xf32>
  %cm = choir.scan cummax %w {axis = 0 : i64} : tensor<3xf32>
  return %i, %s, %cs, %cm : tensor<2xi32>, tensor<2xf32>, tensor<3xi32>, tensor<3xf32>
}

// -----

// Integer arithmetic wraps at the element width; integer division folds to
// what the lowering computes at run time: x / 0 is 0, MIN / -1 wraps to MIN,
// division truncates toward zero.
// CHECK-LABEL: func.func @integers
// CHECK-DAG: %[[MIN:.*]] = choir.constant dense<-2147483648> : tensor<i32>
// CHECK-DAG: %[[ZERO:.*]] = choir.constant dense<0> : tensor<i32>
// CHECK-DAG: %[[Q:.*]] = choir.constant dense<[-3, 3]> : tensor<2xi32>
// CHECK-NOT: choir.div
// CHECK: return %[[MIN]], %[[ZERO]], %[[MIN]], %[[Q]]
func.func @integers() -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<2xi32>) {
  %max = choir.constant dense<2147483647> : tensor<i32>
  %one = choir.constant dense<1> : tensor<i32>
  %zero = choir.constant dense<0> : tensor<i32>
  %m1 = choir.constant dense<-1> : tensor<i32>
  %w = choir.add %max, %one : tensor<i32>, tensor<i32> -> tensor<i32>
  %d = choir.div %one, %zero : tensor<i32>, tensor<i32> -> tensor<i32>
  %o = choir.div %w, %m1 : tensor<i32>, tensor<i32> -> tensor<i32>
  %n = choir.constant dense<[-7, 7]> : tensor<2xi32>
  %two = choir.constant dense<2> : tensor<i32>
  %q = choir.div %n, %two : tensor<2xi32>, tensor<i32> -> tensor<2xi32>
  return %w, %d, %o, %q : tensor<i32>, tensor<i32>, tensor<i32>, tensor<2xi32>
}

// -----

// Ops with a non-constant operand, or a dynamic result, stay.
// CHECK-LABEL: func.func @not_constant
// CHECK: choir.add
// CHECK: choir.full
func.func @not_constant(%x: tensor<2xf32>, %n: index) -> (tensor<2xf32>, tensor<?xf32>) {
  %c = choir.constant dense<1.0> : tensor<2xf32>
  %a = choir.add %x, %c : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  %f = choir.full 0.0 : f32 sizes(%n) : tensor<?xf32>
  return %a, %f : tensor<2xf32>, tensor<?xf32>
}

// -----

// The size budget: 5000 elements are over the default of 4096.
// CHECK-LABEL: func.func @budget
// CHECK: choir.full
// BIG-LABEL: func.func @budget
// BIG-NOT: choir.full
// BIG: choir.constant dense<2.000000e+00> : tensor<5000xf32>
func.func @budget() -> tensor<5000xf32> {
  %f = choir.full 2.0 : f32 : tensor<5000xf32>
  return %f : tensor<5000xf32>
}
