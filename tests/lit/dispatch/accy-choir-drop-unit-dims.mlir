// RUN: accy-opt %s --split-input-file --pass-pipeline='builtin.module(builtin.module(accy-choir-drop-unit-dims),canonicalize)' | FileCheck %s

// rsqrt(mean + EPS) over an N x 1 statistic: the named broadcast of the
// scalar is generalized, every generic loses its unit loop, and the
// expand/collapse pair around the N x 1 ops cancels.
#id1 = affine_map<(i) -> (i)>
#id2 = affine_map<(i, j) -> (i, j)>
module {
  module @k attributes {accy.kernel = "k"} {
    func.func @k(%mean: tensor<?xf32>, %out: tensor<?xf32> {accy.result = 0 : i64}) -> tensor<?xf32> attributes {accy.entry} {
      %c0 = arith.constant 0 : index
      %n = tensor.dim %mean, %c0 : tensor<?xf32>
      %eps = arith.constant 1.0e-5 : f32
      %s0 = tensor.empty() : tensor<f32>
      %s = linalg.fill ins(%eps : f32) outs(%s0 : tensor<f32>) -> tensor<f32>
      %m = tensor.expand_shape %mean [[0, 1]] output_shape [%n, 1] : tensor<?xf32> into tensor<?x1xf32>
      %e0 = tensor.empty(%n) : tensor<?x1xf32>
      %b = linalg.broadcast ins(%s : tensor<f32>) outs(%e0 : tensor<?x1xf32>) dimensions = [0, 1]
      %e1 = tensor.empty(%n) : tensor<?x1xf32>
      %r = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%m, %b : tensor<?x1xf32>, tensor<?x1xf32>) outs(%e1 : tensor<?x1xf32>) {
      ^bb0(%a: f32, %c: f32, %o: f32):
        %t = arith.addf %a, %c : f32
        %q = math.rsqrt %t : f32
        linalg.yield %q : f32
      } -> tensor<?x1xf32>
      %c = tensor.collapse_shape %r [[0, 1]] : tensor<?x1xf32> into tensor<?xf32>
      %w = bufferization.materialize_in_destination %c in %out : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      return %w : tensor<?xf32>
    }
  }
}

// CHECK-LABEL: func.func @k(
// CHECK-SAME:    %[[MEAN:[a-z0-9]+]]: tensor<?xf32>
// CHECK-NOT:     tensor.expand_shape
// CHECK-NOT:     linalg.broadcast
// CHECK:         %[[FILL:.+]] = linalg.fill {{.+}} -> tensor<f32>
// CHECK:         %[[BCAST:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel"]
// CHECK-SAME:      ins(%[[FILL]] : tensor<f32>) outs(%{{.+}} : tensor<?xf32>)
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel"]
// CHECK-SAME:      ins(%[[MEAN]], %[[BCAST]] : tensor<?xf32>, tensor<?xf32>)
// CHECK:           math.rsqrt
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         bufferization.materialize_in_destination %[[R]]

// -----

// A scan keeps its loops, unit ones included: its tag names the role of
// each loop, and a rebuilt generic would not carry it.
#in = affine_map<(i, j, k) -> (i, k)>
#out = affine_map<(i, j, k) -> (i, j)>
module {
  module @s attributes {accy.kernel = "s"} {
    func.func @s(%x: tensor<1x?xf32>, %out: tensor<1x?xf32> {accy.result = 0 : i64}) -> tensor<1x?xf32> attributes {accy.entry} {
      %c1 = arith.constant 1 : index
      %d = tensor.dim %x, %c1 : tensor<1x?xf32>
      %zero = arith.constant 0.0 : f32
      %e = tensor.empty(%d) : tensor<1x?xf32>
      %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x?xf32>) -> tensor<1x?xf32>
      %scan = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<1x?xf32>) outs(%f : tensor<1x?xf32>) attrs = {choir.scan = #choir<scan_kind cumsum>} {
      ^bb0(%a: f32, %acc: f32):
        %j = linalg.index 1 : index
        %k = linalg.index 2 : index
        %keep = arith.cmpi ule, %k, %j : index
        %s = arith.addf %acc, %a : f32
        %r = arith.select %keep, %s, %acc : f32
        linalg.yield %r : f32
      } -> tensor<1x?xf32>
      %w = bufferization.materialize_in_destination %scan in %out : (tensor<1x?xf32>, tensor<1x?xf32>) -> tensor<1x?xf32>
      return %w : tensor<1x?xf32>
    }
  }
}

// CHECK-LABEL: func.func @s(
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%{{.+}} : tensor<1x?xf32>)
// CHECK-SAME:      choir.scan = #choir<scan_kind cumsum>
