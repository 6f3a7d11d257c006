// RUN: accy-opt %s --accy-legalize-math | FileCheck %s

// Transcendentals become arithmetic (polynomials, range reduction through
// bit manipulation, exp/log range handling for subnormals), with no fma:
// what remains lowers to instructions on NVPTX, AMDGPU and x86-64 alike.

// CHECK-LABEL: func.func @transcendentals
// CHECK-NOT:     math.exp
// CHECK-NOT:     math.log
// CHECK-NOT:     math.tanh
// CHECK-NOT:     math.powf
// CHECK-NOT:     math.fma
// CHECK:         math.sqrt
// CHECK:         math.rsqrt
// CHECK:         math.absf
// CHECK:         return
func.func @transcendentals(%x: f32, %y: f32) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
  %0 = math.exp %x : f32
  %1 = math.log %x : f32
  %2 = math.tanh %x : f32
  %3 = math.powf %x, %y : f32
  %4 = math.sqrt %x : f32
  %5 = math.rsqrt %x : f32
  %6 = math.absf %x : f32
  %7 = math.log10 %x : f32
  return %0, %1, %2, %3, %4, %5, %6, %7 : f32, f32, f32, f32, f32, f32, f32, f32
}

// exp(x) below -87 and above 88 is computed as exp(x/2)^2.
// CHECK-LABEL: func.func @exp_range
// CHECK-DAG:     arith.constant -8.700000e+01 : f32
// CHECK-DAG:     arith.constant 8.800000e+01 : f32
// CHECK-DAG:     arith.constant 5.000000e-01 : f32
func.func @exp_range(%x: f32) -> f32 {
  %0 = math.exp %x : f32
  return %0 : f32
}

// tanh: Cephes' odd polynomial below 0.625, 1 - 2 / (exp(2|x|) + 1) above.
// CHECK-LABEL: func.func @tanh_split
// CHECK-DAG:     arith.constant 6.250000e-01 : f32
// CHECK-DAG:     arith.constant -0.0057049887{{[0-9]}} : f32
// CHECK-DAG:     math.copysign
func.func @tanh_split(%x: f32) -> f32 {
  %0 = math.tanh %x : f32
  return %0 : f32
}

// f64 exp, log and tanh (what f64 kernels' exp, log, log_softmax, sigmoid,
// gelu and tanh lower to) become f64 arithmetic: range reduction through
// floor and the exponent bits, polynomials, no libm call left.
// CHECK-LABEL: func.func @f64_transcendentals
// CHECK-NOT:     math.exp
// CHECK-NOT:     math.log
// CHECK-NOT:     math.tanh
// CHECK-DAG:     math.floor %{{.*}} : f64
// CHECK-DAG:     arith.bitcast %{{.*}} : i64 to f64
// CHECK-DAG:     arith.bitcast %{{.*}} : f64 to i64
// CHECK-DAG:     arith.constant 0.693145751953125 : f64
// CHECK-DAG:     arith.constant 6.250000e-01 : f64
// CHECK-DAG:     math.copysign %{{.*}} : f64
// CHECK:         return
func.func @f64_transcendentals(%x: f64) -> (f64, f64, f64) {
  %0 = math.exp %x : f64
  %1 = math.log %x : f64
  %2 = math.tanh %x : f64
  return %0, %1, %2 : f64, f64, f64
}

// f64 to f16 or bf16 (x86 would call __truncdfhf2, __truncdfbf2): to f32
// rounding to odd (the inexact bit ORed into the last place), then to the
// half type, which rounds once.
// CHECK-LABEL: func.func @narrow_from_f64
// CHECK-NOT:     arith.truncf %{{.*}} : f64 to f16
// CHECK-NOT:     arith.truncf %{{.*}} : f64 to bf16
// CHECK:         arith.truncf %{{.*}} : f64 to f32
// CHECK:         arith.cmpf une
// CHECK:         arith.ori
// CHECK:         arith.truncf %{{.*}} : f32 to f16
// CHECK:         arith.truncf %{{.*}} : f32 to bf16
func.func @narrow_from_f64(%x: f64) -> (f16, bf16) {
  %0 = arith.truncf %x : f64 to f16
  %1 = arith.truncf %x : f64 to bf16
  return %0, %1 : f16, bf16
}
