// RUN: accy-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(accy-convert-gpu-to-nvvm))' | FileCheck %s

// An NVVM gpu.module becomes LLVM and NVVM dialect code without libdevice:
// math ops are LLVM intrinsics that the NVPTX backend selects, gpu.block_dim
// is the kernel's known block size (which also reaches ptxas as .maxntid),
// ceildivui is expanded and maximumf stays one intrinsic (max.NaN).
// CHECK-LABEL: gpu.module @sm_90
// CHECK:         llvm.func @scale_k0(
// CHECK-SAME:      nvvm.kernel
// CHECK-SAME:      nvvm.maxntid = array<i32: 128, 1, 1>
// CHECK-DAG:     nvvm.read.ptx.sreg.tid.x
// CHECK-DAG:     nvvm.read.ptx.sreg.ctaid.x
// CHECK-DAG:     %[[BLOCK:.*]] = llvm.mlir.constant(128 : index) : i64
// CHECK-NOT:     nvvm.read.ptx.sreg.ntid
// CHECK:         llvm.intr.sqrt
// CHECK-NEXT:    llvm.intr.fabs
// CHECK-NEXT:    llvm.intr.floor
// CHECK-NEXT:    llvm.intr.maximum
// CHECK:         llvm.udiv %{{.*}}, %[[BLOCK]]
// CHECK-NOT:     arith.
// CHECK-NOT:     math.
// CHECK-NOT:     gpu.func
// CHECK-NOT:     __nv_

// A gpu.module for another target is left as it is.
// CHECK-LABEL: gpu.module @gfx942
// CHECK:         gpu.func @scale_k0
// CHECK:         gpu.thread_id x
module attributes {accy.kernel = "scale"} {
  gpu.module @sm_90 [#nvvm.target<chip = "sm_90">] {
    gpu.func @scale_k0(%in: memref<?xf32>, %out: memref<?xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %x = memref.load %in[%i] : memref<?xf32>
      %s = math.sqrt %x : f32
      %a = math.absf %s : f32
      %f = math.floor %a : f32
      %m = arith.maximumf %f, %x : f32
      %j = arith.ceildivui %n, %bdim : index
      memref.store %m, %out[%j] : memref<?xf32>
      gpu.return
    }
  }
  gpu.module @gfx942 [#rocdl.target<chip = "gfx942">] {
    gpu.func @scale_k0(%out: memref<?xf32>) kernel {
      %tid = gpu.thread_id x
      gpu.return
    }
  }
}

// -----

// A subgroup reduction is a butterfly of xor shuffles over a warp's 32
// lanes, five steps (twice for f32: a sum, then a max); an f64 value takes
// two 32-bit shuffles a step.
// CHECK-LABEL: llvm.func @sum_k0(
// CHECK-COUNT-10: nvvm.shfl.sync  bfly {{.*}} : f32 -> f32
// CHECK-NOT:     nvvm.shfl.sync  bfly {{.*}} : f32 -> f32
// CHECK-COUNT-10: nvvm.shfl.sync  bfly {{.*}} : i32 -> i32
// CHECK-NOT:     nvvm.shfl.sync
// CHECK-NOT:     gpu.subgroup_reduce
module attributes {accy.kernel = "sum"} {
  gpu.module @sm_90 [#nvvm.target<chip = "sm_90">] {
    gpu.func @sum_k0(%x: f32, %y: f64, %out: memref<2xf32>, %out64: memref<f64>) kernel {
      %s = gpu.subgroup_reduce add %x uniform : (f32) -> f32
      %m = gpu.subgroup_reduce maximumf %s uniform : (f32) -> f32
      %d = gpu.subgroup_reduce add %y uniform : (f64) -> f64
      %c0 = arith.constant 0 : index
      memref.store %m, %out[%c0] : memref<2xf32>
      memref.store %d, %out64[] : memref<f64>
      gpu.return
    }
  }
}
