//===- Passes.td - Passes of the target stage --------------*- tablegen -*-===//
//
// The target stage legalizes and lowers the kernel product for each backend
// (NVVM for sm_*, ROCDL for gfx*, LLVM for the host) and serializes PTX,
// HSACO and the host object into the product.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_STAGES_TARGET_PASSES
#define ACCY_STAGES_TARGET_PASSES

include "mlir/Pass/PassBase.td"

def SelectTargets : Pass<"accy-select-targets", "mlir::ModuleOp"> {
  let summary = "Keep the code of the requested targets only";
  let description = [{
    With a non-empty `targets`, drops the gpu.modules, launch functions and
    host module of targets not listed, and their entries in the kernel
    summary (`choir.kernels`), and reports a requested target the kernel
    product has no code for (it was not planned by the dispatch stage).
  }];
  let options = [
    Option<"targets", "targets", "std::string", /*default=*/"\"\"",
           "Comma-separated targets to keep (empty: all in the product)">,
  ];
}

def LegalizeMathToF32 : Pass<"accy-legalize-math-to-f32"> {
  let summary = "Compute f16 and bf16 math ops in f32, where there are any";
  let description = [{
    Upstream's math-legalize-to-f32 (an f16 or bf16 math op becomes the f32
    op between two conversions, rounded once), run only when the operation
    holds a math op on a float type narrower than f32: upstream's pass runs
    a dialect conversion over every op of a kernel module, which for the
    f32 kernels that are most of them changed nothing and cost as much as a
    small kernel's other math lowering.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::math::MathDialect"];
}

def OutlineMath : Pass<"accy-outline-math", "mlir::gpu::GPUModuleOp"> {
  let summary = "Call one copy of a transcendental that an NVPTX module "
                "repeats";
  let description = [{
    In a gpu.module for an NVPTX target, the unary math ops that
    legalize-math expands (exp, tanh, log, ...) and that occur at least
    `min-copies` times with the same type and flags become `func.call`s of
    one internal function holding the op, which legalize-math then expands
    once. Copies with the same arithmetic around them that depends on one
    value only (the scalar arith ops between that value and the op, and
    after the op up to the one value that leaves) call a function holding
    that arithmetic too; the copies whose arithmetic is of a structure too
    rare for a function of its own call the op's. The function is named
    after the kernel module around the gpu.module
    (`__accy_KERNEL_tanh_f32`), so the PTX of a file's kernels can be
    merged. The arithmetic, and so every result, is unchanged; the
    PTX and the time to generate it shrink with the copies. gpu.modules for
    other targets are left alone.
  }];
  let options = [
    Option<"minCopies", "min-copies", "unsigned", /*default=*/"8",
           "Outline an op that occurs at least this many times">,
  ];
  let dependentDialects = ["mlir::func::FuncDialect",
                           "mlir::LLVM::LLVMDialect"];
}

def LegalizeMath : Pass<"accy-legalize-math", "mlir::ModuleOp"> {
  let summary = "Rewrite math ops into self-contained arithmetic, the same "
                "way on every target";
  let description = [{
    Expands `math` ops that have no native lowering on some backend into
    arithmetic, in two rounds. First the rewrites into exp and log and the
    range handling around them: upstream math expansions (powf, fpowi,
    exp2, sinh, cosh, tan, asinh, acosh, atanh, roundf); Accy's own f32
    tanh (Cephes' form, about 2 ulp, in place of upstream's approximation),
    log10 as a scaled log, `arith.remf` as `x - y * trunc(x / y)`, exp
    rescaled at both ends of its range and log for subnormal arguments;
    f64 exp, log and tanh into f64 arithmetic (F64Math.cpp); maxnumf and
    minnumf into compare and select (so that x86 needs no `fmaxf`); and f64
    to f16/bf16 truncation into a round-to-odd step through f32 (x86 has no
    instruction for it and would call `__truncdfhf2`). Then upstream's
    polynomial approximations (`populateMathPolynomialApproximationPatterns`
    for exp, log, log1p, log2, expm1, erf, atan, atan2, sin, cos, cbrt, ...)
    and fma into mul+add, so that no target needs a libm `fmaf`. What
    remains (sqrt, rsqrt, absf, copysign, floor, ceil, ...) lowers to
    instructions on every backend. Any other math op, and an `arith.remf`
    that is not f32, is reported by name. The host and the GPU targets get
    the same arithmetic, so their results agree closely.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::math::MathDialect",
                           "mlir::vector::VectorDialect"];
}

def ExpandStridedMetadata : Pass<"accy-expand-strided-metadata"> {
  let summary = "Expand memref view ops into strided metadata and affine "
                "arithmetic, on the ops it rewrites";
  let description = [{
    Upstream's expand-strided-metadata patterns (subview, reinterpret_cast,
    expand and collapse shape, ... into memref.extract_strided_metadata and
    affine.apply), applied to the ops they are rooted at and the ops they
    create rather than by a greedy run over the whole operation, which
    folded every op of a kernel module again. The result is the same.
  }];
  let dependentDialects = ["mlir::affine::AffineDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::memref::MemRefDialect"];
}

def ConvertGPUToNVVM : Pass<"accy-convert-gpu-to-nvvm",
                            "mlir::gpu::GPUModuleOp"> {
  let summary = "Lower a gpu.module with an NVVM target to the LLVM and NVVM "
                "dialects, without libdevice";
  let description = [{
    The upstream GPU-to-NVVM patterns, with math ops first lowered to LLVM
    intrinsics that the NVPTX backend selects itself (sqrt, fabs, floor, ...)
    rather than to `__nv_*` libdevice calls, and the legality of those
    intrinsics restored. First `gpu.block_dim` folds to the kernel's known
    block size, and upstream's GPU rewrites run, `gpu.subgroup_reduce`
    becoming butterfly shuffles over 32 lanes (64-bit values in two 32-bit
    shuffles); `ceildivui` and friends are expanded. Skips gpu.modules whose
    target is not `#nvvm.target`.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect",
                           "mlir::NVVM::NVVMDialect"];
}

def ConvertGPUToROCDL : Pass<"accy-convert-gpu-to-rocdl",
                             "mlir::gpu::GPUModuleOp"> {
  let summary = "Lower a gpu.module with a ROCDL target to the LLVM and ROCDL "
                "dialects, without ROCm device libraries";
  let description = [{
    The upstream GPU-to-ROCDL patterns, with math ops lowered to LLVM
    intrinsics rather than `__ocml_*` calls, and `gpu.block_dim` folded to
    the kernel's known block size (its generic lowering calls OCKL);
    `gpu.grid_dim`, which would need OCKL too, is reported. Upstream's GPU
    rewrites run first, `gpu.subgroup_reduce` becoming butterfly shuffles
    over the target profile's subgroup (64 lanes on gfx9; 64-bit values in
    two 32-bit shuffles), and `ceildivui` and friends, maximumf, minimumf,
    maxnumf and minnumf are expanded into arith (compares and selects).
    Kernels get `rocdl.reqd_work_group_size`/`rocdl.flat_work_group_size`
    from their known block size. Skips gpu.modules whose target is not
    `#rocdl.target`.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect",
                           "mlir::ROCDL::ROCDLDialect"];
}

def Serialize : Pass<"accy-serialize", "mlir::ModuleOp"> {
  let summary = "Compile lowered gpu.modules and the host module into "
                "artifacts";
  let description = [{
    Each gpu.module (LLVM/NVVM/ROCDL dialect, with its target attribute)
    becomes `gpu.binary @<target>` holding one `#gpu.object`: PTX text
    (`assembly`) for NVVM targets, an AMDGPU code object (`bin`, linked with
    ld.lld) for ROCDL targets; its `properties` keep what whole-file
    artifacts are linked from: the optimized LLVM bitcode (`accy.bitcode`)
    for NVVM, the relocatable objects the code object was linked from
    (`accy.relocatable`) for ROCDL, one per piece of the module compiled
    apart. The host module (`builtin.module @host`, LLVM dialect) becomes
    the `accy.host_object` attribute of the kernel module (an x86-64 ELF
    relocatable object plus its bitcode, the triple, the CPU and the
    exported `_mlir_ciface_` symbols; every other host function is made
    internal). The output is checked: no module may declare a function it
    does not define, other than intrinsics (and, on the host, the allowed
    externals). PTX code is compiled under canonical names: pieces of equal
    code but for their names (kernels that lower to the same code) that
    are compiled at once share one code generation, and each gets the same
    bytes as alone (docs/internals.md, "Equal code generated once").
  }];
}

def ExportArtifacts : Pass<"accy-export-artifacts", "mlir::ModuleOp"> {
  let summary = "Write the artifacts of a target product to files";
  let description = [{
    For tests and tools: writes the whole-file artifacts of the target
    product (`accy::codegen::linkFileArtifacts`: every kernel linked into one
    PTX per sm_*, one HSACO per gfx*, one host object) as
    `<directory>/<stem>.<target>.{ptx,hsaco,o}`, or with `per-kernel` the
    artifacts of each kernel module as `<stem>.<kernel>.<target>...`. Files
    are rewritten only when their bytes change. The IR is not modified.
  }];
  let options = [
    Option<"directory", "directory", "std::string", /*default=*/"\".\"",
           "Directory to write into">,
    Option<"stem", "stem", "std::string", /*default=*/"\"accy\"",
           "File name stem (the source file's name)">,
    Option<"perKernel", "per-kernel", "bool", /*default=*/"false",
           "Write each kernel's artifacts instead of the linked ones">,
  ];
}

#endif // ACCY_STAGES_TARGET_PASSES
