// RUN: accy-opt %s --allow-unregistered-dialect | accy-opt --allow-unregistered-dialect | FileCheck %s

// The dispatch plans round-trip through their text form: every schedule,
// the loops of contractions and scans, the launch fields of each schedule,
// and a host target.

// CHECK-LABEL: func.func @plans
// CHECK:       choir.member = #choir.member<0>
// CHECK-SAME:  choir.plan = #choir.plan<row_reduction, combiner = "maximumf", targets = {host = #choir.serial_loops, sm_90 = #choir.launch<block = [256, 1, 1], tile = [1], subgroup = 32, workgroup_memory = 64, rows_per_block = 8, subgroup_rows_up_to = 512>}>
// CHECK:       choir.member = #choir.member<0, init>
// CHECK:       choir.member = #choir.member<0, epilogue>
// CHECK:       choir.plan = #choir.plan<scan, combiner = "addf", scan = <axis = 1, masked = 2>, targets = {gfx942 = #choir.launch<block = [256, 1, 1], tile = [1], subgroup = 64, workgroup_memory = 16, lines_per_block = 256, thread_lines_from = 19456, line_tile = 4096, split_lines_below = 304, line_chunks = 32>, sm_90 = #choir.launch<block = [256, 1, 1], tile = [1], subgroup = 32, workgroup_memory = 32, shuffle_up = true>}>
// CHECK:       choir.plan = #choir.plan<tiled_contraction, contraction = <m = 0, n = 1, k = 2, batch = [], lhs = 0, rhs = 1>, targets = {sm_90 = #choir.launch<block = [16, 16, 1], tile = [128, 128, 8], subgroup = 32, workgroup_memory = 8448>}>
// CHECK:       choir.plan = #choir.plan<elementwise, targets = {sm_90 = #choir.launch<block = [256, 1, 1], tile = [256], subgroup = 32, workgroup_memory = 0>}>
// CHECK:       choir.plan = #choir.plan<thread_reduction, targets = {sm_90 = #choir.launch<block = [32, 1, 1], tile = [32], subgroup = 32, workgroup_memory = 0>}>
func.func @plans() {
  "test.root"() {choir.member = #choir.member<0>, choir.plan = #choir.plan<row_reduction, combiner = "maximumf", targets = {host = #choir.serial_loops, sm_90 = #choir.launch<block = [256, 1, 1], tile = [1], subgroup = 32, workgroup_memory = 64, rows_per_block = 8, subgroup_rows_up_to = 512>}>} : () -> ()
  "test.fill"() {choir.member = #choir.member<0, init>} : () -> ()
  "test.epilogue"() {choir.member = #choir.member<0, epilogue>} : () -> ()
  "test.scan"() {choir.member = #choir.member<1>, choir.plan = #choir.plan<scan, combiner = "addf", scan = <axis = 1, masked = 2>, targets = {gfx942 = #choir.launch<block = [256, 1, 1], tile = [1], subgroup = 64, workgroup_memory = 16, lines_per_block = 256, thread_lines_from = 19456, line_tile = 4096, split_lines_below = 304, line_chunks = 32>, sm_90 = #choir.launch<block = [256, 1, 1], tile = [1], subgroup = 32, workgroup_memory = 32, shuffle_up = true>}>} : () -> ()
  "test.matmul"() {choir.member = #choir.member<2>, choir.plan = #choir.plan<tiled_contraction, contraction = <m = 0, n = 1, k = 2, batch = [], lhs = 0, rhs = 1>, targets = {sm_90 = #choir.launch<block = [16, 16, 1], tile = [128, 128, 8], subgroup = 32, workgroup_memory = 8448>}>} : () -> ()
  "test.map"() {choir.member = #choir.member<3>, choir.plan = #choir.plan<elementwise, targets = {sm_90 = #choir.launch<block = [256, 1, 1], tile = [256], subgroup = 32, workgroup_memory = 0>}>} : () -> ()
  "test.sum"() {choir.member = #choir.member<4>, choir.plan = #choir.plan<thread_reduction, targets = {sm_90 = #choir.launch<block = [32, 1, 1], tile = [32], subgroup = 32, workgroup_memory = 0>}>} : () -> ()
  return
}
