// RUN: accy-opt %s --pass-pipeline='builtin.module(builtin.module(accy-select-targets{targets=sm_90}))' | FileCheck %s
// RUN: accy-opt %s --pass-pipeline='builtin.module(builtin.module(accy-select-targets{targets=host,gfx942}))' | FileCheck %s --check-prefix=TWO
// RUN: accy-opt %s --pass-pipeline='builtin.module(builtin.module(accy-select-targets))' | FileCheck %s --check-prefix=ALL
// RUN: not accy-opt %s --pass-pipeline='builtin.module(builtin.module(accy-select-targets{targets=sm_80}))' 2>&1 | FileCheck %s --check-prefix=UNPLANNED
// RUN: not accy-opt %s --pass-pipeline='builtin.module(builtin.module(accy-select-targets{targets=sm_91}))' 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// Only the requested targets' gpu.modules, launch functions and host
// module stay, and the kernel summary names only their entries.
// CHECK-LABEL: module @scale
// CHECK-SAME:    choir.kernels = #choir.kernel_summary<symbols = [], targets = {sm_90 = [#choir.kernel_launch<name = "scale_k0", {{.*}}, block = [256, 1, 1], {{[^]]*}}]>]}>
// CHECK:         func.func @scale__sm_90
// CHECK-NOT:     func.func @scale__gfx942
// CHECK:         gpu.module @sm_90
// CHECK-NOT:     gpu.module @gfx942
// CHECK-NOT:     module @host

// TWO-LABEL: module @scale
// TWO-SAME:    choir.kernels = #choir.kernel_summary<symbols = [], targets = {gfx942 = [#choir.kernel_launch<name = "scale_k0", {{.*}}, block = [64, 1, 1], {{[^]]*}}]>]}>
// TWO-NOT:     func.func @scale__sm_90
// TWO:         func.func @scale__gfx942
// TWO-NOT:     gpu.module @sm_90
// TWO:         gpu.module @gfx942
// TWO:         module @host

// Without targets, the product is left whole.
// ALL-LABEL: module @scale
// ALL-SAME:    choir.kernels = #choir.kernel_summary<symbols = [], targets = {gfx942 = [#choir.kernel_launch<name = "scale_k0", {{.*}}, block = [64, 1, 1], {{[^]]*}}]>], sm_90 = [#choir.kernel_launch<name = "scale_k0", {{.*}}, block = [256, 1, 1], {{[^]]*}}]>]}>
// ALL:         func.func @scale__sm_90
// ALL:         func.func @scale__gfx942
// ALL:         gpu.module @sm_90
// ALL:         gpu.module @gfx942
// ALL:         module @host

// A known target that the dispatch stage did not plan for the kernel, and
// a target name that names no target, are reported.
// UNPLANNED: error: kernel 'scale' has no code for target 'sm_80'; plan it in the dispatch stage (targets=...)
// UNKNOWN: error: accy-choir-target: unknown target 'sm_91' (known targets: sm_80, sm_90, gfx90a, gfx942, host)
module {
  module @scale attributes {accy.kernel = "scale", choir.kernels = #choir.kernel_summary<symbols = [], targets = {gfx942 = [#choir.kernel_launch<name = "scale_k0", dispatch = 0, schedule = elementwise, block = [64, 1, 1], grid = affine_map<() -> (1, 1, 1)>, shared_memory = 0, arguments = []>], sm_90 = [#choir.kernel_launch<name = "scale_k0", dispatch = 0, schedule = elementwise, block = [256, 1, 1], grid = affine_map<() -> (1, 1, 1)>, shared_memory = 0, arguments = []>]}>} {
    func.func @scale__sm_90() attributes {accy.launch_target = "sm_90"} {
      return
    }
    func.func @scale__gfx942() attributes {accy.launch_target = "gfx942"} {
      return
    }
    gpu.module @sm_90 [#nvvm.target<chip = "sm_90">] {
      gpu.func @scale_k0() kernel {
        gpu.return
      }
    }
    gpu.module @gfx942 [#rocdl.target<chip = "gfx942">] {
      gpu.func @scale_k0() kernel {
        gpu.return
      }
    }
    module @host {
    }
  }
}
