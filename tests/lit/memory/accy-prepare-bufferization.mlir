// RUN: accy-opt %s --split-input-file --pass-pipeline='builtin.module(builtin.module(accy-prepare-bufferization))' | FileCheck %s

// Inputs become read-only for bufferization; a tensor.empty shared by two
// ops (as CSE leaves them) is split so each output can be placed apart.

module {
  module @k attributes {accy.kernel = "k"} {
    func.func @k(%x: tensor<?xf32>, %o0: tensor<?xf32> {accy.result = 0 : i64}, %o1: tensor<?xf32> {accy.result = 1 : i64}) -> (tensor<?xf32>, tensor<?xf32>) attributes {accy.entry} {
      %c0 = arith.constant 0 : index
      %n = tensor.dim %x, %c0 : tensor<?xf32>
      %e = tensor.empty(%n) : tensor<?xf32>
      %a = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
      ^bb0(%v: f32, %o: f32):
        %t = math.exp %v : f32
        linalg.yield %t : f32
      } -> tensor<?xf32>
      %b = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
      ^bb0(%v: f32, %o: f32):
        %t = math.log %v : f32
        linalg.yield %t : f32
      } -> tensor<?xf32>
      %r0 = bufferization.materialize_in_destination %a in %o0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      %r1 = bufferization.materialize_in_destination %b in %o1 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      return %r0, %r1 : tensor<?xf32>, tensor<?xf32>
    }
  }
}

// CHECK-LABEL: func.func @k(
// CHECK-SAME:    %{{.+}}: tensor<?xf32> {bufferization.writable = false},
// CHECK-SAME:    %{{.+}}: tensor<?xf32> {accy.result = 0 : i64},
// CHECK-SAME:    %{{.+}}: tensor<?xf32> {accy.result = 1 : i64})
// CHECK:         %[[E0:.+]] = tensor.empty
// CHECK:         linalg.generic {{.*}} outs(%[[E0]] :
// CHECK:         %[[E1:.+]] = tensor.empty
// CHECK:         linalg.generic {{.*}} outs(%[[E1]] :

// -----

// One value returned as two results is written into the first output and
// copied from there into the second: two writes of it into both outputs
// left one-shot bufferization with a read-after-write conflict it could not
// avoid (`return (s, s)`).

module {
  module @twice attributes {accy.kernel = "twice"} {
    func.func @twice(%x: tensor<?xf32>, %o0: tensor<?xf32> {accy.result = 0 : i64}, %o1: tensor<?xf32> {accy.result = 1 : i64}, %o2: tensor<?xf32> {accy.result = 2 : i64}) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) attributes {accy.entry} {
      %c0 = arith.constant 0 : index
      %n = tensor.dim %x, %c0 : tensor<?xf32>
      %e = tensor.empty(%n) : tensor<?xf32>
      %a = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
      ^bb0(%v: f32, %o: f32):
        %t = math.exp %v : f32
        linalg.yield %t : f32
      } -> tensor<?xf32>
      %r0 = bufferization.materialize_in_destination %a in %o0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      %r1 = bufferization.materialize_in_destination %a in %o1 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      return %r0, %r1, %a : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
    }
  }
}

// CHECK-LABEL: func.func @twice(
// CHECK-SAME:    %{{.+}}: tensor<?xf32> {bufferization.writable = false}, %[[O0:[^:]+]]: tensor<?xf32> {accy.result = 0 : i64}, %[[O1:[^:]+]]: tensor<?xf32> {accy.result = 1 : i64}, %[[O2:[^:]+]]: tensor<?xf32> {accy.result = 2 : i64})
// CHECK:         %[[A:.+]] = linalg.generic
// CHECK:         %[[R0:.+]] = bufferization.materialize_in_destination %[[A]] in %[[O0]]
// CHECK-NOT:     bufferization.materialize_in_destination %[[A]]
// CHECK:         %[[R1:.+]] = bufferization.materialize_in_destination %[[R0]] in %[[O1]]
// CHECK-NEXT:    %[[R2:.+]] = bufferization.materialize_in_destination %[[R0]] in %[[O2]]
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]]

// -----

// A tensor.reshape keeps the type tensor<?x?xf32> while it changes the
// sizes (reshape(transpose(x), [N, D])). Empty tensor elimination, which
// checks only types, would place the transpose's D x N empty in the N x D
// output; the tensor a reshape reads gets a buffer of its own instead.

module {
  module @rt attributes {accy.kernel = "rt"} {
    func.func @rt(%x: tensor<?x?xf32>, %o0: tensor<?x?xf32> {accy.result = 0 : i64}) -> tensor<?x?xf32> attributes {accy.entry} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = tensor.dim %x, %c0 : tensor<?x?xf32>
      %d = tensor.dim %x, %c1 : tensor<?x?xf32>
      %e = tensor.empty(%d, %n) : tensor<?x?xf32>
      %t = linalg.transpose ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) permutation = [1, 0]
      %shape = tensor.from_elements %n, %d : tensor<2xindex>
      %r = tensor.reshape %t(%shape) : (tensor<?x?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
      %m = bufferization.materialize_in_destination %r in %o0 : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
      return %m : tensor<?x?xf32>
    }
  }
}

// CHECK-LABEL: func.func @rt(
// CHECK-NOT:     tensor.empty
// CHECK:         %[[BUF:.+]] = bufferization.alloc_tensor(%{{.+}}, %{{.+}}) : tensor<?x?xf32>
// CHECK:         linalg.transpose ins(%{{.+}} : tensor<?x?xf32>) outs(%[[BUF]] : tensor<?x?xf32>)
// CHECK:         tensor.reshape
