// RUN: accy-opt %s | accy-opt | FileCheck %s
// RUN: accy-opt %s --emit-bytecode | accy-opt | FileCheck %s

// The kernel summary round-trips through its text form and through
// bytecode (which stores a dialect attribute as its text, so a launch
// condition is a map, whose results must be >= 0, and not an affine_set):
// every kind of operand, a launch under a condition and one without.

// CHECK-DAG:   #[[GRID:.+]] = affine_map<()[s0, s1] -> (s0 ceildiv 8, 1, 1)>
// CHECK-DAG:   #[[SHORT:.+]] = affine_map<()[s0, s1] -> (-s1 + 512)>
// CHECK-DAG:   #[[LONG:.+]] = affine_map<()[s0, s1] -> (s1 - 513, s0)>
// CHECK-DAG:   #[[ROWS:.+]] = affine_map<()[s0, s1] -> (s0 * s1)>
// CHECK-LABEL: module @softmax
// CHECK-SAME:    choir.kernels = #choir.kernel_summary<symbols = [array<i64: 0, 0>, array<i64: 0, 1>], targets = {
// CHECK-SAME:      gfx942 = [#choir.kernel_launch<name = "softmax_k0", dispatch = 0, schedule = elementwise, block = [64, 1, 1], grid = #[[GRID]], shared_memory = 0, arguments = [#choir.kernel_operand<argument 0>, #choir.kernel_operand<index #[[ROWS]]>, #choir.kernel_operand<scalar 1.000000e+00 : f32>, #choir.kernel_operand<scalar 7 : i32>]>],
// CHECK-SAME:      sm_90 = [#choir.kernel_launch<name = "softmax_k0", dispatch = 0, schedule = row_reduction, block = [256, 1, 1], grid = #[[GRID]], shared_memory = 0, arguments = [#choir.kernel_operand<argument 1>, #choir.kernel_operand<buffer 0>], when = [#[[SHORT]]]>,
// CHECK-SAME:               #choir.kernel_launch<name = "softmax_k1", dispatch = 0, schedule = row_reduction, block = [256, 1, 1], grid = #[[GRID]], shared_memory = 64, arguments = [#choir.kernel_operand<argument 1>, #choir.kernel_operand<buffer 0>], when = [#[[LONG]], #[[SHORT]]]>]}>
module {
  module @softmax attributes {choir.kernels = #choir.kernel_summary<symbols = [array<i64: 0, 0>, array<i64: 0, 1>], targets = {gfx942 = [#choir.kernel_launch<name = "softmax_k0", dispatch = 0, schedule = elementwise, block = [64, 1, 1], grid = affine_map<()[s0, s1] -> (s0 ceildiv 8, 1, 1)>, shared_memory = 0, arguments = [#choir.kernel_operand<argument 0>, #choir.kernel_operand<index affine_map<()[s0, s1] -> (s0 * s1)>>, #choir.kernel_operand<scalar 1.0 : f32>, #choir.kernel_operand<scalar 7 : i32>]>], sm_90 = [#choir.kernel_launch<name = "softmax_k0", dispatch = 0, schedule = row_reduction, block = [256, 1, 1], grid = affine_map<()[s0, s1] -> (s0 ceildiv 8, 1, 1)>, shared_memory = 0, arguments = [#choir.kernel_operand<argument 1>, #choir.kernel_operand<buffer 0>], when = [affine_map<()[s0, s1] -> (-s1 + 512)>]>, #choir.kernel_launch<name = "softmax_k1", dispatch = 0, schedule = row_reduction, block = [256, 1, 1], grid = affine_map<()[s0, s1] -> (s0 ceildiv 8, 1, 1)>, shared_memory = 64, arguments = [#choir.kernel_operand<argument 1>, #choir.kernel_operand<buffer 0>], when = [affine_map<()[s0, s1] -> (s1 - 513, s0)>, affine_map<()[s0, s1] -> (-s1 + 512)>]>]}>} {
  }
}
