// RUN: rm -rf %t && mkdir -p %t
// RUN: accy-opt %S/Inputs/lowered-kernel.mlir --pass-pipeline='builtin.module(builtin.module(accy-serialize))' -o %t/product.mlir

// The whole file's artifacts, one per target, named after the stem; the
// IR is left as it was.
// RUN: accy-opt %t/product.mlir --accy-export-artifacts="directory=%t/file stem=lowered" -o %t/after.mlir
// RUN: cmp %t/product.mlir %t/after.mlir
// RUN: ls %t/file | FileCheck %s --check-prefix=FILES
// RUN: FileCheck %s --check-prefix=PTX < %t/file/lowered.sm_90.ptx
// RUN: llvm-readelf -h -s %t/file/lowered.gfx942.hsaco | FileCheck %s --check-prefix=HSACO
// RUN: llvm-readelf -h -s %t/file/lowered.host.o | FileCheck %s --check-prefix=HOST
// FILES:      lowered.gfx942.hsaco
// FILES-NEXT: lowered.host.o
// FILES-NEXT: lowered.sm_90.ptx
// FILES-NOT:  {{.}}
// PTX:        .target sm_90
// PTX:        .visible .entry scale_k0(
// HSACO:      Machine: EM_AMDGPU
// HSACO:      scale_k0
// HOST:       Type: REL (Relocatable file)
// HOST:       Machine: Advanced Micro Devices X86-64
// HOST:       GLOBAL {{.*}} _mlir_ciface_scale

// A file whose bytes would not change is not written again (its time
// stays, so a build system's restat stops there); one that differs is.
// RUN: touch -d 2000-01-01 %t/file/lowered.sm_90.ptx %t/file/lowered.gfx942.hsaco
// RUN: echo stale > %t/file/lowered.host.o && touch -d 2000-01-01 %t/file/lowered.host.o
// RUN: accy-opt %t/product.mlir --accy-export-artifacts="directory=%t/file stem=lowered" -o /dev/null
// RUN: find %t/file -type f -newermt 2001-01-01 | FileCheck %s --check-prefix=REWRITTEN --implicit-check-not=lowered.
// RUN: llvm-readelf -h -s %t/file/lowered.host.o | FileCheck %s --check-prefix=HOST
// REWRITTEN: /lowered.host.o

// With per-kernel, each kernel module's artifacts, named after the stem
// and the kernel.
// RUN: accy-opt %t/product.mlir --accy-export-artifacts="directory=%t/each stem=lowered per-kernel=true" -o /dev/null
// RUN: ls %t/each | FileCheck %s --check-prefix=EACH
// RUN: FileCheck %s --check-prefix=PTX < %t/each/lowered.scale.sm_90.ptx
// EACH:      lowered.scale.gfx942.hsaco
// EACH-NEXT: lowered.scale.host.o
// EACH-NEXT: lowered.scale.sm_90.ptx
// EACH-NOT:  {{.}}

// A module without kernels has nothing to export: an error, no file.
// RUN: not accy-opt %s --accy-export-artifacts="directory=%t/none" 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not ls %t/none
// NONE: error: no kernel module to export
module {
}
