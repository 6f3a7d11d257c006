// RUN: not accy-opt %s --accy-choir-plan-schedule 2>&1 | FileCheck %s
// RUN: accy-opt %s --pass-pipeline='builtin.module(builtin.module(accy-choir-plan-schedule{targets=sm_90}))' | FileCheck %s --check-prefix=NESTED

// The passes of the stages run on one kernel module each; given the
// product's module, a pass says how to nest it.

// CHECK: error: 'accy-choir-plan-schedule' runs on a kernel module (a builtin.module with accy.kernel); nest it in the product's module: --pass-pipeline='builtin.module(builtin.module(accy-choir-plan-schedule))'

// NESTED-LABEL: module @a
// NESTED:         choir.plan = #choir.plan<elementwise
// NESTED-LABEL: module @b
// NESTED:         choir.plan = #choir.plan<elementwise
module {
  module @a attributes {accy.kernel = "a"} {
    func.func @a(%x: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> attributes {accy.entry} {
      %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%o : tensor<4xf32>) {
      ^bb0(%v: f32, %w: f32):
        %n = arith.negf %v : f32
        linalg.yield %n : f32
      } -> tensor<4xf32>
      return %y : tensor<4xf32>
    }
  }
  module @b attributes {accy.kernel = "b"} {
    func.func @b(%x: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> attributes {accy.entry} {
      %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%o : tensor<4xf32>) {
      ^bb0(%v: f32, %w: f32):
        %a = math.absf %v : f32
        linalg.yield %a : f32
      } -> tensor<4xf32>
      return %y : tensor<4xf32>
    }
  }
}
