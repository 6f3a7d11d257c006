// RUN: accy-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(accy-convert-gpu-to-rocdl))' | FileCheck %s

// A ROCDL gpu.module becomes LLVM and ROCDL dialect code without the ROCm
// device libraries: math ops are LLVM intrinsics (no __ocml_ call),
// gpu.block_dim is the kernel's known block size (its generic lowering
// calls OCKL), which the kernel also states for the backend's register and
// LDS allocation; ceildivui and maximumf are expanded into arithmetic.
// CHECK-LABEL: gpu.module @gfx942
// CHECK:         llvm.func @scale_k0(
// CHECK-SAME:      rocdl.flat_work_group_size = "128,128"
// CHECK-SAME:      rocdl.kernel
// CHECK-SAME:      rocdl.reqd_work_group_size = array<i32: 128, 1, 1>
// CHECK-DAG:     rocdl.workitem.id.x
// CHECK-DAG:     rocdl.workgroup.id.x
// CHECK-DAG:     %[[BLOCK:.*]] = llvm.mlir.constant(128 : index) : i64
// CHECK-NOT:     rocdl.workgroup.dim
// CHECK:         llvm.intr.sqrt
// CHECK-NEXT:    llvm.intr.fabs
// CHECK-NEXT:    llvm.intr.floor
// CHECK-NOT:     llvm.intr.maximum
// CHECK:         llvm.fcmp
// CHECK:         llvm.select
// CHECK:         llvm.udiv %{{.*}}, %[[BLOCK]]
// CHECK-NOT:     arith.
// CHECK-NOT:     math.
// CHECK-NOT:     __ocml_
// CHECK-NOT:     __ockl_

// A gpu.module for another target is left as it is.
// CHECK-LABEL: gpu.module @sm_90
// CHECK:         gpu.func @scale_k0
// CHECK:         gpu.thread_id x
module attributes {accy.kernel = "scale"} {
  gpu.module @gfx942 [#rocdl.target<chip = "gfx942">] {
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
  gpu.module @sm_90 [#nvvm.target<chip = "sm_90">] {
    gpu.func @scale_k0(%out: memref<?xf32>) kernel {
      %tid = gpu.thread_id x
      gpu.return
    }
  }
}

// -----

// A subgroup reduction is a butterfly over a gfx9 wavefront's 64 lanes: six
// steps of ds_bpermute.
// CHECK-LABEL: llvm.func @sum_k0(
// CHECK-COUNT-6: rocdl.ds_bpermute
// CHECK-NOT:     rocdl.ds_bpermute
// CHECK-NOT:     gpu.subgroup_reduce
module attributes {accy.kernel = "sum"} {
  gpu.module @gfx942 [#rocdl.target<chip = "gfx942">] {
    gpu.func @sum_k0(%x: f32, %out: memref<f32>) kernel {
      %s = gpu.subgroup_reduce add %x uniform : (f32) -> f32
      memref.store %s, %out[] : memref<f32>
      gpu.return
    }
  }
}

// -----

// The grid's size has no lowering without OCKL: reported, not miscompiled.
module attributes {accy.kernel = "grid"} {
  gpu.module @gfx942 [#rocdl.target<chip = "gfx942">] {
    gpu.func @grid_k0(%out: memref<?xindex>) kernel {
      // expected-error @+1 {{gpu.grid_dim needs ROCm's OCKL on AMD GPUs; Accy kernels must not use it}}
      %g = gpu.grid_dim x
      %c0 = arith.constant 0 : index
      memref.store %g, %out[%c0] : memref<?xindex>
      gpu.return
    }
  }
}
