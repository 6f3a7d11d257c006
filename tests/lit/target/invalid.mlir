// RUN: accy-opt %s --split-input-file --verify-diagnostics --accy-legalize-math -o /dev/null

func.func @f64_erf(%x: f64) -> f64 {
  // expected-error @+1 {{'math.erf' on 'f64' has no self-contained lowering on every target (only f32 transcendentals and f64 exp, log and tanh are approximated)}}
  %0 = math.erf %x : f64
  return %0 : f64
}

// -----

func.func @remf(%x: f64, %y: f64) -> f64 {
  // expected-error @+1 {{'arith.remf' on 'f64' has no self-contained lowering on every target}}
  %0 = arith.remf %x, %y : f64
  return %0 : f64
}
