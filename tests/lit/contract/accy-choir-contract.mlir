// RUN: accy-opt %s --accy-choir-contract | FileCheck %s
// RUN: accy-opt %s --accy-choir-contract --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s --check-prefix=LOC

// The whole stage on a semantic product with three kernels. After it every
// elementwise op has operands of exactly its result type.

module {
  // The softmax written with the max subtraction: saturation sees that the
  // shift is constant along the axis.
  // CHECK-LABEL: module @softmax attributes {accy.kernel = "softmax"}
  // CHECK: func.func @softmax(%[[X:.*]]: tensor<?x?xf32> {choir.dims = ["N", "D"]}) -> (tensor<?x?xf32> {choir.dims = ["N", "D"]}) attributes {choir.kernel, choir.layout = "row-major"}
  // CHECK: %[[S:.*]] = choir.softmax %[[X]] {axis = 1 : i64} : tensor<?x?xf32>
  // CHECK-NEXT: return %[[S]]
  module @softmax attributes {accy.kernel = "softmax"} {
    func.func @softmax(%x: tensor<?x?xf32> {choir.dims = ["N", "D"]}) -> (tensor<?x?xf32> {choir.dims = ["N", "D"]}) attributes {choir.kernel} {
      %m = choir.reduce max %x {axes = array<i64: 1>, keepdims = true} : tensor<?x?xf32> -> tensor<?x1xf32> loc("softmax#3")
      %d = choir.sub %x, %m : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32> loc("softmax#4")
      %s = choir.softmax %d {axis = 1 : i64} : tensor<?x?xf32> loc("softmax#5")
      return %s : tensor<?x?xf32>
    }
  }

  // mlp: the bias broadcasts explicitly, the transposed weight is read
  // through the einsum spec, `@` keeps its spec.
  // CHECK-LABEL: module @mlp attributes {accy.kernel = "mlp"}
  // CHECK: func.func @mlp(%[[X:[^:]*]]: tensor<?x784xf32> {{.*}}, %[[W1:[^:]*]]: tensor<256x784xf32> {{.*}}, %[[B1:[^:]*]]: tensor<256xf32> {{.*}}, %[[W2:[^:]*]]: tensor<256x10xf32>
  // CHECK: %[[N:.*]] = tensor.dim %[[X]], %c0
  // CHECK: %[[H:.*]] = choir.einsum "bi,ji->bj" %[[X]], %[[W1]] : (tensor<?x784xf32>, tensor<256x784xf32>) -> tensor<?x256xf32>
  // CHECK: %[[BB:.*]] = choir.broadcast %[[B1]] sizes(%[[N]]) : tensor<256xf32> -> tensor<?x256xf32>
  // CHECK: %[[A:.*]] = choir.add %[[H]], %[[BB]] : tensor<?x256xf32>, tensor<?x256xf32> -> tensor<?x256xf32>
  // CHECK: %[[R:.*]] = choir.relu %[[A]]
  // CHECK: choir.einsum "...ij,...jk->...ik" %[[R]], %[[W2]]
  // LOC-LABEL: module @mlp
  // LOC: choir.einsum "bi,ji->bj" {{.*}} loc("mlp#4")
  // LOC: choir.broadcast {{.*}} loc("mlp#5")
  // LOC: choir.add {{.*}} loc("mlp#5")
  module @mlp attributes {accy.kernel = "mlp"} {
    func.func @mlp(%x: tensor<?x784xf32> {choir.dims = ["B", 784]}, %w1: tensor<256x784xf32> {choir.dims = [256, 784]}, %b1: tensor<256xf32> {choir.dims = [256]}, %w2: tensor<256x10xf32> {choir.dims = [256, 10]}) -> (tensor<?x10xf32> {choir.dims = ["B", 10]}) attributes {choir.kernel} {
      %t = choir.transpose %w1 {perm = array<i64: 1, 0>} : tensor<256x784xf32> -> tensor<784x256xf32> loc("mlp#3")
      %0 = choir.einsum "bi,ij->bj" %x, %t : (tensor<?x784xf32>, tensor<784x256xf32>) -> tensor<?x256xf32> loc("mlp#4")
      %1 = choir.add %0, %b1 : tensor<?x256xf32>, tensor<256xf32> -> tensor<?x256xf32> loc("mlp#5")
      %2 = choir.relu %1 : tensor<?x256xf32> loc("mlp#6")
      %3 = choir.einsum "...ij,...jk->...ik" %2, %w2 : (tensor<?x256xf32>, tensor<256x10xf32>) -> tensor<?x10xf32> loc("mlp#8")
      return %3 : tensor<?x10xf32>
    }
  }

  // Constants: `x * 1.0` disappears, `2.0 * 3.0` folds, the scalar
  // broadcast to a static shape becomes a splat constant; the dynamic one
  // stays a broadcast of the scalar.
  // CHECK-LABEL: module @scale attributes {accy.kernel = "scale"}
  // CHECK-DAG: %[[SIX:.*]] = choir.constant dense<6.000000e+00> : tensor<4xf32>
  // CHECK-DAG: %[[S:.*]] = choir.constant dense<6.000000e+00> : tensor<f32>
  // CHECK: %[[A:.*]] = choir.mul %arg0, %[[SIX]] : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  // CHECK: %[[B:.*]] = choir.broadcast %[[S]] sizes(%{{.*}}) : tensor<f32> -> tensor<?xf32>
  // CHECK: %[[C:.*]] = choir.mul %arg1, %[[B]] : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
  // CHECK: return %[[A]], %[[C]]
  module @scale attributes {accy.kernel = "scale"} {
    func.func @scale(%x: tensor<4xf32> {choir.dims = [4]}, %y: tensor<?xf32> {choir.dims = ["N"]}) -> (tensor<4xf32> {choir.dims = [4]}, tensor<?xf32> {choir.dims = ["N"]}) attributes {choir.kernel} {
      %one = choir.constant dense<1.0> : tensor<f32>
      %two = choir.constant dense<2.0> : tensor<f32>
      %three = choir.constant dense<3.0> : tensor<f32>
      %six = choir.mul %two, %three : tensor<f32>, tensor<f32> -> tensor<f32>
      %a0 = choir.mul %x, %one : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
      %a = choir.mul %a0, %six : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
      %c = choir.mul %y, %six : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
      return %a, %c : tensor<4xf32>, tensor<?xf32>
    }
  }
}
