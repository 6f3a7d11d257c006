//===- HostKernels.h - The host object's C interface of kernels.accy ------===//
//
// One function per kernel of kernels.accy, exported by its host object
// (docs/abi.md): a descriptor pointer per input, then per result.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_BENCH_GPU_HOSTKERNELS_H
#define ACCY_BENCH_GPU_HOSTKERNELS_H

extern "C" {
void _mlir_ciface_row_softmax(void *x, void *out);
void _mlir_ciface_layer_norm(void *x, void *g, void *b, void *out);
void _mlir_ciface_xent(void *logits, void *labels, void *out);
void _mlir_ciface_row_cumsum(void *x, void *out);
void _mlir_ciface_chain(void *x, void *y, void *out);
void _mlir_ciface_matmul(void *a, void *b, void *out);
void _mlir_ciface_matmul_f16(void *a, void *b, void *out);
void _mlir_ciface_matmul_bf16(void *a, void *b, void *out);
}

#endif
