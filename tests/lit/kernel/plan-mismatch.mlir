// RUN: accy-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(builtin.module(accy-choir-map-to-gpu))' -o /dev/null

// The kernel stage builds a dispatch from its plan, not from classifying
// the op again: the loops of a contraction or scan and the combiner of a
// reduction are the plan's. An op that does not match its plan is an
// error, not a kernel built on a guess.

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
module {
  module @k attributes {accy.kernel = "k"} {
    func.func @k__sm_90(%x: memref<?x?xf32>, %out: memref<?xf32>) attributes {accy.launch_target = "sm_90"} {
      // expected-error @+1 {{the plan's combiner 'maximumf' does not yield this dispatch's result}}
      linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"], choir.member = #choir.member<0>, choir.plan = #choir.plan<row_reduction, combiner = "maximumf", targets = {sm_90 = #choir.launch<block = [256, 1, 1], tile = [1], subgroup = 32, workgroup_memory = 32>}>} ins(%x : memref<?x?xf32>) outs(%out : memref<?xf32>) {
      ^bb0(%v: f32, %acc: f32):
        %s = arith.addf %acc, %v : f32
        linalg.yield %s : f32
      }
      return
    }
  }
}
