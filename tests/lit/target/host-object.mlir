// RUN: rm -rf %t && mkdir -p %t
// RUN: accy-opt %S/Inputs/kernels.mlir --accy-choir-dispatch="targets=host" --accy-choir-memory --accy-choir-kernel --accy-choir-target --accy-export-artifacts="directory=%t stem=kernels" -o /dev/null
// RUN: llvm-readelf -h %t/kernels.host.o | FileCheck %s --check-prefix=ELF
// RUN: llvm-nm --defined-only --extern-only %t/kernels.host.o | FileCheck %s --check-prefix=DEFINED
// RUN: llvm-nm --undefined-only %t/kernels.host.o | FileCheck %s --check-prefix=UNDEFINED

// One x86-64 relocatable object for the file: each kernel exported as
// `_mlir_ciface_<kernel>` only (the rest is internal), calling nothing but
// the C allocator and memset/memcpy (docs/abi.md).

// ELF:        Type: REL (Relocatable file)
// ELF:        Machine: Advanced Micro Devices X86-64

// DEFINED:      T _mlir_ciface_batch_einsum
// DEFINED-NEXT: T _mlir_ciface_bias_gelu
// DEFINED-NEXT: T _mlir_ciface_col_total
// DEFINED-NEXT: T _mlir_ciface_matmul_generic
// DEFINED-NEXT: T _mlir_ciface_matmul_static
// DEFINED-NEXT: T _mlir_ciface_row_stats
// DEFINED-NEXT: T _mlir_ciface_softmax
// DEFINED-NEXT: T _mlir_ciface_softmax_static
// DEFINED-NOT:  {{.}}

// UNDEFINED-NOT: {{ U (exp|log|tanh|floor|fma)}}
// UNDEFINED:     U free
// UNDEFINED-NEXT: U malloc
// UNDEFINED-NEXT: U memset
// UNDEFINED-NOT:  {{.}}
