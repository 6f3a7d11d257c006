// RUN: accy-opt %s --split-input-file --pass-pipeline='builtin.module(builtin.module(accy-group-kernels))' | FileCheck %s

// Grid sizes traced through views: a launch sized by the memref.dim of a
// collapse_shape is an expression over the dimensions the collapsed groups
// come from. `x[-1, :, 0]` of `x: f32[A, B, C]` copies its point out of a
// buffer shaped 1xBx1 collapsed to B (issue 5: its grid was reported as not
// affine, since the reassociation was read after it had been freed).

// CHECK-DAG: #[[FLAT:.+]] = affine_map<()[s0, s1, s2, s3] -> (s1 ceildiv 256, 1, 1)>
// CHECK-LABEL: module @last_col
// CHECK: choir.kernels = #choir.kernel_summary<symbols = [array<i64: 0, 0>, array<i64: 0, 1>, array<i64: 0, 2>, array<i64: 1, 0>], targets = {sm_90 = [#choir.kernel_launch<name = "last_col_k0", dispatch = 1, schedule = elementwise, block = [256, 1, 1], grid = #[[FLAT]], shared_memory = 0, arguments = [#choir.kernel_operand<buffer 0>, #choir.kernel_operand<argument 1>]>]}>
module {
  module @last_col attributes {accy.kernel = "last_col", gpu.container_module} {
    func.func @last_col__sm_90(%x: memref<?x?x?xf32>, %out: memref<?xf32> {accy.result = 0 : i64}) attributes {accy.launch_target = "sm_90", accy.launches = [{dispatch = 1 : i64, schedule = "elementwise"}]} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %b = memref.dim %x, %c1 : memref<?x?x?xf32>
      %buf = gpu.alloc (%b) {accy.buffer = 0 : i64} : memref<1x?x1xf32>
      %flat = memref.collapse_shape %buf [[0, 1, 2]] : memref<1x?x1xf32> into memref<?xf32>
      %n = memref.dim %flat, %c0 : memref<?xf32>
      %blocks = affine.apply affine_map<()[s0] -> (s0 ceildiv 256)>()[%n]
      gpu.launch_func @copy::@copy blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1) args(%buf : memref<1x?x1xf32>, %out : memref<?xf32>)
      gpu.dealloc %buf : memref<1x?x1xf32>
      return
    }
    gpu.module @copy {
      gpu.func @copy(%buf: memref<1x?x1xf32>, %out: memref<?xf32>) kernel {
        gpu.return
      }
    }
  }
}

// -----

// A later group of the reassociation, through a subview of an argument:
// `x[3]` of `x: f32[A, B, C]` viewed as 1 x (B * C) has B * C as its second
// dimension, and the grid one block per 128 elements of it.

// CHECK-DAG: #[[ROWS:.+]] = affine_map<()[s0, s1, s2] -> ((s1 * s2) ceildiv 128, 1, 1)>
// CHECK-LABEL: module @plane
// CHECK: name = "plane_k0", dispatch = 0, schedule = elementwise, block = [128, 1, 1], grid = #[[ROWS]]
module {
  module @plane attributes {accy.kernel = "plane", gpu.container_module} {
    func.func @plane__gfx942(%x: memref<?x?x?xf32>, %out: memref<4xf32> {accy.result = 0 : i64}) attributes {accy.launch_target = "gfx942", accy.launches = [{dispatch = 0 : i64, schedule = "elementwise"}]} {
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c128 = arith.constant 128 : index
      %b = memref.dim %x, %c1 : memref<?x?x?xf32>
      %c = memref.dim %x, %c2 : memref<?x?x?xf32>
      %view = memref.subview %x[%c3, 0, 0] [1, %b, %c] [1, 1, 1] : memref<?x?x?xf32> to memref<1x?x?xf32, strided<[?, ?, 1], offset: ?>>
      %flat = memref.collapse_shape %view [[0], [1, 2]] : memref<1x?x?xf32, strided<[?, ?, 1], offset: ?>> into memref<1x?xf32, strided<[?, ?], offset: ?>>
      %n = memref.dim %flat, %c1 : memref<1x?xf32, strided<[?, ?], offset: ?>>
      %blocks = arith.ceildivui %n, %c128 : index
      gpu.launch_func @sum::@sum blocks in (%blocks, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<?x?x?xf32>, %out : memref<4xf32>)
      return
    }
    gpu.module @sum {
      gpu.func @sum(%x: memref<?x?x?xf32>, %out: memref<4xf32>) kernel {
        gpu.return
      }
    }
  }
}
