// RUN: accy-opt %S/Inputs/lowered-kernel.mlir --pass-pipeline='builtin.module(builtin.module(accy-serialize))' | FileCheck %s
// RUN: accy-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(builtin.module(accy-serialize))'

// A lowered NVVM gpu.module becomes a gpu.binary of PTX text with its
// optimized bitcode (from which whole-file artifacts are linked), a ROCDL
// one a gpu.binary of an AMDGPU code object (ELF) with its relocatable
// object; the host module becomes the kernel module's host object: an
// x86-64 ELF object, its bitcode, and the C interface it exports.
// CHECK-LABEL: module @scale
// CHECK-SAME:    accy.host_object = {bitcode = "BC\C0\DE{{.*}}", cpu = "{{.+}}", object = "\7FELF\02\01\01{{.*}}", symbols = ["_mlir_ciface_scale"], triple = "x86_64{{.*}}"}
// CHECK-NEXT:    gpu.binary @sm_90 [#gpu.object<#nvvm.target<chip = "sm_90">, properties = {accy.bitcode = ["BC\C0\DE{{.*}}"]}, assembly = "{{.*}}.target sm_90{{.*}}.visible .entry scale_k0({{.*}}.maxntid 128, 1, 1{{.*}}mul.rn.f32{{.*}}">]
// CHECK-NEXT:    gpu.binary @gfx942 [#gpu.object<#rocdl.target<chip = "gfx942">, properties = {accy.relocatable = ["\7FELF{{.*}}"]}, bin = "\7FELF\02\01\01@{{.*}}scale_k0{{.*}}">]
// CHECK-NOT:     gpu.module
// CHECK-NOT:     module @host

// Device code must be whole: Accy links no libdevice, so a call of a
// function the module does not define is an error, not a PTX that fails to
// load.
module {
  module @scale attributes {accy.kernel = "scale"} {
    // expected-error @+1 {{code for sm_90 calls functions that are not part of it: __nv_expf}}
    gpu.module @sm_90 [#nvvm.target<chip = "sm_90">] {
      llvm.func @__nv_expf(f32) -> f32
      llvm.func @scale_k0(%p: !llvm.ptr<1>, %x: f32) attributes {gpu.kernel, nvvm.kernel} {
        %y = llvm.call @__nv_expf(%x) : (f32) -> f32
        llvm.store %y, %p : f32, !llvm.ptr<1>
        llvm.return
      }
    }
  }
}

// -----

module {
  module @scale attributes {accy.kernel = "scale"} {
    // expected-error @+1 {{gpu.module for 'sm_90' needs exactly one target attribute (nvvm-attach-target / rocdl-attach-target)}}
    gpu.module @sm_90 {
    }
  }
}

// -----

module {
  module @scale attributes {accy.kernel = "scale"} {
    // expected-error @+1 {{the host module of 'scale' exports no _mlir_ciface_ function}}
    module @host {
      llvm.func @scale(%x: f32) -> f32 {
        llvm.return %x : f32
      }
    }
  }
}
