// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: accy-opt %S/Inputs/kernels.mlir --accy-choir-dispatch="targets=sm_80,sm_90" --accy-choir-memory --accy-choir-kernel --accy-choir-target --accy-export-artifacts="directory=%t stem=kernels" -o /dev/null
// RUN: %ptxas -arch=sm_80 %t/kernels.sm_80.ptx -o %t/kernels.sm_80.cubin
// RUN: %ptxas -arch=sm_90 %t/kernels.sm_90.ptx -o %t/kernels.sm_90.cubin
// RUN: accy-opt %S/Inputs/kernels.mlir --accy-choir-dispatch="targets=sm_90" --accy-choir-memory --accy-choir-kernel --accy-choir-target --accy-export-artifacts="directory=%t/each stem=kernels per-kernel=true" -o /dev/null
// RUN: %ptxas -arch=sm_90 %t/each/kernels.softmax.sm_90.ptx -o %t/softmax.cubin
// RUN: %ptxas -arch=sm_90 %t/each/kernels.matmul_static.sm_90.ptx -o %t/matmul_static.cubin

// The whole-file PTX of every representative kernel, and single kernels'
// PTX, are accepted by ptxas for sm_80 and sm_90 (see ptx-entries.mlir for
// what the PTX contains).
