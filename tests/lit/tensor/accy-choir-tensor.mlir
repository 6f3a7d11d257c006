// RUN: accy-opt %s --accy-choir-tensor | FileCheck %s
// RUN: accy-opt %s --accy-choir-tensor | FileCheck %s --check-prefix=NOCHOIR --implicit-check-not="= choir."
// RUN: accy-opt %s --accy-choir-tensor | accy-opt --eliminate-empty-tensors --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --drop-equivalent-buffer-results | FileCheck %s --check-prefix=BUF

// The whole stage on contract products: no choir op is left, every kernel
// is in destination-passing style, dynamic sizes are tensor.dim of the
// arguments, and the result bufferizes with the standard upstream path.

// NOCHOIR: module @softmax
// NOCHOIR: module @mlp
// NOCHOIR: module @xent
// NOCHOIR: module @losses
// CHECK-LABEL: module @softmax attributes {accy.kernel = "softmax"}
// CHECK: func.func @softmax(%[[X:.*]]: tensor<?x?xf32> {choir.dims = ["N", "D"]}, %[[OUT:.*]]: tensor<?x?xf32> {accy.result = 0 : i64, choir.dims = ["N", "D"]}) -> tensor<?x?xf32> attributes {accy.entry} {
// CHECK-DAG: %[[D:.*]] = tensor.dim %[[X]], %c1
// CHECK-DAG: %[[N:.*]] = tensor.dim %[[X]], %c0
// CHECK: %[[ROW:.*]] = tensor.empty(%[[N]]) : tensor<?xf32>
// CHECK: %[[MINIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[ROW]] : tensor<?xf32>)
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} outs(%[[MINIT]] : tensor<?xf32>)
// CHECK: arith.maximumf
// CHECK: %[[FULL:.*]] = tensor.empty(%[[N]], %[[D]]) : tensor<?x?xf32>
// CHECK: %[[MB:.*]] = linalg.broadcast ins(%[[MAX]] : tensor<?xf32>) outs(%[[FULL]] : tensor<?x?xf32>) dimensions = [1]
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: arith.addf
// CHECK: linalg.broadcast
// CHECK: %[[R:.*]] = linalg.generic
// CHECK: arith.divf
// CHECK: %[[M:.*]] = bufferization.materialize_in_destination %[[R]] in %[[OUT]] : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK: return %[[M]] : tensor<?x?xf32>

// CHECK-LABEL: module @mlp attributes {accy.kernel = "mlp"}
// CHECK: func.func @mlp(%[[X:[^:]*]]: tensor<?x784xf32> {{.*}}, %[[W1:[^:]*]]: tensor<784x256xf32> {{.*}}, %[[B1:[^:]*]]: tensor<256xf32> {{.*}}, %[[W2:[^:]*]]: tensor<256x10xf32> {{.*}}, %[[OUT:[^:]*]]: tensor<?x10xf32> {accy.result = 0 : i64, choir.dims = ["B", 10]}) -> tensor<?x10xf32> attributes {accy.entry}
// CHECK: %[[B:.*]] = tensor.dim %[[X]], %c0
// CHECK: %[[H0:.*]] = tensor.empty(%[[B]]) : tensor<?x256xf32>
// CHECK: %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[H0]] : tensor<?x256xf32>)
// CHECK: %[[H:.*]] = linalg.matmul ins(%[[X]], %[[W1]] : tensor<?x784xf32>, tensor<784x256xf32>) outs(%[[Z]] : tensor<?x256xf32>)
// CHECK: %[[BB:.*]] = linalg.broadcast ins(%[[B1]] : tensor<256xf32>)
// CHECK: %[[A:.*]] = linalg.generic {{.*}} ins(%[[H]], %[[BB]] : tensor<?x256xf32>, tensor<?x256xf32>)
// CHECK: arith.addf
// CHECK: %[[RELU:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<?x256xf32>)
// CHECK: arith.maximumf
// CHECK: %[[Y:.*]] = linalg.matmul ins(%[[RELU]], %[[W2]] : tensor<?x256xf32>, tensor<256x10xf32>)
// CHECK: bufferization.materialize_in_destination %[[Y]] in %[[OUT]]

// A scalar result is a rank-0 out argument.
// CHECK-LABEL: module @xent attributes {accy.kernel = "xent"}
// CHECK: func.func @xent(%{{.*}}: tensor<?x?xf32> {choir.dims = ["B", "C"]}, %{{.*}}: tensor<?xi32> {choir.dims = ["B"]}, %[[OUT:.*]]: tensor<f32> {accy.result = 0 : i64, choir.dims = []}) -> tensor<f32> attributes {accy.entry}
// CHECK: math.log
// CHECK: tensor.extract
// CHECK: bufferization.materialize_in_destination %{{.*}} in %[[OUT]] : (tensor<f32>, tensor<f32>) -> tensor<f32>

// BUF-LABEL: func.func @softmax(%{{.*}}: memref<?x?xf32> {{.*}}, %{{.*}}: memref<?x?xf32>
// BUF-NOT: tensor.empty
// BUF-LABEL: func.func @mlp(
// BUF: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<?x784xf32>, memref<784x256xf32>)
// BUF-LABEL: func.func @xent(

