// RUN: accy-opt %s --split-input-file --accy-choir-activation-lower | FileCheck %s

// relu is max(x, 0) (NaN-propagating), one elementwise generic.
// CHECK-LABEL: func.func @relu
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%arg0 : tensor<?x8xf32>)
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[R:.*]] = arith.maximumf %[[X]], %[[ZERO]] : f32
// CHECK: linalg.yield %[[R]]
func.func @relu(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %r = choir.relu %x : tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}

// -----

// gelu, tanh form: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
// CHECK-LABEL: func.func @gelu
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[X2:.*]] = arith.mulf %[[X]], %[[X]]
// CHECK: %[[X3:.*]] = arith.mulf %[[X2]], %[[X]]
// CHECK: %[[A:.*]] = arith.constant 4.471500e-02 : f32
// CHECK: %[[AX3:.*]] = arith.mulf %[[A]], %[[X3]]
// CHECK: %[[IN:.*]] = arith.addf %[[X]], %[[AX3]]
// CHECK: %[[K:.*]] = arith.constant 0.797884583 : f32
// CHECK: %[[S:.*]] = arith.mulf %[[K]], %[[IN]]
// CHECK: %[[T:.*]] = math.tanh %[[S]]
// CHECK: %[[C1:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[T1:.*]] = arith.addf %[[C1]], %[[T]]
// CHECK: %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK: %[[H:.*]] = arith.mulf %[[HALF]], %[[X]]
// CHECK: %[[R:.*]] = arith.mulf %[[H]], %[[T1]]
// CHECK: linalg.yield %[[R]]
func.func @gelu(%x: tensor<16xf32>) -> tensor<16xf32> {
  %r = choir.gelu %x : tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// sigmoid = 1 / (1 + exp(-x)); silu = x / (1 + exp(-x)).
// CHECK-LABEL: func.func @sigmoid_silu
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[N:.*]] = arith.negf %[[X]]
// CHECK: %[[E:.*]] = math.exp %[[N]]
// CHECK: %[[D:.*]] = arith.addf %{{.*}}, %[[E]]
// CHECK: arith.divf %{{.*}}, %[[D]]
// CHECK: ^bb0(%[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK: math.exp
// CHECK: %[[D2:.*]] = arith.addf
// CHECK: arith.divf %[[Y]], %[[D2]]
func.func @sigmoid_silu(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %a = choir.sigmoid %x : tensor<16xf32>
  %b = choir.silu %x : tensor<16xf32>
  return %a, %b : tensor<16xf32>, tensor<16xf32>
}

// -----

// The math functions map one to one.
// CHECK-LABEL: func.func @math
// CHECK: math.tanh
// CHECK: math.exp
// CHECK: math.log
// CHECK: math.sqrt
// CHECK: math.rsqrt
// CHECK: math.absf
// CHECK: arith.negf
func.func @math(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = choir.tanh %x : tensor<4xf32>
  %b = choir.exp %a : tensor<4xf32>
  %c = choir.log %b : tensor<4xf32>
  %d = choir.sqrt %c : tensor<4xf32>
  %e = choir.rsqrt %d : tensor<4xf32>
  %f = choir.abs %e : tensor<4xf32>
  %g = choir.neg %f : tensor<4xf32>
  return %g : tensor<4xf32>
}

// -----

// f16 computes math in f32.
// CHECK-LABEL: func.func @half
// CHECK: ^bb0(%[[X:.*]]: f16, %{{.*}}: f16):
// CHECK: %[[W:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK: %[[E:.*]] = math.exp %[[W]] : f32
// CHECK: %[[R:.*]] = arith.truncf %[[E]] : f32 to f16
// CHECK: linalg.yield %[[R]] : f16
func.func @half(%x: tensor<4xf16>) -> tensor<4xf16> {
  %r = choir.exp %x : tensor<4xf16>
  return %r : tensor<4xf16>
}

// -----

// Integer relu, abs and neg use integer arith ops.
// CHECK-LABEL: func.func @integers
// CHECK: arith.maxsi
// CHECK: arith.subi
// CHECK: arith.maxsi
// CHECK: arith.subi
func.func @integers(%x: tensor<4xi32>) -> tensor<4xi32> {
  %a = choir.relu %x : tensor<4xi32>
  %b = choir.abs %a : tensor<4xi32>
  %c = choir.neg %b : tensor<4xi32>
  return %c : tensor<4xi32>
}

// -----

// softmax: max reduction (filled with -inf), exp(x - max), sum reduction
// (filled with 0), division. The row statistics are read back with a map
// that drops the axis.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @softmax
// CHECK-SAME: (%[[X:.*]]: tensor<?x?xf32>)
// CHECK: %[[N:.*]] = tensor.dim %[[X]], %c0
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[M0:.*]] = tensor.empty(%{{.*}}) : tensor<?xf32>
// CHECK: %[[MI:.*]] = linalg.fill ins(%[[NINF]] : f32) outs(%[[M0]] : tensor<?xf32>)
// CHECK: %[[M:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<?x?xf32>) outs(%[[MI]] : tensor<?xf32>)
// CHECK: arith.maximumf
// CHECK: %[[E:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[M]] : tensor<?x?xf32>, tensor<?xf32>)
// CHECK: %[[D:.*]] = arith.subf
// CHECK: math.exp %[[D]]
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[SI:.*]] = linalg.fill ins(%[[ZERO]] : f32)
// CHECK: %[[S:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[E]] : tensor<?x?xf32>) outs(%[[SI]] : tensor<?xf32>)
// CHECK: arith.addf
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[E]], %[[S]] : tensor<?x?xf32>, tensor<?xf32>)
// CHECK: arith.divf
// CHECK: return %[[R]]
func.func @softmax(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = choir.softmax %x {axis = 1 : i64} : tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// log_softmax = (x - max) - log(sum(exp(x - max))), along axis 0 here.
// CHECK-LABEL: func.func @log_softmax
// CHECK: iterator_types = ["reduction", "parallel"]
// CHECK: arith.maximumf
// CHECK: math.exp
// CHECK: iterator_types = ["reduction", "parallel"]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%arg0, %{{.*}}, %{{.*}} : tensor<4x?xf32>, tensor<?xf32>, tensor<?xf32>)
// CHECK: %[[SH:.*]] = arith.subf
// CHECK: %[[L:.*]] = math.log
// CHECK: arith.subf %[[SH]], %[[L]]
func.func @log_softmax(%x: tensor<4x?xf32>) -> tensor<4x?xf32> {
  %r = choir.log_softmax %x {axis = 0 : i64} : tensor<4x?xf32>
  return %r : tensor<4x?xf32>
}

// -----

// Other choir ops are left for their passes.
// CHECK-LABEL: func.func @others
// CHECK: choir.add
func.func @others(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = choir.add %x, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %r : tensor<4xf32>
}
