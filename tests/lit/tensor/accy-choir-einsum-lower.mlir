// RUN: accy-opt %s --split-input-file --accy-choir-einsum-lower | FileCheck %s
// RUN: accy-opt %s --split-input-file --accy-choir-einsum-lower=use-named-ops=false | FileCheck %s --check-prefix=GENERIC

// `@` on matrices is linalg.matmul into a zero-filled accumulator.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.*]]: tensor<?x784xf32>, %[[B:.*]]: tensor<784x256xf32>)
// CHECK: %[[N:.*]] = tensor.dim %[[A]], %c0
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x256xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<?x256xf32>)
// CHECK: %[[R:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<?x784xf32>, tensor<784x256xf32>) outs(%[[F]] : tensor<?x256xf32>)
// CHECK: return %[[R]]
// The same contraction as a generic: i, j parallel, k a reduction.
// GENERIC-DAG: #[[MA:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// GENERIC-DAG: #[[MB:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// GENERIC-DAG: #[[MC:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// GENERIC-LABEL: func.func @matmul
// GENERIC: linalg.generic {indexing_maps = [#[[MA]], #[[MB]], #[[MC]]], iterator_types = ["parallel", "parallel", "reduction"]}
// GENERIC: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[ACC:.*]]: f32):
// GENERIC: %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// GENERIC: %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// GENERIC: linalg.yield %[[S]]
func.func @matmul(%a: tensor<?x784xf32>, %b: tensor<784x256xf32>) -> tensor<?x256xf32> {
  %r = choir.einsum "...ij,...jk->...ik" %a, %b : (tensor<?x784xf32>, tensor<784x256xf32>) -> tensor<?x256xf32>
  return %r : tensor<?x256xf32>
}

// -----

// Batched matrices of one batch size: linalg.batch_matmul.
// CHECK-LABEL: func.func @batch_matmul
// CHECK: linalg.batch_matmul ins(%arg0, %arg1 : tensor<?x4x8xf32>, tensor<?x8x2xf32>)
func.func @batch_matmul(%a: tensor<?x4x8xf32>, %b: tensor<?x8x2xf32>) -> tensor<?x4x2xf32> {
  %r = choir.einsum "bij,bjk->bik" %a, %b : (tensor<?x4x8xf32>, tensor<?x8x2xf32>) -> tensor<?x4x2xf32>
  return %r : tensor<?x4x2xf32>
}

// -----

// A batch dimension of size 1 broadcasts: it is collapsed away and not
// indexed.
// CHECK-DAG: #[[MA:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[MB:.*]] = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
// CHECK-DAG: #[[MC:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @batch_broadcast
// CHECK: %[[C:.*]] = tensor.collapse_shape %arg1 {{\[}}[0, 1], [2]] : tensor<1x8x2xf32> into tensor<8x2xf32>
// CHECK: linalg.generic {indexing_maps = [#[[MA]], #[[MB]], #[[MC]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %[[C]] : tensor<3x4x8xf32>, tensor<8x2xf32>)
func.func @batch_broadcast(%a: tensor<3x4x8xf32>, %b: tensor<1x8x2xf32>) -> tensor<3x4x2xf32> {
  %r = choir.einsum "...ij,...jk->...ik" %a, %b : (tensor<3x4x8xf32>, tensor<1x8x2xf32>) -> tensor<3x4x2xf32>
  return %r : tensor<3x4x2xf32>
}

// -----

// A repeated label reads a diagonal; no reduction means no fill.
// CHECK-DAG: #[[DIAG:.*]] = affine_map<(d0) -> (d0, d0)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @diagonal
// CHECK-NOT: linalg.fill
// CHECK: linalg.generic {indexing_maps = [#[[DIAG]], #[[OUT]]], iterator_types = ["parallel"]}
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[X]]
func.func @diagonal(%a: tensor<5x5xf32>) -> tensor<5xf32> {
  %r = choir.einsum "ii->i" %a : (tensor<5x5xf32>) -> tensor<5xf32>
  return %r : tensor<5xf32>
}

// -----

// Three operands, every label reduced: a rank-0 result.
// CHECK-DAG: #[[V:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[M:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[W:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[S:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @quadratic_form
// CHECK: linalg.generic {indexing_maps = [#[[V]], #[[M]], #[[W]], #[[S]]], iterator_types = ["reduction", "reduction"]}
// CHECK: arith.mulf
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: -> tensor<f32>
func.func @quadratic_form(%v: tensor<?xf32>, %m: tensor<?x?xf32>) -> tensor<f32> {
  %r = choir.einsum "i,ij,j->" %v, %m, %v : (tensor<?xf32>, tensor<?x?xf32>, tensor<?xf32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// f16 accumulates in f32, then truncates; integers use muli/addi.
// CHECK-LABEL: func.func @types
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x4xf32>)
// CHECK: ^bb0(%[[X:.*]]: f16, %[[Y:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK-DAG: arith.extf %[[X]] : f16 to f32
// CHECK-DAG: arith.extf %[[Y]] : f16 to f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: linalg.matmul ins(%arg2, %arg3 : tensor<4x8xi32>, tensor<8x4xi32>)
func.func @types(%a: tensor<4x8xf16>, %b: tensor<8x4xf16>, %i: tensor<4x8xi32>, %j: tensor<8x4xi32>) -> (tensor<4x4xf16>, tensor<4x4xi32>) {
  %r = choir.einsum "ij,jk->ik" %a, %b : (tensor<4x8xf16>, tensor<8x4xf16>) -> tensor<4x4xf16>
  %s = choir.einsum "ij,jk->ik" %i, %j : (tensor<4x8xi32>, tensor<8x4xi32>) -> tensor<4x4xi32>
  return %r, %s : tensor<4x4xf16>, tensor<4x4xi32>
}

// -----

// Operands cast exactly from f16 (or bf16) to the f32 they multiply in are
// read as they are, the conversion in the payload: one contraction of the
// 16-bit inputs (what tensor cores take). A cast that rounds (f64 to f32)
// stays an operand of its own.
// CHECK-LABEL: func.func @widened
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf16>, %[[B:.*]]: tensor<8x4xbf16>, %[[D:.*]]: tensor<8x4xf64>)
// CHECK: %[[T:.*]] = choir.cast %[[D]] : tensor<8x4xf64> -> tensor<8x4xf32>
// CHECK: linalg.generic {{.*}} ins(%[[A]], %[[B]] : tensor<4x8xf16>, tensor<8x4xbf16>)
// CHECK: ^bb0(%[[X:.*]]: f16, %[[Y:.*]]: bf16, %[[ACC:.*]]: f32):
// CHECK: %[[XE:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK: %[[YE:.*]] = arith.extf %[[Y]] : bf16 to f32
// CHECK: %[[P:.*]] = arith.mulf %[[XE]], %[[YE]] : f32
// CHECK: linalg.generic {{.*}} ins(%[[A]], %[[T]] : tensor<4x8xf16>, tensor<8x4xf32>)
func.func @widened(%a: tensor<4x8xf16>, %b: tensor<8x4xbf16>, %d: tensor<8x4xf64>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %a32 = choir.cast %a : tensor<4x8xf16> -> tensor<4x8xf32>
  %b32 = choir.cast %b : tensor<8x4xbf16> -> tensor<8x4xf32>
  %d32 = choir.cast %d : tensor<8x4xf64> -> tensor<8x4xf32>
  %r = choir.einsum "ij,jk->ik" %a32, %b32 : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %s = choir.einsum "ij,jk->ik" %a32, %d32 : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  return %r, %s : tensor<4x4xf32>, tensor<4x4xf32>
}
