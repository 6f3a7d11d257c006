// RUN: accy-opt %s --split-input-file --accy-choir-indexing-lower | FileCheck %s

// CHECK-LABEL: func.func @transpose
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<8x?xf32>
// CHECK: %[[T:.*]] = linalg.transpose ins(%arg0 : tensor<?x8xf32>) outs(%[[E]] : tensor<8x?xf32>) permutation = [1, 0]
// CHECK: return %[[T]]
func.func @transpose(%x: tensor<?x8xf32>) -> tensor<8x?xf32> {
  %t = choir.transpose %x {perm = array<i64: 1, 0>} : tensor<?x8xf32> -> tensor<8x?xf32>
  return %t : tensor<8x?xf32>
}

// -----

// A broadcast collapses the size-1 dimensions it expands, then adds
// dimensions with linalg.broadcast; sizes come from the op's size operands
// (here the first one is tensor.dim of the input).
// CHECK-LABEL: func.func @broadcast
// CHECK-SAME: (%[[X:.*]]: tensor<?x1xf32>, %[[S:.*]]: tensor<f32>, %[[N:.*]]: index, %[[M:.*]]: index)
// CHECK: %[[D:.*]] = tensor.dim %[[X]], %c0
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1]] : tensor<?x1xf32> into tensor<?xf32>
// CHECK: %[[E:.*]] = tensor.empty(%[[D]]) : tensor<?x3xf32>
// CHECK: %[[B:.*]] = linalg.broadcast ins(%[[C]] : tensor<?xf32>) outs(%[[E]] : tensor<?x3xf32>) dimensions = [1]
// CHECK: %[[E2:.*]] = tensor.empty(%[[N]], %[[M]]) : tensor<?x?xf32>
// CHECK: %[[B2:.*]] = linalg.broadcast ins(%[[S]] : tensor<f32>) outs(%[[E2]] : tensor<?x?xf32>) dimensions = [0, 1]
// CHECK: return %[[B]], %[[B2]]
func.func @broadcast(%x: tensor<?x1xf32>, %s: tensor<f32>, %n: index, %m: index) -> (tensor<?x3xf32>, tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?x1xf32>
  %b = choir.broadcast %x sizes(%d) : tensor<?x1xf32> -> tensor<?x3xf32>
  %b2 = choir.broadcast %s sizes(%n, %m) : tensor<f32> -> tensor<?x?xf32>
  return %b, %b2 : tensor<?x3xf32>, tensor<?x?xf32>
}

// -----

// Reshapes: collapse_shape and expand_shape where the grouping is certain
// (through rank 1 when there is no grouping but at most one dynamic size),
// tensor.reshape otherwise.
// CHECK-LABEL: func.func @reshape
// CHECK-SAME: (%[[X:.*]]: tensor<?x4x8xf32>, %[[Y:.*]]: tensor<?x?xf32>, %[[A:.*]]: index, %[[B:.*]]: index, %[[S:.*]]: tensor<6x4xf32>
// CHECK: tensor.collapse_shape %[[X]] {{\[}}[0], [1, 2]] : tensor<?x4x8xf32> into tensor<?x32xf32>
// CHECK: tensor.expand_shape %[[X]] {{\[}}[0], [1, 2], [3]] output_shape [%[[A]], 2, 2, 8] : tensor<?x4x8xf32> into tensor<?x2x2x8xf32>
// CHECK: tensor.expand_shape %[[S]] {{\[}}[0, 1], [2]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
// CHECK: %[[SHAPE:.*]] = tensor.from_elements %[[B]], %[[A]] : tensor<2xindex>
// CHECK: tensor.reshape %[[Y]](%[[SHAPE]]) : (tensor<?x?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
func.func @reshape(%x: tensor<?x4x8xf32>, %y: tensor<?x?xf32>, %a: index, %b: index, %s: tensor<6x4xf32>) -> (tensor<?x32xf32>, tensor<?x2x2x8xf32>, tensor<2x3x4xf32>, tensor<?x?xf32>) {
  %r0 = choir.reshape %x sizes(%a) : tensor<?x4x8xf32> -> tensor<?x32xf32>
  %r1 = choir.reshape %x sizes(%a) : tensor<?x4x8xf32> -> tensor<?x2x2x8xf32>
  %r2 = choir.reshape %s : tensor<6x4xf32> -> tensor<2x3x4xf32>
  %r3 = choir.reshape %y sizes(%b, %a) : tensor<?x?xf32> -> tensor<?x?xf32>
  return %r0, %r1, %r2, %r3 : tensor<?x32xf32>, tensor<?x2x2x8xf32>, tensor<2x3x4xf32>, tensor<?x?xf32>
}

// -----

