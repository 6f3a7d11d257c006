// RUN: accy-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(accy-outline-math))' | FileCheck %s
// RUN: accy-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(accy-outline-math{min-copies=3}))' | FileCheck %s --check-prefix=THREE

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

// -----

// The arithmetic around the op that depends on one value only goes into the
// function too: eight gelu(x + b) become eight calls of one function of
// x + b holding the cube, the tanh and the scaling; the bias add, which
// takes a second value, stays in the kernel. The ninth tanh has arithmetic
// of another shape around it (2 * tanh(x)), too rare for a function of its
// own: it calls one that holds the tanh alone.

// CHECK-LABEL: gpu.module @sm_90
// CHECK:         gpu.func @epilogue_k0
// CHECK:           %[[V0:.*]] = arith.addf %arg0, %arg1 : f32
// CHECK-NEXT:      %[[R0:.*]] = func.call @__accy_epilogue_tanh_f32(%[[V0]]) : (f32) -> f32
// CHECK-NEXT:      %[[V1:.*]] = arith.addf %[[R0]], %arg1 : f32
// CHECK-NEXT:      func.call @__accy_epilogue_tanh_f32(%[[V1]]) : (f32) -> f32
// CHECK-COUNT-6:   func.call @__accy_epilogue_tanh_f32(
// CHECK-NEXT:      %[[ODD:.*]] = func.call @__accy_epilogue_tanh_f32_0(%arg0) : (f32) -> f32
// CHECK-NEXT:      arith.mulf %[[ODD]], %{{.*}} : f32
// CHECK-NOT:       math.tanh
// CHECK:           gpu.return
// CHECK:       func.func private @__accy_epilogue_tanh_f32(%[[X:.*]]: f32) -> f32
// CHECK-NEXT:    %[[X2:.*]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK-NEXT:    %[[X3:.*]] = arith.mulf %[[X2]], %[[X]] : f32
// CHECK:         math.tanh
// CHECK:         %[[HALF:.*]] = arith.mulf %[[X]], %{{.*}} : f32
// CHECK-NEXT:    %[[R:.*]] = arith.mulf %[[HALF]], %{{.*}} : f32
// CHECK-NEXT:    return %[[R]] : f32
// CHECK:       func.func private @__accy_epilogue_tanh_f32_0(%[[Y:.*]]: f32) -> f32
// CHECK-NEXT:    %[[T:.*]] = math.tanh %[[Y]] : f32
// CHECK-NEXT:    return %[[T]] : f32
module attributes {accy.kernel = "epilogue"} {
  gpu.module @sm_90 [#nvvm.target<chip = "sm_90">] {
    gpu.func @epilogue_k0(%x: f32, %b: f32, %out: memref<16xf32>) kernel {
      %c0 = arith.constant 0.044715 : f32
      %c1 = arith.constant 0.797884 : f32
      %one = arith.constant 1.0 : f32
      %half = arith.constant 0.5 : f32
      %two = arith.constant 2.0 : f32
      %v0 = arith.addf %x, %b : f32
      %a0 = arith.mulf %v0, %v0 : f32
      %b0 = arith.mulf %a0, %v0 : f32
      %d0 = arith.mulf %b0, %c0 : f32
      %e0 = arith.addf %v0, %d0 : f32
      %f0 = arith.mulf %e0, %c1 : f32
      %t0 = math.tanh %f0 : f32
      %g0 = arith.addf %t0, %one : f32
      %h0 = arith.mulf %v0, %half : f32
      %r0 = arith.mulf %h0, %g0 : f32
      %v1 = arith.addf %r0, %b : f32
      %a1 = arith.mulf %v1, %v1 : f32
      %b1 = arith.mulf %a1, %v1 : f32
      %d1 = arith.mulf %b1, %c0 : f32
      %e1 = arith.addf %v1, %d1 : f32
      %f1 = arith.mulf %e1, %c1 : f32
      %t1 = math.tanh %f1 : f32
      %g1 = arith.addf %t1, %one : f32
      %h1 = arith.mulf %v1, %half : f32
      %r1 = arith.mulf %h1, %g1 : f32
      %v2 = arith.addf %r1, %b : f32
      %a2 = arith.mulf %v2, %v2 : f32
      %b2 = arith.mulf %a2, %v2 : f32
      %d2 = arith.mulf %b2, %c0 : f32
      %e2 = arith.addf %v2, %d2 : f32
      %f2 = arith.mulf %e2, %c1 : f32
      %t2 = math.tanh %f2 : f32
      %g2 = arith.addf %t2, %one : f32
      %h2 = arith.mulf %v2, %half : f32
      %r2 = arith.mulf %h2, %g2 : f32
      %v3 = arith.addf %r2, %b : f32
      %a3 = arith.mulf %v3, %v3 : f32
      %b3 = arith.mulf %a3, %v3 : f32
      %d3 = arith.mulf %b3, %c0 : f32
      %e3 = arith.addf %v3, %d3 : f32
      %f3 = arith.mulf %e3, %c1 : f32
      %t3 = math.tanh %f3 : f32
      %g3 = arith.addf %t3, %one : f32
      %h3 = arith.mulf %v3, %half : f32
      %r3 = arith.mulf %h3, %g3 : f32
      %v4 = arith.addf %r3, %b : f32
      %a4 = arith.mulf %v4, %v4 : f32
      %b4 = arith.mulf %a4, %v4 : f32
      %d4 = arith.mulf %b4, %c0 : f32
      %e4 = arith.addf %v4, %d4 : f32
      %f4 = arith.mulf %e4, %c1 : f32
      %t4 = math.tanh %f4 : f32
      %g4 = arith.addf %t4, %one : f32
      %h4 = arith.mulf %v4, %half : f32
      %r4 = arith.mulf %h4, %g4 : f32
      %v5 = arith.addf %r4, %b : f32
      %a5 = arith.mulf %v5, %v5 : f32
      %b5 = arith.mulf %a5, %v5 : f32
      %d5 = arith.mulf %b5, %c0 : f32
      %e5 = arith.addf %v5, %d5 : f32
      %f5 = arith.mulf %e5, %c1 : f32
      %t5 = math.tanh %f5 : f32
      %g5 = arith.addf %t5, %one : f32
      %h5 = arith.mulf %v5, %half : f32
      %r5 = arith.mulf %h5, %g5 : f32
      %v6 = arith.addf %r5, %b : f32
      %a6 = arith.mulf %v6, %v6 : f32
      %b6 = arith.mulf %a6, %v6 : f32
      %d6 = arith.mulf %b6, %c0 : f32
      %e6 = arith.addf %v6, %d6 : f32
      %f6 = arith.mulf %e6, %c1 : f32
      %t6 = math.tanh %f6 : f32
      %g6 = arith.addf %t6, %one : f32
      %h6 = arith.mulf %v6, %half : f32
      %r6 = arith.mulf %h6, %g6 : f32
      %v7 = arith.addf %r6, %b : f32
      %a7 = arith.mulf %v7, %v7 : f32
      %b7 = arith.mulf %a7, %v7 : f32
      %d7 = arith.mulf %b7, %c0 : f32
      %e7 = arith.addf %v7, %d7 : f32
      %f7 = arith.mulf %e7, %c1 : f32
      %t7 = math.tanh %f7 : f32
      %g7 = arith.addf %t7, %one : f32
      %h7 = arith.mulf %v7, %half : f32
      %r7 = arith.mulf %h7, %g7 : f32
      %t8 = math.tanh %x : f32
      %s8 = arith.mulf %t8, %two : f32
      %sum = arith.addf %r7, %s8 : f32
      %i0 = arith.constant 0 : index
      memref.store %sum, %out[%i0] : memref<16xf32>
      gpu.return
    }
  }
}
