// RUN: accy-opt %s --split-input-file --accy-choir-loss-lower | FileCheck %s

// mse: the squared differences over the broadcast shape summed into a
// rank-0 accumulator, divided by the element count.
// CHECK-DAG: #[[P:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[T:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[S:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @mse
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<f32>)
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[P]], #[[T]], #[[S]]], iterator_types = ["reduction", "reduction"]} ins(%arg0, %arg1 : tensor<?x4xf32>, tensor<4xf32>) outs(%[[F]] : tensor<f32>)
// CHECK: %[[D:.*]] = arith.subf
// CHECK: %[[D2:.*]] = arith.mulf %[[D]], %[[D]]
// CHECK: arith.addf %{{.*}}, %[[D2]]
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK: linalg.generic {{.*}}iterator_types = []} ins(%[[SUM]] : tensor<f32>)
// CHECK: %[[NI:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK: %[[NF:.*]] = arith.sitofp %[[NI]] : i64 to f32
// CHECK: %[[COUNT:.*]] = arith.mulf
// CHECK: arith.divf %{{.*}}, %[[COUNT]]
func.func @mse(%p: tensor<?x4xf32>, %t: tensor<4xf32>) -> tensor<f32> {
  %r = choir.mse %p, %t : tensor<?x4xf32>, tensor<4xf32> -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// cross_entropy in the log-sum-exp form: row max, sum of exp(x - max),
// then the batch sum of max + log(sum) - x[b, clamp(label)], over B.
// CHECK-LABEL: func.func @cross_entropy
// CHECK-SAME: (%[[X:.*]]: tensor<?x?xf32>, %[[L:.*]]: tensor<?xi32>)
// CHECK: %[[C:.*]] = tensor.dim %[[X]], %c1
// CHECK: %[[UP:.*]] = arith.subi %[[C]], %c1
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<?x?xf32>)
// CHECK: arith.maximumf
// CHECK: %[[SE:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[X]], %[[MAX]] : tensor<?x?xf32>, tensor<?xf32>)
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: %[[TOTAL:.*]] = linalg.generic {{.*}}iterator_types = ["reduction"]} ins(%[[MAX]], %[[SE]], %[[L]] : tensor<?xf32>, tensor<?xf32>, tensor<?xi32>)
// CHECK: ^bb0(%[[M:.*]]: f32, %[[S:.*]]: f32, %[[LABEL:.*]]: i32, %[[ACC:.*]]: f32):
// CHECK: %[[LOG:.*]] = math.log %[[S]]
// CHECK: %[[LSE:.*]] = arith.addf %[[M]], %[[LOG]]
// CHECK: %[[I:.*]] = arith.index_cast %[[LABEL]] : i32 to index
// CHECK: %[[LO:.*]] = arith.maxsi %[[I]], %c0
// CHECK: %[[HI:.*]] = arith.minsi %[[LO]], %[[UP]]
// CHECK: %[[ROW:.*]] = linalg.index 0
// CHECK: %[[PICK:.*]] = tensor.extract %[[X]][%[[ROW]], %[[HI]]]
// CHECK: %[[LOSS:.*]] = arith.subf %[[LSE]], %[[PICK]]
// CHECK: arith.addf %[[ACC]], %[[LOSS]]
// CHECK: %[[B:.*]] = tensor.dim %[[X]], %c0
// CHECK: arith.index_cast %[[B]]
// CHECK: arith.divf
func.func @cross_entropy(%x: tensor<?x?xf32>, %l: tensor<?xi32>) -> tensor<f32> {
  %r = choir.cross_entropy %x, %l : tensor<?x?xf32>, tensor<?xi32> -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// nll: minus the mean of the picked log-probabilities.
// CHECK-LABEL: func.func @nll
// CHECK: %[[CLASSES:.*]] = tensor.dim %arg0, %c1{{(_[0-9]+)?}} : tensor<?x10xf32>
// CHECK: %[[UP:.*]] = arith.subi %[[CLASSES]], %c1
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction"]} ins(%arg1 : tensor<?xi32>)
// CHECK: arith.minsi %{{.*}}, %[[UP]]
// CHECK: %[[PICK:.*]] = tensor.extract %arg0
// CHECK: %[[NEG:.*]] = arith.negf %[[PICK]]
// CHECK: arith.addf %{{.*}}, %[[NEG]]
// CHECK: arith.divf
func.func @nll(%x: tensor<?x10xf32>, %l: tensor<?xi32>) -> tensor<f32> {
  %r = choir.nll %x, %l : tensor<?x10xf32>, tensor<?xi32> -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// f16 scores accumulate in f32 and the loss is truncated at the end.
// CHECK-LABEL: func.func @half
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: -> tensor<f16>
func.func @half(%x: tensor<?x10xf16>, %l: tensor<?xi32>) -> tensor<f16> {
  %r = choir.nll %x, %l : tensor<?x10xf16>, tensor<?xi32> -> tensor<f16>
  return %r : tensor<f16>
}
