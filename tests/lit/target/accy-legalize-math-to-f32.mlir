// RUN: accy-opt %s --split-input-file --accy-legalize-math-to-f32 | FileCheck %s

// An f16 or bf16 math op, at any depth and in vectors too, is computed in
// f32 between two conversions, as upstream's math-legalize-to-f32 does.
// CHECK-LABEL: gpu.func @narrow
// CHECK-DAG:     %[[WIDE:.*]] = arith.extf %arg0 {{.*}}: f16 to f32
// CHECK-DAG:     %[[WIDEV:.*]] = arith.extf %arg1 {{.*}}: vector<4xbf16> to vector<4xf32>
// CHECK-DAG:     %[[EXP:.*]] = math.exp %[[WIDE]] : f32
// CHECK-DAG:     arith.truncf %[[EXP]] {{.*}}: f32 to f16
// CHECK-DAG:     %[[TANH:.*]] = math.tanh %[[WIDEV]] : vector<4xf32>
// CHECK-DAG:     arith.truncf %[[TANH]] {{.*}}: vector<4xf32> to vector<4xbf16>
// CHECK-NOT:     math.{{.*}}f16
gpu.module @narrow_module {
  gpu.func @narrow(%x: f16, %v: vector<4xbf16>) {
    %e = math.exp %x : f16
    %t = math.tanh %v : vector<4xbf16>
    gpu.return
  }
}

// -----

// A module without narrow float math is left as it is: its f32 and f64
// math, and the f16 arithmetic that is not math, are not touched.
// CHECK-LABEL: func.func @wide
// CHECK-NEXT:    math.exp %arg0 : f32
// CHECK-NEXT:    math.log %arg1 : f64
// CHECK-NEXT:    arith.addf %arg2, %arg2 : f16
func.func @wide(%x: f32, %y: f64, %h: f16) -> (f32, f64, f16) {
  %e = math.exp %x : f32
  %l = math.log %y : f64
  %s = arith.addf %h, %h : f16
  return %e, %l, %s : f32, f64, f16
}
