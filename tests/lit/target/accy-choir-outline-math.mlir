// RUN: accy-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(accy-choir-outline-math))' | FileCheck %s
// RUN: accy-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(accy-choir-outline-math{min-copies=3}))' | FileCheck %s --check-prefix=THREE

// Eight tanh of one type in an NVPTX module become calls of one internal
// function named after the kernel; the four exp stay where they are, and
// so does the sqrt, which every backend lowers to one instruction.

// CHECK-LABEL: gpu.module @sm_90
// CHECK-COUNT-8: func.call @__accy_gelu_tanh_f32(%{{.*}}) : (f32) -> f32
// CHECK-COUNT-4: math.exp
// CHECK:         math.sqrt
// CHECK:       func.func private @__accy_gelu_tanh_f32(%[[X:.*]]: f32) -> f32 attributes {llvm.linkage = #llvm.linkage<internal>}
// CHECK-NEXT:    %[[T:.*]] = math.tanh %[[X]] : f32
// CHECK-NEXT:    return %[[T]] : f32
// CHECK-NOT:   func.func

// With min-copies=3 the exp are outlined too, into a function of their own.
// THREE-LABEL: gpu.module @sm_90
// THREE-COUNT-8: func.call @__accy_gelu_tanh_f32
// THREE-COUNT-4: func.call @__accy_gelu_exp_f32
// THREE-DAG:   func.func private @__accy_gelu_tanh_f32
// THREE-DAG:   func.func private @__accy_gelu_exp_f32
module attributes {accy.kernel = "gelu"} {
  gpu.module @sm_90 [#nvvm.target<chip = "sm_90">] {
    gpu.func @gelu_k0(%x: f32, %out: memref<16xf32>) kernel {
      %t0 = math.tanh %x : f32
      %t1 = math.tanh %t0 : f32
      %t2 = math.tanh %t1 : f32
      %t3 = math.tanh %t2 : f32
      %t4 = math.tanh %t3 : f32
      %t5 = math.tanh %t4 : f32
      %t6 = math.tanh %t5 : f32
      %t7 = math.tanh %t6 : f32
      %e0 = math.exp %t7 : f32
      %e1 = math.exp %e0 : f32
      %e2 = math.exp %e1 : f32
      %e3 = math.exp %e2 : f32
      %s = math.sqrt %e3 : f32
      %c0 = arith.constant 0 : index
      memref.store %s, %out[%c0] : memref<16xf32>
      gpu.return
    }
  }
}

// -----

// An AMDGPU module keeps every copy: its calls would set up a stack.

// CHECK-LABEL: gpu.module @gfx942
// CHECK-NOT:     func.call
// CHECK-COUNT-8: math.tanh
// CHECK-NOT:     func.func
// THREE-LABEL: gpu.module @gfx942
// THREE-NOT:     func.call
module attributes {accy.kernel = "gelu"} {
  gpu.module @gfx942 [#rocdl.target<chip = "gfx942">] {
    gpu.func @gelu_k0(%x: f32, %out: memref<16xf32>) kernel {
      %t0 = math.tanh %x : f32
      %t1 = math.tanh %t0 : f32
      %t2 = math.tanh %t1 : f32
      %t3 = math.tanh %t2 : f32
      %t4 = math.tanh %t3 : f32
      %t5 = math.tanh %t4 : f32
      %t6 = math.tanh %t5 : f32
      %t7 = math.tanh %t6 : f32
      %c0 = arith.constant 0 : index
      memref.store %t7, %out[%c0] : memref<16xf32>
      gpu.return
    }
  }
}

// -----

// Copies that differ in type or in flags are counted apart: four tanh on
// f32 with fastmath<afn> and four without are each under the threshold.

// CHECK-LABEL: gpu.module @sm_80
// CHECK-NOT:     func.call
// THREE-LABEL: gpu.module @sm_80
// THREE-DAG:     func.func private @__accy_mixed_tanh_f32
// THREE-DAG:     func.func private @__accy_mixed_tanh_f32_0
module attributes {accy.kernel = "mixed"} {
  gpu.module @sm_80 [#nvvm.target<chip = "sm_80">] {
    gpu.func @mixed_k0(%x: f32, %out: memref<16xf32>) kernel {
      %t0 = math.tanh %x : f32
      %t1 = math.tanh %t0 : f32
      %t2 = math.tanh %t1 : f32
      %t3 = math.tanh %t2 : f32
      %f0 = math.tanh %t3 fastmath<afn> : f32
      %f1 = math.tanh %f0 fastmath<afn> : f32
      %f2 = math.tanh %f1 fastmath<afn> : f32
      %f3 = math.tanh %f2 fastmath<afn> : f32
      %c0 = arith.constant 0 : index
      memref.store %f3, %out[%c0] : memref<16xf32>
      gpu.return
    }
  }
}
