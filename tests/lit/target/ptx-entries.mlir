// RUN: rm -rf %t && mkdir -p %t
// RUN: accy-opt %S/Inputs/kernels.mlir --accy-choir-dispatch="targets=sm_80,sm_90" --accy-choir-memory --accy-choir-kernel --accy-choir-target --accy-export-artifacts="directory=%t stem=kernels" -o /dev/null
// RUN: FileCheck %s --check-prefixes=PTX,SM90 < %t/kernels.sm_90.ptx
// RUN: FileCheck %s --check-prefixes=PTX,SM80 < %t/kernels.sm_80.ptx

// One PTX per target with every kernel of the file as an entry, no
// external function (no libdevice), the ISA version ptxas of CUDA 12 and 13
// accept, and the block size as .maxntid. Epilogues make no entry of their
// own: row_stats' mean runs in its sum's kernel, matmul_static's bias add in
// its matmul's, and each softmax is one row-pipeline kernel.

// PTX-NOT:    .extern
// PTX:        .version 8.0
// SM90:       .target sm_90
// SM80:       .target sm_80
// PTX:        .address_size 64
// PTX-DAG:    .visible .entry softmax_k0(
// PTX-DAG:    .visible .entry bias_gelu_k0(
// PTX-DAG:    .visible .entry row_stats_k0(
// PTX-DAG:    .visible .entry row_stats_k1(
// PTX-DAG:    .visible .entry row_stats_k2(
// PTX-DAG:    .visible .entry col_total_k0(
// PTX-DAG:    .visible .entry col_total_k1(
// PTX-DAG:    .visible .entry matmul_generic_k0(
// PTX-DAG:    .visible .entry matmul_static_k0(
// PTX-DAG:    .visible .entry batch_einsum_k0(
// PTX-DAG:    .visible .entry softmax_static_k0(
// PTX-DAG:    .maxntid 16, 16, 1
// PTX-DAG:    .maxntid 256, 1, 1
// PTX-DAG:    shfl.sync.bfly.b32
// PTX-DAG:    bar.sync 0;
// PTX-NOT:    .extern
// PTX-NOT:    .entry
