// RUN: accy-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect -o /dev/null

// One case per verifier message of the dispatch plans and regions
// (ChoirPlanAttrs.cpp, ChoirDispatchOps.cpp).
// A launch is checked wherever it appears; under any attribute name here.

// expected-error @+1 {{dispatch id -1 is negative}}
"test.root"() {choir.member = #choir.member<-1>} : () -> ()

// -----

// expected-error @+1 {{'choir.member' must be #choir.member}}
"test.root"() {choir.member = {id = 0 : i64}} : () -> ()

// -----

// expected-error @+1 {{'choir.plan' must be #choir.plan}}
"test.root"() {choir.plan = {schedule = "elementwise"}} : () -> ()

// -----

// expected-error @+1 {{block must be three positive sizes (x, y, z)}}
"test.root"() {launch = #choir.launch<block = [256, 1], tile = [256], subgroup = 32, workgroup_memory = 0>} : () -> ()

// -----

// expected-error @+1 {{mma needs tile = [BM, BN, BK] and stages}}
"test.root"() {launch = #choir.launch<block = [32, 8, 1], tile = [128, 128, 32], subgroup = 32, workgroup_memory = 0, mma = [16, 8, 16]>} : () -> ()

// -----

// expected-error @+1 {{stages needs mma}}
"test.root"() {launch = #choir.launch<block = [32, 8, 1], tile = [128, 128, 32], subgroup = 32, workgroup_memory = 0, stages = 2>} : () -> ()

// -----

// expected-error @+1 {{tile must be one or more positive sizes}}
"test.root"() {launch = #choir.launch<block = [256, 1, 1], tile = [], subgroup = 32, workgroup_memory = 0>} : () -> ()

// -----

// expected-error @+1 {{subgroup 48 is not a positive power of two}}
"test.root"() {launch = #choir.launch<block = [256, 1, 1], tile = [256], subgroup = 48, workgroup_memory = 0>} : () -> ()

// -----

// expected-error @+1 {{launch sizes must not be negative}}
"test.root"() {launch = #choir.launch<block = [256, 1, 1], tile = [256], subgroup = 32, workgroup_memory = -4>} : () -> ()

// -----

// expected-error @+1 {{line_chunks needs lines_per_block}}
"test.root"() {launch = #choir.launch<block = [256, 1, 1], tile = [1], subgroup = 32, workgroup_memory = 0, line_chunks = 32>} : () -> ()

// -----

// expected-error @+1 {{a row_reduction plan needs a combiner}}
"test.root"() {choir.plan = #choir.plan<row_reduction, targets = {sm_90 = #choir.launch<block = [256, 1, 1], tile = [1], subgroup = 32, workgroup_memory = 32>}>} : () -> ()

// -----

// expected-error @+1 {{target 'host' is neither #choir.launch nor #choir.serial_loops}}
"test.root"() {choir.plan = #choir.plan<elementwise, targets = {host = {loops = "serial"}}>} : () -> ()

// -----

// expected-error @+1 {{target 'sm_90': rows_per_block, subgroup_rows_up_to belong to row_reduction plans only}}
"test.root"() {choir.plan = #choir.plan<elementwise, targets = {sm_90 = #choir.launch<block = [256, 1, 1], tile = [256], subgroup = 32, workgroup_memory = 0, rows_per_block = 8>}>} : () -> ()

// -----

// expected-error @+1 {{target 'sm_90': lines_per_block, thread_lines_from, line_tile, split_lines_below, shuffle_up belong to scan plans only}}
"test.root"() {choir.plan = #choir.plan<row_reduction, combiner = "addf", targets = {sm_90 = #choir.launch<block = [256, 1, 1], tile = [1], subgroup = 32, workgroup_memory = 32, shuffle_up = true>}>} : () -> ()

// -----

// expected-error @+2 {{expected ::accy::choir::Schedule to be one of: elementwise, row_reduction, thread_reduction, tiled_contraction, scan}}
// expected-error @+1 {{failed to parse Choir_PlanAttr parameter 'schedule'}}
"test.root"() {choir.plan = #choir.plan<row_reductions, combiner = "addf", targets = {}>} : () -> ()

// -----

func.func @no_root(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'choir.dispatch' op region holds no root (an op marked #choir.member<N>)}}
  %r = choir.dispatch outs(%x : tensor<4xf32>) plan <elementwise, targets = {host = #choir.serial_loops}> {
  ^bb0(%o: tensor<4xf32>):
    choir.yield %o : tensor<4xf32>
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @arguments(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'choir.dispatch' op operand 0 of type 'tensor<4xf32>' is taken by a region argument of type 'tensor<8xf32>'}}
  %r = choir.dispatch outs(%x : tensor<4xf32>) plan <elementwise, targets = {host = #choir.serial_loops}> {
  ^bb0(%o: tensor<8xf32>):
    %c = arith.constant dense<0.0> : tensor<4xf32>
    choir.yield %c : tensor<4xf32>
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// expected-error @+1 {{'choir.scan' must be #choir<scan_kind ...>}}
"test.root"() {choir.scan = "cumsum"} : () -> ()

// -----

// expected-error @+1 {{contraction loops belong to tiled_contraction plans, and every such plan has them}}
"test.root"() {choir.plan = #choir.plan<tiled_contraction, targets = {host = #choir.serial_loops}>} : () -> ()

// -----

// expected-error @+1 {{scan loops belong to scan plans, and every such plan has them}}
"test.root"() {choir.plan = #choir.plan<row_reduction, combiner = "addf", scan = <axis = 0, masked = 1>, targets = {host = #choir.serial_loops}>} : () -> ()
