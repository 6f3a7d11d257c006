// RUN: rm -rf %t && mkdir -p %t
// RUN: accy-opt %S/Inputs/kernels.mlir --accy-choir-dispatch="targets=gfx90a,gfx942" --accy-choir-memory --accy-choir-kernel --accy-choir-target --accy-export-artifacts="directory=%t stem=kernels" -o /dev/null
// RUN: llvm-readelf -h -s %t/kernels.gfx942.hsaco | FileCheck %s --check-prefixes=ELF,GFX942
// RUN: llvm-readelf -h -s %t/kernels.gfx90a.hsaco | FileCheck %s --check-prefixes=ELF,GFX90A
// RUN: llvm-nm -u %t/kernels.gfx942.hsaco | count 0
// RUN: llvm-nm -u %t/kernels.gfx90a.hsaco | count 0

// One AMDGPU code object per chip with a kernel descriptor per kernel of
// the file, linked by ld.lld without undefined symbols (no OCML/OCKL).

// ELF:        Class: ELF64
// ELF:        Type: DYN (Shared object file)
// ELF:        Machine: EM_AMDGPU
// GFX942:     Flags: {{.*}}gfx942
// GFX90A:     Flags: {{.*}}gfx90a
// ELF:        Symbol table '.dynsym'
// ELF-DAG:    OBJECT GLOBAL DEFAULT {{.*}} softmax_k0.kd
// ELF-DAG:    OBJECT GLOBAL DEFAULT {{.*}} bias_gelu_k0.kd
// ELF-DAG:    OBJECT GLOBAL DEFAULT {{.*}} row_stats_k2.kd
// ELF-DAG:    OBJECT GLOBAL DEFAULT {{.*}} col_total_k1.kd
// ELF-DAG:    OBJECT GLOBAL DEFAULT {{.*}} matmul_generic_k0.kd
// ELF-DAG:    OBJECT GLOBAL DEFAULT {{.*}} matmul_static_k0.kd
// ELF-DAG:    OBJECT GLOBAL DEFAULT {{.*}} batch_einsum_k0.kd
// ELF-DAG:    OBJECT GLOBAL DEFAULT {{.*}} softmax_static_k0.kd
// ELF-DAG:    FUNC GLOBAL PROTECTED {{.*}} softmax_k0{{$}}
