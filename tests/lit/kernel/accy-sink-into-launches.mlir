// RUN: accy-opt %s --split-input-file --accy-sink-into-launches | FileCheck %s

// The divisor of a mean is computed from a dimension of the input: the
// whole computation moves into the kernel, which then takes the input
// memref instead of an f32 no runtime could describe.

module {
  module @mean attributes {accy.kernel = "mean"} {
    func.func @mean__sm_90(%x: memref<?x?xf32>, %s: memref<?xf32>, %out: memref<?xf32>) attributes {accy.launch_target = "sm_90"} {
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %d = memref.dim %x, %c1 : memref<?x?xf32>
      %di = arith.index_cast %d : index to i64
      %df = arith.sitofp %di : i64 to f32
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
        %v = memref.load %s[%tx] : memref<?xf32>
        %q = arith.divf %v, %df : f32
        memref.store %q, %out[%tx] : memref<?xf32>
        gpu.terminator
      }
      return
    }
  }
}

// CHECK:       gpu.launch
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:     %[[D:.+]] = memref.dim %{{.+}}, %[[C1]] : memref<?x?xf32>
// CHECK:         %[[I:.+]] = arith.index_cast %[[D]] : index to i64
// CHECK:         %[[F:.+]] = arith.sitofp %[[I]] : i64 to f32
// CHECK:         arith.divf %{{.+}}, %[[F]] : f32

// -----

// A view of an argument (here the column vector of `x - c` with c: f32[N, 1])
// is rebuilt in the kernel, which takes the argument itself.

module {
  module @sub_col attributes {accy.kernel = "sub_col"} {
    func.func @sub_col__sm_90(%c: memref<?x1xf32>, %out: memref<?xf32>) attributes {accy.launch_target = "sm_90"} {
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %v = memref.collapse_shape %c [[0, 1]] : memref<?x1xf32> into memref<?xf32>
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
        %e = memref.load %v[%tx] : memref<?xf32>
        memref.store %e, %out[%tx] : memref<?xf32>
        gpu.terminator
      }
      return
    }
  }
}

// CHECK-LABEL: func.func @sub_col__sm_90(
// CHECK-SAME:    %[[C:[^:]+]]: memref<?x1xf32>
// CHECK:       gpu.launch
// CHECK:         %[[V:.+]] = memref.collapse_shape %[[C]] {{\[\[}}0, 1]] : memref<?x1xf32> into memref<?xf32>
// CHECK:         memref.load %[[V]]
