// RUN: accy-opt %s --pass-pipeline='builtin.module(builtin.module(accy-split-targets))' | FileCheck %s

// One launch function per GPU target, with device allocations; the entry
// itself becomes the host version in `module @host`.

module {
  module @k attributes {accy.kernel = "k", accy.targets = ["sm_90", "gfx90a", "host"]} {
    func.func @k(%x: memref<?xf32>, %out0: memref<?xf32> {accy.result = 0 : i64}) attributes {accy.entry} {
      %c0 = arith.constant 0 : index
      %n = memref.dim %x, %c0 : memref<?xf32>
      %t = memref.alloc(%n) {accy.buffer = 0 : i64, alignment = 64 : i64} : memref<?xf32>
      linalg.copy ins(%x : memref<?xf32>) outs(%t : memref<?xf32>)
      linalg.copy ins(%t : memref<?xf32>) outs(%out0 : memref<?xf32>)
      memref.dealloc %t : memref<?xf32>
      return
    }
  }
}

// CHECK-LABEL: func.func @k__sm_90(
// CHECK-SAME:    attributes {accy.launch_target = "sm_90"}
// CHECK:         %[[T:.+]] = gpu.alloc (%{{.+}}) {accy.buffer = 0 : i64} : memref<?xf32>
// CHECK:         gpu.dealloc %[[T]]
// CHECK-LABEL: func.func @k__gfx90a(
// CHECK-SAME:    attributes {accy.launch_target = "gfx90a"}
// CHECK:       module @host {
// CHECK:         func.func @k(
// CHECK-SAME:      attributes {accy.entry, llvm.emit_c_interface}
// CHECK:           memref.alloc
// CHECK:           memref.dealloc
