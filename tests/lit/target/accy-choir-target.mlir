// RUN: accy-opt %s --accy-choir-dispatch="targets=sm_90,gfx942,host" --accy-choir-memory --accy-choir-kernel --accy-choir-target | FileCheck %s
// RUN: accy-opt %s --accy-choir-dispatch="targets=sm_90,gfx942,host" --accy-choir-memory --accy-choir-kernel --accy-choir-target="targets=gfx942" | FileCheck %s --check-prefix=ONLY
// RUN: accy-opt %s --accy-choir-dispatch="targets=sm_90,gfx942,host" --accy-choir-memory --accy-choir-kernel --accy-choir-target -o %t.1.mlirbc --emit-bytecode
// RUN: accy-opt %s --accy-choir-dispatch="targets=sm_90,gfx942,host" --accy-choir-memory --accy-choir-kernel --accy-choir-target -o %t.2.mlirbc --emit-bytecode
// RUN: cmp %t.1.mlirbc %t.2.mlirbc

// The target product of one kernel: a gpu.binary per GPU target (PTX
// assembly, an AMDGPU code object), the host object, the kernel summary;
// the launch functions stay, referring to the binaries. Two runs give the
// same bytes.

module {
  module @scale_rows attributes {accy.kernel = "scale_rows"} {
    func.func @scale_rows(%x: tensor<?x?xf32>, %s: tensor<?xf32>, %out0: tensor<?x?xf32> {accy.result = 0 : i64}) -> tensor<?x?xf32> attributes {accy.entry} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = tensor.dim %x, %c0 : tensor<?x?xf32>
      %d = tensor.dim %x, %c1 : tensor<?x?xf32>
      %e = tensor.empty(%n, %d) : tensor<?x?xf32>
      %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<?x?xf32>, tensor<?xf32>) outs(%e : tensor<?x?xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %l = math.log %b : f32
        %m = arith.mulf %a, %l : f32
        %t = math.tanh %m : f32
        linalg.yield %t : f32
      } -> tensor<?x?xf32>
      %res = bufferization.materialize_in_destination %r in %out0 : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
      return %res : tensor<?x?xf32>
    }
  }
}

// CHECK-LABEL: module @scale_rows
// CHECK-SAME:    accy.host_object = {bitcode = "BC{{.*}}", cpu = "x86-64-v2", object = "\7FELF{{.*}}", symbols = ["_mlir_ciface_scale_rows"], triple = "x86_64-unknown-linux-gnu"}
// CHECK-SAME:    choir.kernels = #choir.kernel_summary<
// CHECK-SAME:    gpu.container_module
// CHECK:       func.func @scale_rows__sm_90(
// CHECK:         gpu.launch_func @sm_90::@scale_rows_k0
// CHECK:       func.func @scale_rows__gfx942(
// CHECK:         gpu.launch_func @gfx942::@scale_rows_k0
// CHECK-NOT:   module @host
// CHECK-NOT:   gpu.module
// CHECK:       gpu.binary @sm_90 [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, properties = {accy.bitcode = ["BC{{.*}}"]}, assembly = "{{.*}}.visible .entry scale_rows_k0({{.*}}">]
// CHECK:       gpu.binary @gfx942 [#gpu.object<#rocdl.target<O = 3, chip = "gfx942">, properties = {accy.relocatable = ["\7FELF{{.*}}"]}, bin = "\7FELF{{.*}}">]

// Only the requested target's code is kept.
// ONLY-LABEL:  module @scale_rows
// ONLY-NOT:      accy.host_object
// ONLY-NOT:    func.func @scale_rows__sm_90
// ONLY:        func.func @scale_rows__gfx942
// ONLY-NOT:    gpu.binary @sm_90
// ONLY:        gpu.binary @gfx942