// Two scalar results: each result's accumulator gets its own empty tensor,
// so both write their out arguments without a conflict.
// CHECK-LABEL: module @losses
// CHECK: func.func @losses({{.*}}, %[[O0:[^:]*]]: tensor<f32> {accy.result = 0 : i64, choir.dims = []}, %[[O1:[^:]*]]: tensor<f32> {accy.result = 1 : i64, choir.dims = []}) -> (tensor<f32>, tensor<f32>)
// CHECK: %[[M:.*]] = linalg.generic {{.*}}iterator_types = []{{.*}} outs(%[[E0:[a-z0-9_]+]] : tensor<f32>)
// CHECK-NOT: outs(%[[E0]] : tensor<f32>)
// CHECK: %[[N:.*]] = linalg.generic {{.*}}iterator_types = []{{.*}} outs(%{{.*}} : tensor<f32>)
// CHECK: bufferization.materialize_in_destination %[[M]] in %[[O0]]
// CHECK: bufferization.materialize_in_destination %[[N]] in %[[O1]]
// BUF-LABEL: func.func @losses(

module {
  module @softmax attributes {accy.kernel = "softmax"} {
    func.func @softmax(%arg0: tensor<?x?xf32> {choir.dims = ["N", "D"]}) -> (tensor<?x?xf32> {choir.dims = ["N", "D"]}) attributes {choir.kernel, choir.layout = "row-major"} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %dim = tensor.dim %arg0, %c1 : tensor<?x?xf32>
      %dim_0 = tensor.dim %arg0, %c0 : tensor<?x?xf32>
      %0 = choir.reduce  max %arg0 {axes = array<i64: 1>, keepdims = true} : tensor<?x?xf32> -> tensor<?x1xf32>
      %1 = choir.broadcast %0 sizes(%dim_0, %dim) : tensor<?x1xf32> -> tensor<?x?xf32>
      %2 = choir.sub %arg0, %1 : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
      %3 = choir.exp %2 : tensor<?x?xf32>
      %4 = choir.reduce  sum %3 {axes = array<i64: 1>, keepdims = true} : tensor<?x?xf32> -> tensor<?x1xf32>
      %5 = choir.broadcast %4 sizes(%dim_0, %dim) : tensor<?x1xf32> -> tensor<?x?xf32>
      %6 = choir.div %3, %5 : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
      return %6 : tensor<?x?xf32>
    }
  }
  module @mlp attributes {accy.kernel = "mlp"} {
    func.func @mlp(%arg0: tensor<?x784xf32> {choir.dims = ["B", 784]}, %arg1: tensor<784x256xf32> {choir.dims = [784, 256]}, %arg2: tensor<256xf32> {choir.dims = [256]}, %arg3: tensor<256x10xf32> {choir.dims = [256, 10]}) -> (tensor<?x10xf32> {choir.dims = ["B", 10]}) attributes {choir.kernel, choir.layout = "row-major"} {
      %c0 = arith.constant 0 : index
      %dim = tensor.dim %arg0, %c0 : tensor<?x784xf32>
      %0 = choir.einsum "bi,ij->bj" %arg0, %arg1 : (tensor<?x784xf32>, tensor<784x256xf32>) -> tensor<?x256xf32>
      %1 = choir.broadcast %arg2 sizes(%dim) : tensor<256xf32> -> tensor<?x256xf32>
      %2 = choir.add %0, %1 : tensor<?x256xf32>, tensor<?x256xf32> -> tensor<?x256xf32>
      %3 = choir.relu %2 : tensor<?x256xf32>
      %4 = choir.einsum "...ij,...jk->...ik" %3, %arg3 : (tensor<?x256xf32>, tensor<256x10xf32>) -> tensor<?x10xf32>
      return %4 : tensor<?x10xf32>
    }
  }
  module @xent attributes {accy.kernel = "xent"} {
    func.func @xent(%arg0: tensor<?x?xf32> {choir.dims = ["B", "C"]}, %arg1: tensor<?xi32> {choir.dims = ["B"]}) -> (tensor<f32> {choir.dims = []}) attributes {choir.kernel, choir.layout = "row-major"} {
      %0 = choir.cross_entropy %arg0, %arg1 : tensor<?x?xf32>, tensor<?xi32> -> tensor<f32>
      return %0 : tensor<f32>
    }
  }
  module @losses attributes {accy.kernel = "losses"} {
    func.func @losses(%arg0: tensor<?x?xf32> {choir.dims = ["B", "C"]}, %arg1: tensor<?x?xf32> {choir.dims = ["B", "C"]}, %arg2: tensor<?xi32> {choir.dims = ["B"]}) -> (tensor<f32> {choir.dims = []}, tensor<f32> {choir.dims = []}) attributes {choir.kernel, choir.layout = "row-major"} {
      %0 = choir.mse %arg0, %arg1 : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<f32>
      %1 = choir.log_softmax %arg0 {axis = 1 : i64} : tensor<?x?xf32>
      %2 = choir.nll %1, %arg2 : tensor<?x?xf32>, tensor<?xi32> -> tensor<f32>
      return %0, %2 : tensor<f32>, tensor<f32>
    }
  }
}
