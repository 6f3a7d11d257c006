// RUN: accy-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(accy-outline-kernels)' | FileCheck %s

// Each launch becomes a launch of a gpu.func in a gpu.module of its own,
// named after the function (the second renamed on the clash), taking the
// values its body used from above; constant block and grid sizes become
// known_block_size and known_grid_size, workgroup buffers attributions.

// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: func.func @f(%[[X:.+]]: memref<?xf32>, %[[N:.+]]: index)
// CHECK: gpu.launch_func @f_kernel::@f_kernel blocks in (%[[N]], %{{.+}}, %{{.+}}) threads in (%{{.+}}, %{{.+}}, %{{.+}}) args(%[[X]] : memref<?xf32>)
// CHECK: gpu.launch_func @f_kernel_0::@f_kernel blocks in
// CHECK: gpu.module @f_kernel {
// CHECK-NEXT: gpu.func @f_kernel(%[[A:.+]]: memref<?xf32>) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// CHECK-DAG: %[[B:.+]] = gpu.block_id x
// CHECK-DAG: %[[T:.+]] = gpu.thread_id x
// CHECK: %[[V:.+]] = memref.load %[[A]][%[[T]]]
// CHECK: memref.store %[[V]], %[[A]][%[[B]]]
// CHECK: gpu.return
// CHECK: gpu.module @f_kernel_0 {
// CHECK-NEXT: gpu.func @f_kernel(%{{.+}}: memref<?xf32>) workgroup(%{{.+}} : memref<8xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 1, 1, 1>}
module {
  func.func @f(%x: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
      %v = memref.load %x[%tx] : memref<?xf32>
      memref.store %v, %x[%bx] : memref<?xf32>
      gpu.terminator
    }
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1)
               workgroup(%w : memref<8xf32, #gpu.address_space<workgroup>>) {
      %v = memref.load %x[%tx] : memref<?xf32>
      memref.store %v, %w[%tx] : memref<8xf32, #gpu.address_space<workgroup>>
      gpu.terminator
    }
    return
  }
}

// -----

// Kernels are outlined without the symbols they use: a kernel that calls
// a function is an error, not a kernel compiled without its callee.

module {
  func.func private @helper(f32) -> f32
  func.func @g(%x: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %v = memref.load %x[%tx] : memref<?xf32>
      // expected-error @below {{references a symbol from a kernel}}
      %r = func.call @helper(%v) : (f32) -> f32
      memref.store %r, %x[%tx] : memref<?xf32>
      gpu.terminator
    }
    return
  }
}
