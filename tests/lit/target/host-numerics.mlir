// REQUIRES: host-cxx
// RUN: rm -rf %t && mkdir -p %t
// RUN: accy-opt %S/Inputs/kernels.mlir --accy-choir-dispatch="targets=host" --accy-choir-memory --accy-choir-kernel --accy-choir-target --accy-export-artifacts="directory=%t stem=kernels" -o /dev/null
// RUN: %host-cxx -O1 %S/Inputs/host_numerics.cpp %t/kernels.host.o -o %t/numerics
// RUN: %t/numerics | FileCheck %s --check-prefix=NUM
// RUN: accy-opt %S/Inputs/math.mlir --accy-choir-dispatch="targets=host" --accy-choir-memory --accy-choir-kernel --accy-choir-target --accy-export-artifacts="directory=%t stem=math" -o /dev/null
// RUN: %host-cxx -O1 %S/Inputs/host_math.cpp %t/math.host.o -o %t/math
// RUN: %t/math | FileCheck %s --check-prefix=MATH

// The host objects compute what a double-precision reference does, and the
// math lowering shared by every target is within 4 ulp (LANGUAGE.md).

// NUM:      softmax          ok
// NUM-NEXT: bias_gelu        ok
// NUM-NEXT: row_stats.sum    ok
// NUM-NEXT: row_stats.mean   ok
// NUM-NEXT: row_stats.max    ok
// NUM-NEXT: row_stats.min    ok
// NUM-NEXT: col_total.cols   ok
// NUM-NEXT: col_total.total  ok
// NUM-NEXT: matmul_generic   ok
// NUM-NEXT: matmul_static    ok
// NUM-NEXT: batch_einsum     ok
// NUM-NEXT: softmax_static   ok

// MATH: exp max ulp {{[0-3]\.[0-9]+}} ok
// MATH: log max ulp {{[0-3]\.[0-9]+}} ok
// MATH: tanh max ulp {{[0-3]\.[0-9]+}} ok
// MATH: rsqrt max ulp {{[0-3]\.[0-9]+}} ok
