// RUN: accy-opt %s --split-input-file --verify-diagnostics --accy-choir-legalize-math -o /dev/null

func.func @f64_exp(%x: f64) -> f64 {
  // expected-error @+1 {{'math.exp' on 'f64' has no self-contained lowering on every target (only f32 transcendentals are approximated)}}
  %0 = math.exp %x : f64
  return %0 : f64
}

// -----

func.func @remf(%x: f64, %y: f64) -> f64 {
  // expected-error @+1 {{'arith.remf' on 'f64' has no self-contained lowering on every target}}
  %0 = arith.remf %x, %y : f64
  return %0 : f64
}
