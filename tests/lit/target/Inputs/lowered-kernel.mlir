// A lowered kernel module as the target stage hands it to serialization:
// an NVVM and a ROCDL gpu.module in the LLVM dialect, and the host module.
module {
  module @scale attributes {accy.kernel = "scale"} {
    gpu.module @sm_90 [#nvvm.target<chip = "sm_90">] {
      llvm.func @scale_k0(%p: !llvm.ptr<1>, %x: f32) attributes {gpu.kernel, nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>} {
        %tid = nvvm.read.ptx.sreg.tid.x : i32
        %q = llvm.getelementptr %p[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
        %y = llvm.fmul %x, %x : f32
        llvm.store %y, %q : f32, !llvm.ptr<1>
        llvm.return
      }
    }
    gpu.module @gfx942 [#rocdl.target<chip = "gfx942">] {
      llvm.func @scale_k0(%p: !llvm.ptr<1>, %x: f32) attributes {gpu.kernel, rocdl.kernel} {
        %tid = rocdl.workitem.id.x : i32
        %q = llvm.getelementptr %p[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
        %y = llvm.fmul %x, %x : f32
        llvm.store %y, %q : f32, !llvm.ptr<1>
        llvm.return
      }
    }
    module @host {
      llvm.func @_mlir_ciface_scale(%x: f32) -> f32 {
        %y = llvm.fadd %x, %x : f32
        llvm.return %y : f32
      }
    }
  }
}
