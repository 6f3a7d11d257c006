// RUN: accy-opt %s --accy-expand-strided-metadata | FileCheck %s

// A view op becomes its base's strided metadata and affine arithmetic on
// offsets and strides, as upstream's expand-strided-metadata does.
// CHECK-LABEL: func.func @subview
// CHECK:         %[[BASE:.*]], %[[OFFSET:.*]], %[[SIZES:.*]]:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %arg0
// CHECK:         affine.apply
// CHECK:         memref.reinterpret_cast %[[BASE]]
// CHECK-NOT:     memref.subview
func.func @subview(%m: memref<?x?xf32>, %i: index, %j: index)
    -> memref<4x4xf32, strided<[?, 1], offset: ?>> {
  %v = memref.subview %m[%i, %j] [4, 4] [1, 1]
      : memref<?x?xf32> to memref<4x4xf32, strided<[?, 1], offset: ?>>
  return %v : memref<4x4xf32, strided<[?, 1], offset: ?>>
}

// Only the ops the patterns rewrite (and the ops they create) are visited:
// arithmetic the kernel stage left is not folded again.
// CHECK-LABEL: func.func @untouched
// CHECK:         %[[SUM:.*]] = arith.addi %c1, %c2
// CHECK:         return %[[SUM]]
func.func @untouched() -> index {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %sum = arith.addi %c1, %c2 : index
  return %sum : index
}