// Dropping a point axis (x[:, 2]) is a slice then a collapse.
// CHECK-LABEL: func.func @slice
// CHECK: %[[S:.*]] = tensor.extract_slice %arg0[0, 2] [%{{.*}}, 1] [1, 1] : tensor<?x8xf32> to tensor<?x1xf32>
// CHECK: tensor.collapse_shape %[[S]] {{\[}}[0, 1]] : tensor<?x1xf32> into tensor<?xf32>
// CHECK: tensor.extract_slice %arg0[%arg1, 0] [3, 8] [1, 1] : tensor<?x8xf32> to tensor<3x8xf32>
func.func @slice(%x: tensor<?x8xf32>, %start: index) -> (tensor<?xf32>, tensor<3x8xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %s = choir.slice %x [0, 2] [%n, 1] : tensor<?x8xf32> -> tensor<?x1xf32>
  %p = choir.reshape %s sizes(%n) : tensor<?x1xf32> -> tensor<?xf32>
  %t = choir.slice %x [%start, 0] [3, 8] : tensor<?x8xf32> -> tensor<3x8xf32>
  return %p, %t : tensor<?xf32>, tensor<3x8xf32>
}

// -----

// take: a generic over the result, reading the input with tensor.extract at
// the index clamped to [0, size - 1].
// CHECK-DAG: #[[IDX:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @take
// CHECK-SAME: (%[[X:.*]]: tensor<?x?x4xf32>, %[[I:.*]]: tensor<?xi32>)
// CHECK: %[[SIZE:.*]] = tensor.dim %[[X]], %c1
// CHECK: %[[UP:.*]] = arith.subi %[[SIZE]], %c1
// CHECK: linalg.generic {indexing_maps = [#[[IDX]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[I]] : tensor<?xi32>)
// CHECK: ^bb0(%[[V:.*]]: i32, %{{.*}}: f32):
// CHECK: %[[C:.*]] = arith.index_cast %[[V]] : i32 to index
// CHECK: %[[LO:.*]] = arith.maxsi %[[C]], %c0
// CHECK: %[[HI:.*]] = arith.minsi %[[LO]], %[[UP]]
// CHECK: %[[R:.*]] = linalg.index 0
// CHECK: %[[L:.*]] = linalg.index 2
// CHECK: %[[E:.*]] = tensor.extract %[[X]][%[[R]], %[[HI]], %[[L]]]
// CHECK: linalg.yield %[[E]]
func.func @take(%x: tensor<?x?x4xf32>, %i: tensor<?xi32>) -> tensor<?x?x4xf32> {
  %r = choir.take %x, %i {axis = 1 : i64} : tensor<?x?x4xf32>, tensor<?xi32> -> tensor<?x?x4xf32>
  return %r : tensor<?x?x4xf32>
}

// -----

// concat: insert_slice into an empty tensor at running offsets.
// CHECK-LABEL: func.func @concat
// CHECK-SAME: (%[[A:.*]]: tensor<?x2xf32>, %[[B:.*]]: tensor<?x3xf32>)
// CHECK: %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<?x5xf32>
// CHECK: %[[I0:.*]] = tensor.insert_slice %[[A]] into %[[E]][0, 0] [%{{.*}}, 2] [1, 1]
// CHECK: %[[I1:.*]] = tensor.insert_slice %[[B]] into %[[I0]][0, 2] [%{{.*}}, 3] [1, 1]
// CHECK: return %[[I1]]
func.func @concat(%a: tensor<?x2xf32>, %b: tensor<?x3xf32>) -> tensor<?x5xf32> {
  %r = choir.concat %a, %b {axis = 1 : i64} : (tensor<?x2xf32>, tensor<?x3xf32>) -> tensor<?x5xf32>
  return %r : tensor<?x5xf32>
}

// -----

// cumsum: out[i] = sum over j <= i, a reduction loop masked by j <= i,
// tagged for the dispatch stage's scan schedule.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @cumsum
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[F:.*]] = linalg.fill ins(%[[ZERO]] : f32)
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0 : tensor<?x8xf32>) outs(%[[F]] : tensor<?x8xf32>) attrs = {{ *}}{choir.scan = #choir<scan_kind cumsum>}
// CHECK: ^bb0(%[[X:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK: %[[I:.*]] = linalg.index 1
// CHECK: %[[J:.*]] = linalg.index 2
// CHECK: %[[IN_RANGE:.*]] = arith.cmpi ule, %[[J]], %[[I]]
// CHECK: %[[V:.*]] = arith.select %[[IN_RANGE]], %[[X]], %[[ZERO]]
// CHECK: arith.addf %[[ACC]], %[[V]]
func.func @cumsum(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %r = choir.scan cumsum %x {axis = 1 : i64} : tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}

// -----

// cummax starts from -inf and takes maxima.
// CHECK-LABEL: func.func @cummax
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: choir.scan = #choir<scan_kind cummax>
// CHECK: arith.maximumf
func.func @cummax(%x: tensor<16xf32>) -> tensor<16xf32> {
  %r = choir.scan cummax %x {axis = 0 : i64} : tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// No grouping from [6, 4] to [8, 3]: through rank 1.
// CHECK-LABEL: func.func @reshape_rank_one
// CHECK: %[[F:.*]] = tensor.collapse_shape %arg0 {{\[}}[0, 1]] : tensor<6x4xf32> into tensor<24xf32>
// CHECK: tensor.expand_shape %[[F]] {{\[}}[0, 1]] output_shape [8, 3] : tensor<24xf32> into tensor<8x3xf32>
func.func @reshape_rank_one(%s: tensor<6x4xf32>) -> tensor<8x3xf32> {
  %r = choir.reshape %s : tensor<6x4xf32> -> tensor<8x3xf32>
  return %r : tensor<8x3xf32>
}
