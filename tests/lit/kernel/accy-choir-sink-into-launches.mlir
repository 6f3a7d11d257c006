// RUN: accy-opt %s --accy-choir-sink-into-launches | FileCheck %s

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
